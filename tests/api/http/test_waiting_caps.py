"""The caps on a client's waiting requests over HTTP: a real gunicorn (2 workers) on a Redis of this module's own.

Each client is its own loopback address (``from_address``), as distinct clients are on the internet: each test
has its own, so the tests share one server.  A stream is held open by its response; a long poll by a thread.
Refusals are answered at once (``REFUSAL_DELAY_SECONDS=0``), so a test may poll with them.  The slot logic is
unit-tested in tests/api/live/test_waiting_caps.py (memory store) and the store's part in
tests/api/store/test_waiting_slots_contract.py (memory, Redis, the Cluster).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

import psutil
import pytest
import redis
import requests

from services.api.games.quotas import creator_ids
from services.api.games.record import GameRecord
from services.api.store.redis_keys import waiting_key
from services.api.store.redis_store import RedisStore
from testkit.http_clients import from_address
from testkit.processes import free_port, running, start_gunicorn, start_redis, stop

from ..contract import check_response
from ..helpers import auth, holds_within, wait_until

pytestmark = pytest.mark.integration  # real Redis / gunicorn processes

CAP, TOKEN_CAP, LEASE = 4, 2, 3.0
CAPS = {
    "RATE_LIMIT_ENABLED": "1",
    "RATE_LIMIT_PER_ADDRESS": "100000/minute",
    "RATE_LIMIT_PER_TOKEN": "100000/minute",
    "REFUSAL_DELAY_SECONDS": "0",
    "MAX_WAITING_PER_ADDRESS": str(CAP),
    "MAX_WAITING_PER_TOKEN": str(TOKEN_CAP),
    "WAITING_LEASE_SECONDS": str(LEASE),  # renewed every second while a request waits
    "STREAM_HEARTBEAT_SECONDS": "0.2",  # a dropped stream is noticed within a heartbeat or two
    "AI_ENABLED": "0",
}


@dataclass
class Stack:
    master: psutil.Process  # gunicorn's
    base: str
    client: redis.Redis

    def held(self, address: str | None = None, token: str | None = None) -> int:
        """The slots an address or a token holds in the store now."""
        holder = creator_ids(address, None)[0] if address else creator_ids(None, token)[0]
        return self.client.zcard(waiting_key(holder))


@pytest.fixture(scope="module")
def stack(tmp_path_factory) -> Iterator[Stack]:
    port = free_port()
    server = start_redis(port, str(tmp_path_factory.mktemp("redis")), appendonly=False)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        process, base = start_gunicorn(url, workers=2, env=CAPS)
        with running(process, sig=signal.SIGQUIT):
            yield Stack(psutil.Process(process.pid), base, redis.Redis.from_url(url))
    finally:
        stop(server)


def new_game(base: str) -> tuple[str, list[str], int, int]:
    """Four people's game: its id, the seats' tokens, its last seq, the seat to move."""
    body = {"rules": {"preset": "partnership"}, "seats": [{"type": "human"}] * 4}
    created = requests.post(f"{base}/v1/games", json=body, timeout=30).json()
    state = created["state"]
    return created["game_id"], [seat["token"] for seat in created["seats"]], state["last_seq"], state["turn"]


def bid(base: str, game_id: str, token: str) -> None:
    response = requests.post(f"{base}/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(token), timeout=10)
    assert response.status_code == 200, response.text


def stream(base: str, address: str, game_id: str, after: int, token: str | None = None) -> requests.Response:
    headers = {"Last-Event-ID": str(after), **(auth(token) if token else {})}
    session = from_address(requests.Session(), address)
    return session.get(f"{base}/v1/games/{game_id}/stream", headers=headers, stream=True, timeout=60)


def opens(
    base: str, address: str, game_id: str, after: int, kept: list[requests.Response], token: str | None = None
) -> bool:
    """Whether a stream from ``address`` opens now; it is then kept open (in ``kept``), holding its slot."""
    response = stream(base, address, game_id, after, token)
    if response.status_code != 200:
        return False
    kept.append(response)  # a response the client drops is closed, and its slot released
    return True


def long_poll(base: str, address: str, game_id: str, after: int, token: str | None = None) -> dict[str, Any]:
    """A 30 s long poll in a thread of its own; its response lands in the returned dict."""
    out: dict[str, Any] = {}
    headers = auth(token) if token else {}
    session = from_address(requests.Session(), address)
    url, params = f"{base}/v1/games/{game_id}/events", {"after": after, "wait": 30}
    thread = threading.Thread(target=lambda: out.update(response=session.get(url, params=params, headers=headers)))
    thread.start()
    out["thread"] = thread
    return out


def assert_refused(response: requests.Response, limit: int, who: str) -> None:
    if response.status_code == 200:
        response.close()  # an open stream's body never ends
    assert response.status_code == 429, "not refused"
    check_response(response)
    problem = response.json()
    assert problem["code"] == "too_many_waiting", response.text
    assert problem["limit"] == limit and who in problem["detail"]
    assert response.headers["Retry-After"] == "5"


def per_worker(stack: Stack, address: str) -> list[int]:
    """The connections from ``address`` each worker holds now."""
    port = int(stack.base.rsplit(":", 1)[1])
    return [
        sum(1 for c in worker.net_connections("tcp") if c.laddr.port == port and c.raddr and c.raddr.ip == address)
        for worker in stack.master.children()
    ]


def streams_on_both_workers(stack: Stack, address: str, game_id: str, after: int, count: int) -> list:
    """``count`` streams from ``address`` held open, some by each worker (the kernel hands a new connection to
    either: a round that lands on one worker only is closed and tried again)."""
    for _round in range(20):
        opened = [stream(stack.base, address, game_id, after) for _ in range(count)]
        assert [response.status_code for response in opened] == [200] * count
        if holds_within(lambda: sorted(per_worker(stack, address)) not in ([0, count], [count, 0]), 2):
            wait_until(lambda: sum(per_worker(stack, address)) == count, "a stream's connection went missing")
            return opened
        for response in opened:
            response.close()
        wait_until(lambda: stack.held(address) == 0, "closed streams kept their slots")
    raise AssertionError("20 rounds of streams all landed on one worker")


def refusals(base: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for line in requests.get(f"{base}/metrics", timeout=10).text.splitlines():
        if line.startswith("spades_waiting_refusals_total{"):
            holder = line.split('holder="', 1)[1].split('"', 1)[0]
            found[holder] = found.get(holder, 0.0) + float(line.rsplit(" ", 1)[1])
    return found


def test_one_address_waits_at_most_its_cap_across_both_workers_and_an_ended_wait_frees_its_place(stack):
    base, me = stack.base, "127.0.0.2"
    game_id, tokens, last, turn = new_game(base)
    opened = streams_on_both_workers(stack, me, game_id, last, CAP - 1)
    poll = long_poll(base, me, game_id, last)
    wait_until(lambda: stack.held(me) == CAP, "the long poll never took its slot")
    first_leases_end = max(
        score for _, score in stack.client.zrange(waiting_key(creator_ids(me, None)[0]), 0, -1, withscores=True)
    )
    # time passes the leases the slots were taken with: the waiting requests renew them
    wait_until(lambda: time.time() > first_leases_end + 1, "the clock stopped", bound=10)

    assert_refused(stream(base, me, game_id, last), CAP, "this address")
    url, http = f"{base}/v1/games/{game_id}/events", from_address(requests.Session(), me)
    assert_refused(http.get(url, params={"after": last, "wait": 1}, timeout=10), CAP, "this address")
    assert http.get(url, params={"after": last}, timeout=10).status_code == 200, "a read that does not wait"
    with stream(base, "127.0.0.3", game_id, last) as other:
        assert other.status_code == 200, "another address has its own slots"
    assert refusals(base).get("address", 0) >= 2

    bid(base, game_id, tokens[turn])
    poll["thread"].join(30)
    assert poll["response"].status_code == 200 and poll["response"].json()["events"], "the bid ended the poll"
    assert opens(base, me, game_id, last, opened), "the answered long poll gave its slot back"
    assert_refused(stream(base, me, game_id, last), CAP, "this address")
    opened[0].close()  # the client goes away: noticed at the stream's next heartbeat
    wait_until(partial(opens, base, me, game_id, last, opened), "a closed stream kept its slot")
    assert_refused(stream(base, me, game_id, last), CAP, "this address")


def test_one_seat_token_waits_at_most_its_cap_from_any_address(stack):
    base = stack.base
    game_id, tokens, last, turn = new_game(base)
    token = tokens[(turn + 1) % 4]  # not the seat to move: the bid below is another seat's
    first = stream(base, "127.0.0.4", game_id, last, token)
    assert first.status_code == 200
    poll = long_poll(base, "127.0.0.5", game_id, last, token)
    wait_until(lambda: stack.held(token=token) == TOKEN_CAP, "the long poll never took its slot")

    assert_refused(stream(base, "127.0.0.6", game_id, last, token), TOKEN_CAP, "this seat token")
    with stream(base, "127.0.0.6", game_id, last) as spectator:
        assert spectator.status_code == 200, "the address is far from its own cap"
        assert stack.held("127.0.0.6") == 1, "the refused request held no slot of its address"
    assert refusals(base).get("token", 0) >= 1

    bid(base, game_id, tokens[turn])
    poll["thread"].join(30)
    assert poll["response"].status_code == 200
    kept = [first]
    assert opens(base, "127.0.0.6", game_id, last, kept, token), "the answered long poll gave its slot back"
    assert_refused(stream(base, "127.0.0.6", game_id, last, token), TOKEN_CAP, "this seat token")


@pytest.mark.parametrize(
    ("signum", "me"), [(signal.SIGTERM, "127.0.0.7"), (signal.SIGKILL, "127.0.0.8")], ids=["stopped", "killed"]
)
def test_a_stopping_worker_releases_its_slots_and_a_killed_ones_lapse(stack, signum, me):
    """SIGTERM drains the workers' hubs: every stream ends and its slot is released (not left to lapse: a probe
    slot holds the key, and nothing prunes lapsed ones while no request takes one).  A worker killed outright
    releases nothing: its slots lapse at their lease's end, and new streams are served again."""
    base = stack.base
    game_id, _, last, _ = new_game(base)
    opened = [stream(base, me, game_id, last) for _ in range(CAP)]
    assert [response.status_code for response in opened] == [200] * CAP
    assert_refused(stream(base, me, game_id, last), CAP, "this address")
    holder, now = creator_ids(me, None)[0], time.time()
    RedisStore(GameRecord.from_stored, stack.client, 600, 300).renew_waiting([holder], "probe", now, now + 600)
    workers = stack.master.children()
    for worker in workers:
        os.kill(worker.pid, signum)
    psutil.wait_procs(workers, timeout=30)
    if signum == signal.SIGTERM:
        wait_until(lambda: stack.held(me) == 1, "a drained stream kept its slot")  # the probe's
    wait_until(lambda: len(stack.master.children()) == 2, "gunicorn did not replace its workers")
    stack.client.zrem(waiting_key(holder), "probe")
    fresh: list[requests.Response] = []
    for _ in range(CAP):  # the new workers serve as many streams again (after a kill, once the leases end)
        wait_until(partial(opens, base, me, game_id, last, fresh), "a stopped worker's slot was never freed")
    assert_refused(stream(base, me, game_id, last), CAP, "this address")
