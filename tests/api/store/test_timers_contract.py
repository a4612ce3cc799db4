"""The timers' contract (:class:`services.api.store.timers.Timers`: each game's one
deadline — an AI turn in flight, a person's turn clock, a rematch's wait — and the turn sent): the same results on
the memory store, one Redis and the Redis Cluster, reached only through the store's methods.  Deadlines lie far
past now, so a cluster-mode server's sweeper in the same session leaves them alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .contract import Names

T = 100_000_000_000.0  # Unix seconds, about the year 5138


@pytest.fixture
def ids(store) -> Iterator[Names]:
    """The test's game ids; their deadlines are taken off the (shared) timers after the test."""
    names = Names()
    yield names
    for game_id in names.made:
        store.claim_turn(game_id)


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


def test_a_claim_takes_the_turn_off_the_timers_for_one_caller_only(store, ids):
    game, other = ids("g"), ids("h")
    store.expect_turn(game, T + 1)
    store.expect_turn(other, T + 2)
    assert store.claim_turn(game)
    assert not store.claim_turn(game), "claimed once"
    assert due(store, ids, T + 10) == [other]
    assert not store.claim_turn(ids("never")), "nothing registered: nothing to claim"
    store.expect_turn(game, T + 3)
    assert due(store, ids, T + 10) == [other, game], "a claimed game expects its next turn again"


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
    assert store.claim_turn(game)
    assert store.pending_turn(game) == pending("t1")
    assert game not in store.due_turns(T + 10, 100)


def test_a_pending_turn_read_is_a_copy(store, ids):
    game = ids("g")
    store.record_turn(game, pending("t1"), T + 1)
    store.pending_turn(game)["attempts"] = 99
    assert store.pending_turn(game) == pending("t1")
