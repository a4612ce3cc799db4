"""The lobby's store operations — the public tables' listing and quick match's buckets — with the same
results on the memory store and on Redis (the Lua scripts), and every script legal on a Redis Cluster
(each on one slot).  Redis: database 8 of the tests' server (docs: CONTRIBUTING.md)."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterator

import orjson
import pytest
import redis

from services.api.config import load_config
from services.api.games.record import GameRecord
from services.api.store.lobby_tables import GONE_VERSION, TABLES_CHANNEL, TableEntry
from services.api.store.matches import (
    CANCELLED,
    EVERYONE,
    EXPIRED,
    FORMING,
    SEATED,
    WAITING,
    Formed,
    MatchRequest,
    MatchTimes,
    match_channel,
)
from services.api.store.memory_store import MemoryStore
from services.api.store.redis_store import make_store
from tests.conftest import redis_url

LOBBY_DB = 8
NOW = 1_800_000_000_000  # Unix ms
LEASE, IDLE, KEEP = 5_000, 30_000, 600_000


@pytest.fixture(params=["memory", pytest.param("redis", marks=pytest.mark.integration)])
def store(request) -> Iterator:
    if request.param == "memory":
        yield MemoryStore(GameRecord.from_stored)
        return
    redis.Redis.from_url(redis_url(LOBBY_DB)).flushdb()
    made = make_store(load_config({"REDIS_URL": redis_url(LOBBY_DB), "LOBBY_LOG_SIZE": "5"}), GameRecord.from_stored)
    yield made
    made.client.close()


def times(now: int = NOW) -> MatchTimes:
    return MatchTimes(now, LEASE, IDLE, KEEP)


def entry(game_id: str, version: int, free: list[int] | None, created: int = 1) -> TableEntry:
    if free is None:
        return TableEntry(game_id, version, False)
    return TableEntry(game_id, version, True, orjson.dumps({"game_id": game_id, "free": free}).decode(), created)


def request(bucket: str, n: int, now: int = NOW, wait: int = 20_000, level: str = "basic") -> MatchRequest:
    return MatchRequest(f"{bucket}.{n}", WAITING, f"sec{n}", f"tok{n}", level, now, now + wait, now, (f"a{n}",))


# ---- the listing ------------------------------------------------------------------------------------


def test_a_sync_opens_changes_and_closes_a_table_and_logs_each_change(store):
    assert store.sync_table(entry("g", 1, [1, 2]), 10, 100.0) == "table_opened"
    assert store.sync_table(entry("g", 2, [1, 2]), 11, 100.0) is None, "nothing a client sees changed"
    assert store.sync_table(entry("g", 3, [2]), 12, 100.0) == "table_changed"
    assert store.sync_table(entry("g", 2, [1, 2]), 13, 100.0) is None, "older than the entry: ignored"
    assert store.sync_table(entry("g", 4, None), 14, 100.0) == "table_closed"
    assert store.sync_table(entry("g", 3, [2]), 15, 100.0) is None, "the tombstone keeps a late sync out"
    changes = store.table_changes_after(0, 10)
    assert [(c["seq"], c["type"], c["at_ms"]) for c in changes] == [
        (1, "table_opened", 10),
        (2, "table_changed", 12),
        (3, "table_closed", 14),
    ]
    assert changes[1]["table"] == {"game_id": "g", "free": [2]} and changes[2]["table"] is None
    assert store.tables_page(None, 10).entries == [] and store.tables_page(None, 10).last_seq == 3


def test_a_checks_sync_prunes_a_tombstone_and_a_gone_game_stays_gone(store):
    store.sync_table(entry("g", 1, [1]), 10, 100.0)
    store.sync_table(TableEntry("g", GONE_VERSION, False), 11, 200.0, prune=True)  # closes: a tombstone first
    assert store.claim_tables(150.0, 30.0, 10) == []
    assert store.claim_tables(200.0, 30.0, 10) == ["g"]
    store.sync_table(TableEntry("g", GONE_VERSION, False), 12, 900.0, prune=True)
    assert store.claim_tables(10_000.0, 30.0, 10) == [], "pruned: no more checks"
    assert [c["type"] for c in store.table_changes_after(0, 10)] == ["table_opened", "table_closed"]


def test_a_check_is_claimed_by_one_caller_per_lease_and_expect_keeps_the_earlier_time(store):
    store.sync_table(entry("g", 1, [1]), 10, 100.0)
    store.expect_table("g", 50.0)
    store.expect_table("g", 70.0)
    store.expect_table("h", 60.0)
    assert store.claim_tables(55.0, 30.0, 10) == ["g"]
    assert store.claim_tables(60.0, 30.0, 10) == ["h"]
    assert store.claim_tables(84.0, 30.0, 10) == []
    assert sorted(store.claim_tables(90.0, 30.0, 10)) == ["g", "h"]


def test_pages_are_newest_first_and_a_cursor_splits_equal_times(store):
    for game_id, created in (("a", 5), ("b", 7), ("c", 7), ("d", 7), ("e", 9)):
        store.sync_table(entry(game_id, 1, [1], created), 1, 100.0)
    first = store.tables_page(None, 3)
    assert [(g, ms) for g, ms, _ in first.entries] == [("e", 9), ("d", 7), ("c", 7)]
    rest = store.tables_page((7, "c"), 10)
    assert [g for g, _, _ in rest.entries] == ["b", "a"]
    assert orjson.loads(rest.entries[0][2]) == {"game_id": "b", "free": [1]}


def test_the_log_keeps_the_last_changes(store):
    if isinstance(store, MemoryStore):
        store.backend.tables.log_size = 5
    for version in range(1, 9):
        store.sync_table(entry("g", version, [version % 3 + 1]), version, 100.0)
    assert [c["seq"] for c in store.table_changes_after(0, 100)] == [4, 5, 6, 7, 8]
    assert [c["seq"] for c in store.table_changes_after(6, 100)] == [7, 8]


def test_each_change_is_published_on_the_lobby_channel(store):
    subscription = store.subscription()
    subscription.subscribe(TABLES_CHANNEL)
    assert subscription.receive(5)[0] == "subscribed"
    store.sync_table(entry("g", 1, [1]), 10, 100.0)
    kind, channel, payload = subscription.receive(5)
    assert (kind, channel) == ("message", TABLES_CHANNEL)
    assert orjson.loads(payload) == store.table_changes_after(0, 1)[0], "the change itself, as logged"
    subscription.close()


# ---- quick match -----------------------------------------------------------------------------------


def test_the_fourth_request_forms_a_group_in_arrival_order(store):
    for n in range(3):
        assert store.enqueue_match("b", request("b", n, NOW + n), "{spec}", times(NOW + n), ["g1"]).groups == ()
    (group,) = store.enqueue_match("b", request("b", 3, NOW + 3), "{spec}", times(NOW + 3), ["g1"]).groups
    assert (group.game_id, group.spec) == ("g1", "{spec}")
    assert [(m.match_id, m.seat, m.status, m.token_hash) for m in group.members] == [
        (f"b.{n}", n, FORMING, f"tok{n}") for n in range(4)
    ]
    assert group.members[0].holders == ("a0",)
    seated = store.match_seated("b", "g1", times(NOW + 10))
    assert [(m.match_id, m.status, m.ended_ms) for m in seated] == [(f"b.{n}", SEATED, NOW + 10) for n in range(4)]
    assert store.match_seated("b", "g1", times(NOW + 11)) == [], "once"
    assert store.look_match("b", "b.2", times(NOW + 12)).request.game_id == "g1"


def test_a_dropped_member_ends_cancelled_and_the_others_seated(store):
    for n in range(4):
        formed = store.enqueue_match("b", request("b", n, NOW + n), "{spec}", times(NOW + n), ["g1"])
    assert [m.match_id for m in formed.groups[0].members] == [f"b.{n}" for n in range(4)]
    ended = store.match_seated("b", "g1", times(NOW + 10), ["b.2", "b.0"])
    assert [(m.match_id, m.status, m.ended_ms) for m in ended] == [
        ("b.0", CANCELLED, NOW + 10),
        ("b.1", SEATED, NOW + 10),
        ("b.2", CANCELLED, NOW + 10),
        ("b.3", SEATED, NOW + 10),
    ]
    assert store.match_seated("b", "g1", times(NOW + 11), ["b.1"]) == [], "once"
    assert [store.look_match("b", f"b.{n}", times(NOW + 12)).request.status for n in range(4)] == [
        CANCELLED,
        SEATED,
        CANCELLED,
        SEATED,
    ]
    assert store.form_matches("b", times(NOW + 20_000), ["g2", "g3"]).groups == (), "a dropped one never forms again"


def test_a_requests_player_and_its_credential_go_through_every_script_as_they_came(store):
    player = ("p_" + "z" * 22, 'Zoë 李 / "quoted"', "bot")
    for n in range(4):
        made = request("b", n, NOW + n)
        credential = "ses_" + str(n) * 22 if n % 2 else None
        bound = dataclasses.replace(made, player=player if n % 2 else None, client=f"a{n % 2}", credential=credential)
        formed = store.enqueue_match("b", bound, "{spec}", times(NOW + n), ["g1"])
    (group,) = formed.groups
    assert [m.player for m in group.members] == [None, player, None, player]
    assert [m.client for m in group.members] == ["a0", "a1", "a0", "a1"], "and its client"
    assert [m.credential for m in group.members] == [None, "ses_" + "1" * 22, None, "ses_" + "3" * 22], "its credential"
    store.match_seated("b", "g1", times(NOW + 10))
    assert store.look_match("b", "b.1", times(NOW + 11)).request.player == player
    assert store.look_match("b", "b.3", times(NOW + 11)).request.credential == "ses_" + "3" * 22


def test_at_the_soonest_deadline_every_waiting_request_forms_one_group(store):
    store.enqueue_match("b", request("b", 0, wait=60_000), "{}", times(), ["x"])
    store.enqueue_match("b", request("b", 1, NOW + 1, wait=9_000), "{}", times(NOW + 1), ["x"])
    before = store.form_matches("b", times(NOW + 9_000), ["g1", "g2"])
    assert before.groups == () and before.next_due_ms == NOW + 9_001
    formed = store.form_matches("b", times(NOW + 9_001), ["g1", "g2"])
    ((game_id, members),) = [(g.game_id, [m.match_id for m in g.members]) for g in formed.groups]
    assert (game_id, members) == ("g1", ["b.0", "b.1"])
    assert formed.next_due_ms == NOW + 9_001 + LEASE, "the group's lease"
    store.match_seated("b", "g1", times(NOW + 9_002))
    assert store.form_matches("b", times(NOW + 9_003), ["g3", "g4"]) == Formed((), None)


def test_a_group_not_seated_within_its_lease_goes_to_the_next_look(store):
    for n in range(4):
        store.enqueue_match("b", request("b", n), "{}", times(), ["g1"])
    assert store.form_matches("b", times(NOW + LEASE - 1), ["x", "y"]).groups == ()
    (again,) = store.form_matches("b", times(NOW + LEASE), ["x", "y"]).groups
    assert again.game_id == "g1" and [m.seat for m in again.members] == [0, 1, 2, 3]


def test_idle_requests_expire_and_a_look_keeps_one_alive(store):
    store.enqueue_match("b", request("b", 0, wait=120_000), "{}", times(), [])
    store.enqueue_match("b", request("b", 1, wait=120_000), "{}", times(), [])
    assert store.look_match("b", "b.1", times(NOW + 20_000)).request.seen_ms == NOW + 20_000
    store.form_matches("b", times(NOW + IDLE + 1), ["g"])
    assert store.look_match("b", "b.0", times(NOW + IDLE + 2)).request.status == EXPIRED
    assert store.look_match("b", "b.1", times(NOW + IDLE + 2)).request.status == WAITING


def test_cancel_takes_a_waiting_request_only(store):
    for n in range(2):
        store.enqueue_match("b", request("b", n), "{}", times(), [])
    assert store.cancel_match("b", "b.0", times(NOW + 1)).status == CANCELLED
    assert store.cancel_match("b", "nope", times()) is None
    for n in range(2, 5):
        store.enqueue_match("b", request("b", n), "{}", times(), ["g"])
    assert store.cancel_match("b", "b.1", times()).status == FORMING
    assert store.look_match("b", "b.0", times()).request.status == CANCELLED


def test_ended_requests_are_dropped_after_their_keep(store):
    store.enqueue_match("b", request("b", 0), "{}", times(), [])
    store.cancel_match("b", "b.0", times())
    store.form_matches("b", times(NOW + KEEP - 1), [])
    assert store.look_match("b", "b.0", times(NOW + KEEP)) is not None
    store.form_matches("b", times(NOW + KEEP), [])
    assert store.look_match("b", "b.0", times(NOW + KEEP)) is None


def test_a_raise_applies_only_if_no_enqueue_touched_the_bucket(store):
    store.lower_match_due("b", 100)
    store.lower_match_due("c", 300)
    assert store.due_match_buckets(200, 10) == [("b", "1")]
    store.lower_match_due("b", 500)
    assert not store.raise_match_due("b", None, "1")
    assert store.raise_match_due("b", 400, "2")
    assert store.due_match_buckets(350, 10) == [("c", "1")]
    assert store.raise_match_due("c", None, "1")
    assert store.due_match_buckets(10_000, 10) == [("b", "2")]


def test_the_waiting_count_spans_the_due_buckets(store):
    for n in range(3):
        store.lower_match_due("b", NOW + 5_000)
        store.enqueue_match("b", request("b", n), "{}", times(), [])
    store.lower_match_due("c", NOW + 5_000)
    store.enqueue_match("c", request("c", 9), "{}", times(), [])
    assert store.waiting_matches() == 4


def test_a_bucket_publishes_the_ids_it_changed_and_everyone_when_the_waiting_count_changed(store):
    subscription = store.subscription()
    subscription.subscribe(match_channel("b"))
    assert subscription.receive(5)[0] == "subscribed"
    for n in range(4):
        store.enqueue_match("b", request("b", n), "{}", times(), ["g"])
    store.match_seated("b", "g", times())
    published = [orjson.loads(subscription.receive(5)[2]) for _ in range(5)]
    assert published[:4] == [[EVERYONE]] * 4, "three joined, then the four left the queue for their group"
    assert sorted(published[4]) == [f"b.{n}" for n in range(4)], "seated: the count is the same"
    subscription.close()


@pytest.mark.integration
def test_every_lobby_script_runs_on_a_cluster(redis_cluster):
    """Each script's keys share one slot (no CROSSSLOT); the ids are the test's own, the times far from now, so
    a cluster-mode server's sweeper in the same session leaves them alone."""
    store = make_store(load_config({"REDIS_CLUSTER_NODES": redis_cluster.nodes}), GameRecord.from_stored)
    game, bucket = f"t{secrets.token_hex(8)}", secrets.token_hex(8)
    seq = store.tables_page(None, 1).last_seq
    assert store.sync_table(entry(game, 1, [1], created=NOW * 10), 1, 4e12) == "table_opened"
    assert store.tables_page(None, 1).entries[0][0] == game
    assert any(c["game_id"] == game for c in store.table_changes_after(seq, 1000))
    store.expect_table(game, 3e12)
    assert store.sync_table(entry(game, 2, None), 2, 4e12, prune=True) == "table_closed"
    for n in range(4):
        formed = store.enqueue_match(bucket, request(bucket, n), "{}", times(), ["g"])
    assert [m.seat for m in formed.groups[0].members] == [0, 1, 2, 3]
    assert len(store.match_seated(bucket, "g", times())) == 4
    assert store.look_match(bucket, f"{bucket}.0", times()).request.status == SEATED
    store.lower_match_due(bucket, 10**15)
    assert (bucket, "1") in store.due_match_buckets(10**15, 10**6)
    assert store.raise_match_due(bucket, None, "1")
    assert store.form_matches(bucket, times(), ["h"]).groups == ()
    assert store.cancel_match(bucket, f"{bucket}.1", times()).status == SEATED


def _player(n: int) -> tuple[str, str, str]:
    return (f"p_{n:022d}", f"P{n}", "person")


def blocking(bucket: str, n: int, avoid: tuple[int, ...] = (), now: int = NOW, wait: int = 20_000) -> MatchRequest:
    """Request ``n`` of player ``n``, who blocked the players ``avoid``."""
    made = request(bucket, n, now, wait)
    return dataclasses.replace(made, player=_player(n), avoid=tuple(_player(a)[0] for a in avoid))


def test_a_blocked_pair_never_forms_a_group_and_four_others_do_at_once(store):
    store.enqueue_match("b", blocking("b", 0, avoid=(1,)), "{}", times(), ["x"])
    for n in (1, 2, 3):
        assert store.enqueue_match("b", blocking("b", n, now=NOW + n), "{}", times(NOW + n), ["x"]).groups == ()
    formed = store.enqueue_match("b", blocking("b", 4, now=NOW + 4), "{}", times(NOW + 4), ["g1"])
    ((game_id, members),) = [(g.game_id, [m.match_id for m in g.members]) for g in formed.groups]
    assert (game_id, members) == ("g1", ["b.0", "b.2", "b.3", "b.4"]), "the first four with no blocked pair"
    assert [m.seat for m in formed.groups[0].members] == [0, 1, 2, 3]
    assert store.look_match("b", "b.1", times(NOW + 5)).request.status == WAITING
    assert store.look_match("b", "b.0", times(NOW + 5)).request.avoid == (_player(1)[0],), "the block list kept"


def test_a_block_either_way_keeps_a_pair_apart_at_the_deadline_too(store):
    store.enqueue_match("b", blocking("b", 0, wait=9_000), "{}", times(), ["x"])
    store.enqueue_match("b", blocking("b", 1, avoid=(0,), now=NOW + 1, wait=29_000), "{}", times(NOW + 1), ["x"])
    store.enqueue_match("b", blocking("b", 2, now=NOW + 2, wait=60_000), "{}", times(NOW + 2), ["x"])
    formed = store.form_matches("b", times(NOW + 9_000), ["g1", "g2"])
    assert [[m.match_id for m in g.members] for g in formed.groups] == [["b.0", "b.2"]], "the one it blocked waits"
    assert formed.next_due_ms == NOW + 9_000 + LEASE, "its lease: b.1 waits till later"
    assert store.look_match("b", "b.1", times(NOW + 9_001)).request.status == WAITING
    store.match_seated("b", "g1", times(NOW + 9_002))
    alone = store.form_matches("b", times(NOW + 29_001), ["g3", "g4"])
    assert [[m.match_id for m in g.members] for g in alone.groups] == [["b.1"]]


def test_several_blocked_pairs_at_one_deadline_make_a_table_each(store):
    for n in range(4):  # each blocked the one before: 0-1, 1-2, 2-3 kept apart
        avoid = (n - 1,) if n else ()
        store.enqueue_match("b", blocking("b", n, avoid, NOW + n, wait=5_000), "{}", times(NOW + n), ["x"])
    formed = store.form_matches("b", times(NOW + 6_000), ["g1", "g2"])
    assert [[m.match_id for m in g.members] for g in formed.groups] == [["b.0", "b.2"], ["b.1", "b.3"]]
    assert formed.next_due_ms == NOW + 6_000 + LEASE
