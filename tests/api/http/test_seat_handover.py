"""A seat that changes hands ends what its old token opened: two real API servers (one gunicorn process each).

Each way a seat changes hands — a leave and a stranger's claim, a leave to a computer's stand-in, a rejoin from
another device, a take by its player, a rematch's repeated opt-in, and the release of a seat whose player
credential died (the session that took it revoked, everywhere or alone, or the player token rotated; its player
then takes it back) — is made through server B while a stream and a long poll opened
with the seat's old token wait on server A; the game then plays on into a new deal.  Nothing that reaches the
old connections after the change carries anything a spectator would not get: the stream ends right after the
change's event, the long poll answers with it, and every later request with the old token is a ``401``.  A
client that asks to start past the change (``after`` beyond the log's head, so it never reads the change's
event) is stopped before the next private event all the same.  The rule's unit tests:
tests/api/games/test_audience.py.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
import requests

from services.api.games.event_types import HANDS_ON
from tests.conftest import run_gunicorn

from ..contract import ContractSession
from ..helpers import auth, create_game, wait_until
from ..sse import messages, open_stream

pytestmark = pytest.mark.integration

ENV = {
    "STREAM_HEARTBEAT_SECONDS": "0.5",
    "STREAM_MAX_SECONDS": "30",  # an old stream that was never ended is read until the new deal, then dropped
    "MAX_GAMES_IN_PLAY": "0",
    "MAX_COMPUTER_GAMES": "0",
}
FOUR = [{"type": "human"}] * 4
NO_STAND_IN = {"clock": "none", "ai_takeover": None}  # a seat left is open: claimable by a stranger
POLL_SECONDS = 20


@pytest.fixture(scope="module")
def servers(redis_db1) -> Iterator[tuple[str, str]]:
    """A holds the old connections; every change and every move goes through B."""
    with run_gunicorn(ENV, workers=1) as a, run_gunicorn(ENV, workers=1) as b:
        yield a, b


@dataclass
class Table:
    """A game under test: its id, the seats' current tokens (a computer's seat has none), the seat watched."""

    game_id: str
    tokens: dict[int, str]
    seat: int = 0


def spectator_events(session: ContractSession, game_id: str) -> dict[int, dict[str, Any]]:
    """Every kept event of the game as a spectator gets it, by seq."""
    page = session.get(f"/v1/games/{game_id}/events", params={"after": 0}).json()
    return {event["seq"]: event for event in page["events"]}


def last_seq(session: ContractSession, game_id: str) -> int:
    return session.get(f"/v1/games/{game_id}").json()["last_seq"]


def play_until(session: ContractSession, table: Table, done: Callable[[dict[str, Any]], bool]) -> None:
    """The people's seats bid 1 or more (a table of nils could end a game in its first round) and play their first
    legal card, the computers' moves are waited for, until the spectator's view is ``done``."""
    for _ in range(3000):
        view = session.get(f"/v1/games/{table.game_id}").json()
        if done(view):
            return
        assert view["phase"] != "game_over", "the game ended first"
        token = table.tokens.get(view["turn"])
        if token is None:  # a computer's turn: wait for its move
            session.get(f"/v1/games/{table.game_id}/events", params={"after": view["last_seq"], "wait": 5})
            continue
        mine = session.get(f"/v1/games/{table.game_id}", headers=auth(token)).json()
        bidding = mine["phase"] == "bidding"
        bid = next((b for b in mine["legal"] if b >= 1), mine["legal"][0]) if bidding else None
        kind, body = ("bids", {"bid": bid}) if bidding else ("plays", {"card": mine["legal"][0]})
        moved = session.post(f"/v1/games/{table.game_id}/{kind}", json=body, headers=auth(token))
        assert moved.status_code == 200, moved.text
    raise AssertionError("the game never got there")


def play_into_round(session: ContractSession, table: Table, round_no: int) -> int:
    """Play until round ``round_no`` is dealt; the seq of its ``round_started``."""
    play_until(session, table, lambda view: view["round"] >= round_no)
    dealt = spectator_events(session, table.game_id).values()
    return next(e["seq"] for e in dealt if e["type"] == "round_started" and e["data"]["round"] == round_no)


# Each way a seat changes hands: set up the game (on B), then the change (on B) once A's connections wait;
# the change returns the table as it is after it, and the round whose deal is the first private event after it.


def leave_then_a_stranger_claims(b: ContractSession) -> tuple[Table, Callable[[Table], tuple[Table, int]]]:
    created = create_game(b, seats=FOUR, options=NO_STAND_IN)
    table = Table(created["game_id"], {s["seat"]: s["token"] for s in created["seats"]})

    def change(table: Table) -> tuple[Table, int]:
        assert b.post(f"/v1/games/{table.game_id}/seats/0/leave", headers=auth(table.tokens[0])).status_code == 200
        claimed = b.post(f"/v1/games/{table.game_id}/seats/0/claim")
        assert claimed.status_code == 200, claimed.text
        return Table(table.game_id, {**table.tokens, 0: claimed.json()["token"]}), 2

    return table, change


def leave_to_a_stand_in(b: ContractSession) -> tuple[Table, Callable[[Table], tuple[Table, int]]]:
    seats = [{"type": "human"}, {"type": "human"}, {"type": "ai", "level": "basic"}, {"type": "ai", "level": "basic"}]
    created = create_game(b, seats=seats, options={"clock": "none", "ai_takeover": "basic"})
    table = Table(created["game_id"], {0: created["seats"][0]["token"], 1: created["seats"][1]["token"]})

    def change(table: Table) -> tuple[Table, int]:
        left = b.post(f"/v1/games/{table.game_id}/seats/0/leave", headers=auth(table.tokens[0]))
        assert left.status_code == 200 and left.json()["seats"][0]["type"] == "ai", left.text
        return Table(table.game_id, {1: table.tokens[1]}), 2

    return table, change


def rejoin_from_another_device(b: ContractSession) -> tuple[Table, Callable[[Table], tuple[Table, int]]]:
    created = create_game(b, seats=FOUR)
    table = Table(created["game_id"], {s["seat"]: s["token"] for s in created["seats"]})
    code = b.post(f"/v1/games/{table.game_id}/seats/0/rejoin-code", headers=auth(table.tokens[0])).json()["code"]

    def change(table: Table) -> tuple[Table, int]:
        rejoined = b.post(f"/v1/games/{table.game_id}/rejoin", json={"code": code})
        assert rejoined.status_code == 200 and rejoined.json()["seat"] == 0, rejoined.text
        return Table(table.game_id, {**table.tokens, 0: rejoined.json()["token"]}), 2

    return table, change


def signed_in_player(b: ContractSession, name: str) -> tuple[str, str]:
    """A new player and a second device's session of it (signed in with a link code): (player token, session)."""
    made = b.post("/v1/players", json={"name": f"{name} {uuid.uuid4().hex[:8]}"})
    assert made.status_code == 201, made.text
    player_token = made.json()["token"]
    link = b.post("/v1/players/me/link-codes", headers={"Player-Token": player_token})
    assert link.status_code == 201, link.text
    signed_in = b.post("/v1/sessions", json={"link_code": link.json()["code"], "device_name": "Phone"})
    assert signed_in.status_code == 201, signed_in.text
    return player_token, signed_in.json()["token"]


def take_with_the_players_session(b: ContractSession) -> tuple[Table, Callable[[Table], tuple[Table, int]]]:
    """The seat's player, signed in on another device, takes the seat there (no code)."""
    player_token, session = signed_in_player(b, "Taker")
    seats = [{"type": "human", "player": True}, *FOUR[1:]]
    created = b.post("/v1/games", json={"seats": seats}, headers={"Player-Token": player_token})
    assert created.status_code == 201, created.text
    table = Table(created.json()["game_id"], {s["seat"]: s["token"] for s in created.json()["seats"]})

    def change(table: Table) -> tuple[Table, int]:
        taken = b.post(f"/v1/games/{table.game_id}/seats/0/take", headers={"Player-Token": session})
        assert taken.status_code == 200 and taken.json()["seat"] == 0, taken.text
        return Table(table.game_id, {**table.tokens, 0: taken.json()["token"]}), 2

    return table, change


def seat_of_a_device(b: ContractSession, name: str, on_session: bool) -> tuple[str, str, Table]:
    """A player signed in on a second device (a session), and a game whose seat 0 that device took (with the session,
    or with the player token when not ``on_session``): (player token, session, the table)."""
    player_token, session = signed_in_player(b, name)
    seats = [{"type": "human", "player": True}, *FOUR[1:]]
    credential = session if on_session else player_token
    created = b.post("/v1/games", json={"seats": seats}, headers={"Player-Token": credential})
    assert created.status_code == 201, created.text
    return (
        player_token,
        session,
        Table(created.json()["game_id"], {s["seat"]: s["token"] for s in created.json()["seats"]}),
    )


def taken_back(b: ContractSession, table: Table, credential: str) -> Table:
    """Seat 0, released by the dead credential (its old token refused, the seat still the player's, its last event
    ``seat_released``), taken back on a trusted device."""
    old = b.get(f"/v1/games/{table.game_id}", headers=auth(table.tokens[0]))
    assert (old.status_code, old.json()["code"]) == (401, "unauthorized"), "the release comes before the take"
    view = b.get(f"/v1/games/{table.game_id}").json()
    assert view["seats"][0]["type"] == "human" and view["seats"][0]["player"] is not None
    last = spectator_events(b, table.game_id)[view["last_seq"]]
    assert (last["type"], last["data"]) == ("seat_released", {"seat": 0})
    taken = b.post(f"/v1/games/{table.game_id}/seats/0/take", headers={"Player-Token": credential})
    assert taken.status_code == 200 and taken.json()["seat"] == 0, taken.text
    return Table(table.game_id, {**table.tokens, 0: taken.json()["token"]})


def revoke_the_session_that_took_it(b: ContractSession) -> tuple[Table, Callable[[Table], tuple[Table, int]]]:
    """Device A (a session) took seat 0; the player revokes A's session from another device, then takes the seat
    there."""
    player_token, session, table = seat_of_a_device(b, "Revoked", on_session=True)
    session_id = b.get("/v1/players/me/sessions", headers={"Player-Token": session}).json()["sessions"][0]["id"]

    def change(table: Table) -> tuple[Table, int]:
        revoked = b.delete(f"/v1/players/me/sessions/{session_id}", headers={"Player-Token": player_token})
        assert revoked.status_code == 204, revoked.text
        return taken_back(b, table, player_token), 2

    return table, change


def sign_out_everywhere(b: ContractSession) -> tuple[Table, Callable[[Table], tuple[Table, int]]]:
    player_token, _, table = seat_of_a_device(b, "Signed Out", on_session=True)

    def change(table: Table) -> tuple[Table, int]:
        signed_out = b.delete("/v1/players/me/sessions", headers={"Player-Token": player_token})
        assert signed_out.status_code == 200 and signed_out.json()["sessions"] == [], signed_out.text
        return taken_back(b, table, player_token), 2

    return table, change


def rotate_the_player_token_that_took_it(b: ContractSession) -> tuple[Table, Callable[[Table], tuple[Table, int]]]:
    player_token, session, table = seat_of_a_device(b, "Rotated", on_session=False)

    def change(table: Table) -> tuple[Table, int]:
        rotated = b.post("/v1/players/me/token", headers={"Player-Token": player_token})
        assert rotated.status_code == 200, rotated.text
        return taken_back(b, table, session), 2

    return table, change


def rematch_opt_in_again(b: ContractSession) -> tuple[Table, Callable[[Table], tuple[Table, int]]]:
    """The first opt-in's token holds seat 0 of the rematch; a repeated opt-in (a lost answer, another device)
    replaces it; the others' opt-ins then start the rematch's first deal."""
    rules = {"preset": "partnership", "win_score": 1, "lose_score": 0}  # over after a round
    created = create_game(b, rules=rules, seats=FOUR)
    old = Table(created["game_id"], {s["seat"]: s["token"] for s in created["seats"]})
    play_until(b, old, lambda view: view["phase"] == "game_over")
    first = b.post(f"/v1/games/{old.game_id}/rematch", headers=auth(old.tokens[0]))
    assert first.status_code == 200, first.text
    table = Table(first.json()["game_id"], {0: first.json()["token"]})

    def change(table: Table) -> tuple[Table, int]:
        again = b.post(f"/v1/games/{old.game_id}/rematch", headers=auth(old.tokens[0]))
        assert again.status_code == 200 and again.json()["seat"] == 0, again.text
        tokens = {0: again.json()["token"]}
        for seat in (1, 2, 3):
            joined = b.post(f"/v1/games/{old.game_id}/rematch", headers=auth(old.tokens[seat]))
            assert joined.status_code == 200, joined.text
            tokens[seat] = joined.json()["token"]
        return Table(table.game_id, tokens), 1

    return table, change


PATHS = [
    leave_then_a_stranger_claims,
    leave_to_a_stand_in,
    rejoin_from_another_device,
    take_with_the_players_session,
    rematch_opt_in_again,
    revoke_the_session_that_took_it,
    sign_out_everywhere,
    rotate_the_player_token_that_took_it,
]


def long_poll(base: str, game_id: str, token: str, after: int) -> requests.Response:
    return requests.get(
        f"{base}/v1/games/{game_id}/events",
        params={"after": after, "wait": POLL_SECONDS},
        headers=auth(token),
        timeout=POLL_SECONDS + 30,
    )


def poll_waiting(session: ContractSession, game_id: str, seat: int) -> Callable[[], bool]:
    """Whether a long poll of ``seat`` is waiting: a seat's long poll holds its presence once its token checked
    out, before it waits (nothing else holds this seat's)."""
    return lambda: session.get(f"/v1/games/{game_id}").json()["seats"][seat]["connected"]


def read_stream(stream: requests.Response, until_seq: int) -> tuple[list[dict[str, Any]], bool]:
    """The stream's log events until one of ``until_seq`` or later (then False), or to its end (then True)."""
    found = []
    for message in messages(stream):
        if message.logged:
            found.append(message.json())
            if found[-1]["seq"] >= until_seq:
                return found, False
    return found, True


def assert_nothing_a_spectator_would_not_get(events: list[dict[str, Any]], spectator: dict[int, dict], since: int):
    for event in events:
        if event["seq"] > since:
            assert event == spectator[event["seq"]], f"the old token was sent the seat's private {event['type']}"


@pytest.mark.parametrize("path", PATHS, ids=lambda path: path.__name__)
def test_a_seat_changing_hands_ends_the_old_tokens_stream_and_long_poll(servers, ai_worker, path):
    a, b = ContractSession(servers[0]), ContractSession(servers[1])
    table, change = path(b)
    old, seat = table.tokens[table.seat], table.seat
    start = last_seq(b, table.game_id)
    with ThreadPoolExecutor(1) as pool:
        poll: Future[requests.Response] = pool.submit(long_poll, servers[0], table.game_id, old, start)
        wait_until(poll_waiting(b, table.game_id, seat), "the old token's long poll never waited")
        stream = open_stream(servers[0], table.game_id, old, after=start)
        table, round_no = change(table)
        page = poll.result()
    deal = play_into_round(b, table, round_no)  # the seat's next private event: its new holder's hand
    spectator = spectator_events(b, table.game_id)
    changed = next(
        seq for seq, e in sorted(spectator.items())
        if seq > start and e["type"] in HANDS_ON and e["data"]["seat"] == seat
    )  # fmt: skip

    streamed, ended = read_stream(stream, deal)
    stream.close()
    assert_nothing_a_spectator_would_not_get(streamed, spectator, changed)
    assert ended and streamed[-1]["seq"] == changed, "the stream ends right after the change's event"
    again = a.get(f"/v1/games/{table.game_id}/stream", headers=auth(old), params={"after": changed}, stream=True)
    assert again.status_code == 401 and again.json()["code"] == "unauthorized"

    assert page.status_code == 200, page.text
    polled = page.json()["events"]
    assert_nothing_a_spectator_would_not_get(polled, spectator, changed)
    assert polled and polled[-1]["seq"] <= changed, "the long poll answers at the change at the latest"
    follow_up = a.get(f"/v1/games/{table.game_id}/events", params={"after": page.json()["last_seq"]}, headers=auth(old))
    assert follow_up.status_code == 401 and follow_up.json()["code"] == "unauthorized"


def test_a_client_that_starts_past_the_change_gets_no_private_event_of_the_seats_next_holder(servers):
    """A stream and a long poll opened with ``after`` beyond the log's head never read the change's event: the
    seat's credential is checked before its next private event, the new holder's dealt hand."""
    b = ContractSession(servers[1])
    created = create_game(b, seats=[*FOUR[:3], {"type": "open"}], options=NO_STAND_IN)
    game_id, old = created["game_id"], created["seats"][0]["token"]
    head = last_seq(b, game_id)
    deal = head + 4  # seat_left, seat_claimed (seat 0), seat_claimed (seat 3) and round 1's round_started
    with ThreadPoolExecutor(1) as pool:
        poll: Future[requests.Response] = pool.submit(long_poll, servers[0], game_id, old, deal - 1)
        wait_until(poll_waiting(b, game_id, 0), "the old token's long poll never waited")
        stream = open_stream(servers[0], game_id, old, after=deal - 1)
        assert b.post(f"/v1/games/{game_id}/seats/0/leave", headers=auth(old)).status_code == 200
        assert b.post(f"/v1/games/{game_id}/seats/0/claim").status_code == 200
        assert b.post(f"/v1/games/{game_id}/seats/3/claim").status_code == 200
        page = poll.result()
    spectator = spectator_events(b, game_id)
    assert spectator[deal]["type"] == "round_started" and "hand" not in spectator[deal]["data"]
    assert page.status_code == 401 and page.json()["code"] == "unauthorized", page.text
    streamed, ended = read_stream(stream, deal)
    stream.close()
    assert streamed == [] and ended, "the stream ends before the new holder's hand"


def test_a_player_credential_opens_no_seats_connection(servers):
    """A stream or a long poll is opened with a seat token: a player's token or a device's session, sent as a seat
    token, holds no seat (``401``), and sent as ``Player-Token`` it is not read (the spectator's events). Rotating,
    revoking or deleting a player credential ends connections only through the seats it took, released (the
    paths above): the seat's own token is the credential a connection holds."""
    b = ContractSession(servers[1])
    player_token, session = signed_in_player(b, "Streamer")
    seats = [{"type": "human", "player": True}, *FOUR[1:]]
    created = b.post(
        "/v1/games", json={"seats": seats, "options": {"clock": "none"}}, headers={"Player-Token": session}
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    for credential in (player_token, session):
        for path in ("events", "stream"):
            refused = requests.get(f"{servers[0]}/v1/games/{game_id}/{path}", headers=auth(credential), timeout=30)
            assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"
        page = b.get(f"/v1/games/{game_id}/events", headers={"Player-Token": credential}).json()
        assert all("hand" not in event["data"] for event in page["events"])
