"""The timers' contract (:class:`services.api.store.timers.Timers`: each game's one
deadline — an AI turn in flight, a person's turn clock, a rematch's wait — and the turn sent, and the service's
heartbeat): the same results on the memory store, one Redis and the Redis Cluster, reached only through the store's
methods.  Deadlines lie far past now, so a cluster-mode server's sweeper in the same session leaves them alone; the
heartbeat is one for the whole store, so on the session's Cluster (which API servers beat on) only its answer is
checked, at the time now."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from services.api.store.timers import MOST_OUTAGES

from .contract import BACKENDS, END, Names, forget_turn

T = 100_000_000_000.0  # Unix seconds, about the year 5138


@pytest.fixture
def ids(store) -> Iterator[Names]:
    """The test's game ids; their deadlines are taken off the (shared) timers after the test."""
    names = Names()
    yield names
    for game_id in names.made:
        forget_turn(store, game_id)


def store_is_the_tests_own(store) -> bool:
    """Memory, or the flushed Redis database: nobody else's deadline is there."""
    return not getattr(store, "cluster", False)


def due(store, ids: Names, now: float) -> list[str]:
    """The test's own games due at ``now``, in the order the store gives them: the Cluster is the session's, and
    another test's deadline may be due there too."""
    return [game_id for game_id in store.due_turns(now, 10_000) if game_id in ids.made]


def pending(task: str, version: int = 3) -> dict:
    return {"task_id": task, "version": version, "seat": 1, "level": "hard", "sent_at": T, "attempts": 1}


def test_an_expected_turn_is_due_from_its_deadline_on(store, ids):
    game = ids("g")
    store.expect_turn(game, T + 10)
    assert game not in store.due_turns(T + 9.5, 100)
    assert game in store.due_turns(T + 10, 100), "due at its deadline itself"
    assert game in store.due_turns(T + 1_000, 100), "and every time after, until claimed"


def test_due_turns_are_the_most_overdue_first_up_to_the_limit(store, ids):
    first, second, third, later = ids("a"), ids("b"), ids("c"), ids("d")
    for game_id, deadline in ((third, T + 3), (first, T + 1), (later, T + 50), (second, T + 2)):
        store.expect_turn(game_id, deadline)
    assert due(store, ids, T + 10) == [first, second, third]
    assert due(store, ids, T) == []
    head = store.due_turns(T + 10, 2)
    assert len(head) == 2
    if store_is_the_tests_own(store):
        assert head == [first, second]


def test_a_new_expectation_replaces_the_deadline_an_earlier_one_only_brings_it_forward(store, ids):
    game = ids("g")
    store.expect_turn(game, T + 10)
    store.expect_turn(game, T + 20)
    assert game not in store.due_turns(T + 15, 100), "replaced, even by a later deadline"
    store.expect_turn(game, T + 30, earlier=True)
    assert game in store.due_turns(T + 20, 100), "not sooner: kept"
    store.expect_turn(game, T + 5, earlier=True)
    assert game in store.due_turns(T + 5, 100), "sooner: taken"


def test_an_earlier_only_expectation_registers_a_game_with_no_deadline(store, ids):
    game = ids("g")
    store.expect_turn(game, T + 7, earlier=True)
    assert due(store, ids, T + 7) == [game]


def test_a_claim_is_one_callers_lease_on_a_due_deadline(store, ids):
    game, other = ids("g"), ids("h")
    store.expect_turn(game, T + 1)
    store.expect_turn(other, T + 2)
    assert not store.claim_turn(game, T, T + 30), "not due yet: nothing to claim"
    assert store.claim_turn(game, T + 10, T + 40)
    assert not store.claim_turn(game, T + 10, T + 40), "claimed once"
    assert not store.claim_turn(game, T + 39, T + 69), "the lease holds it"
    assert due(store, ids, T + 10) == [other]
    assert not store.claim_turn(ids("never"), T + 10, T + 40), "nothing registered: nothing to claim"


def test_a_lease_that_runs_out_is_claimed_again_so_a_dead_claimers_turn_is_not_lost(store, ids):
    game = ids("g")
    store.expect_turn(game, T + 1)
    assert store.claim_turn(game, T + 1, T + 31)  # and the claimer dies before it acts
    assert due(store, ids, T + 31) == [game], "due again when the lease runs out"
    assert store.claim_turn(game, T + 31, T + 61), "another process takes it over"


def test_a_release_takes_the_lease_off_unless_a_new_deadline_was_set(store, ids):
    game, next_turn = ids("g"), ids("h")
    for game_id in (game, next_turn):
        store.expect_turn(game_id, T + 1)
        assert store.claim_turn(game_id, T + 1, T + 31)
    store.release_turn(game, T + 31)
    assert due(store, ids, END) == [next_turn], "acted, nothing next: off the timers"
    store.expect_turn(next_turn, T + 45)  # the claimer's act set the next turn's deadline
    store.release_turn(next_turn, T + 31)
    assert due(store, ids, END) == [next_turn] and due(store, ids, T + 44) == [], "the new deadline stays"
    store.release_turn(ids("never"), T + 31)
    store.expect_turn(game, T + 3)
    assert due(store, ids, T + 10) == [game], "a released game expects its next turn again"


def test_a_sent_turn_is_kept_with_its_deadline(store, ids):
    game = ids("g")
    assert store.pending_turn(game) is None
    store.expect_turn(game, T + 1)
    store.record_turn(game, pending("t1"), T + 60)
    assert store.pending_turn(game) == pending("t1")
    assert game not in store.due_turns(T + 59, 100), "the sent turn's deadline replaced the expected one"
    assert game in store.due_turns(T + 60, 100)
    store.record_turn(game, pending("t2", version=4), T + 90)
    assert store.pending_turn(game) == pending("t2", version=4), "the turn sent last"


def test_a_claim_leaves_the_sent_turn_for_its_claimant_to_read(store, ids):
    game = ids("g")
    store.record_turn(game, pending("t1"), T + 1)
    assert store.claim_turn(game, T + 1, T + 31)
    assert store.pending_turn(game) == pending("t1")
    assert game not in store.due_turns(T + 10, 100)


def test_a_pending_turn_read_is_a_copy(store, ids):
    game = ids("g")
    store.record_turn(game, pending("t1"), T + 1)
    store.pending_turn(game)["attempts"] = 99
    assert store.pending_turn(game) == pending("t1")


def test_due_turns_since_a_time_are_those_at_or_after_it_up_to_any_later_time(store, ids):
    before, at, later = ids("a"), ids("b"), ids("c")
    for game_id, deadline in ((before, T + 1), (at, T + 5), (later, T + 500)):
        store.expect_turn(game_id, deadline)
    found = [g for g in store.due_turns(float("inf"), 10_000, since=T + 5) if g in ids.made]
    assert found == [at, later]
    assert [g for g in store.due_turns(T + 10, 10_000, since=T + 2) if g in ids.made] == [at]


MS = 4_000_000_000_000  # Unix ms of the beats below (the year 2096): on the tests' own store only
# The beats below need a heartbeat nobody else sends: the session's Cluster has its API servers' beat, so they run on
# memory and the flushed Redis; the Cluster's beat is tested in tests/api/test_failover.py (a shard's failover).
OWN_HEARTBEAT = pytest.mark.parametrize(
    "store", [b for b in BACKENDS if getattr(b, "values", [b])[0] != "cluster"], indirect=True
)


@OWN_HEARTBEAT
def test_a_gap_in_the_heartbeat_longer_than_the_bound_is_one_outage_recorded_by_the_first_beat_after_it(store):
    assert store.beat(MS, 1_000, 60_000) == (False, [])
    assert store.beat(MS + 1_000, 1_000, 60_000) == (False, []), "as long as the bound: no outage"
    assert store.beat(MS + 900, 1_000, 60_000) == (False, []), "a beat behind the last one moves nothing"
    assert store.beat(MS + 21_000, 1_000, 60_000) == (True, [(MS + 1_000, MS + 21_000)])
    assert store.beat(MS + 21_500, 1_000, 60_000) == (False, [(MS + 1_000, MS + 21_000)]), "recorded once"
    assert store.beat(MS + 90_000, 1_000, 60_000) == (True, [(MS + 21_500, MS + 90_000)]), "kept 60 s after its end"


@OWN_HEARTBEAT
def test_the_heartbeat_keeps_the_newest_outages_only(store):
    at = MS
    for _ in range(MOST_OUTAGES + 5):
        at += 10_000
        store.beat(at, 1_000, 10**9)
    _, kept = store.beat(at + 10_000, 1_000, 10**9)
    assert len(kept) == MOST_OUTAGES and kept[-1] == (at, at + 10_000) and kept == sorted(kept)


def test_a_beat_answers_on_every_backend(store):
    now = int(time.time() * 1000)
    recorded, kept = store.beat(now, 1_000, 60_000)
    assert isinstance(recorded, bool) and all(start < end <= now for start, end in kept)
