"""The people found for a quick-match request (:meth:`services.api.store.matches.MatchQueue.look_match`'s
:class:`~services.api.store.matches.MatchLook`), the same on the memory store, one Redis and the Redis Cluster: the
bucket's waiting requests while it waits (at most three), its group's people while the group forms, and the
level of the computers that would fill the rest; each change of the count published to every waiter of the bucket
(:data:`~services.api.store.matches.EVERYONE`), and a look at the bucket due when a person would go idle, so one who
left stops counting.  Buckets are the test's own (:class:`tests.api.store.contract.Names`); nothing here marks
a bucket due, so a cluster-mode server's sweeper leaves them alone."""

from __future__ import annotations

import dataclasses

import orjson
import pytest

from services.api.store.matches import EVERYONE, WAITING, MatchRequest, MatchTimes, match_channel

NOW = 4_000_000_000_000  # Unix ms
LEASE, IDLE, KEEP = 5_000, 30_000, 600_000


def times(now: int = NOW) -> MatchTimes:
    return MatchTimes(now, LEASE, IDLE, KEEP)


def asked(bucket: str, n: int, level: str = "basic", wait: int = 60_000, avoid: tuple[int, ...] = ()) -> MatchRequest:
    """Request ``n`` of player ``n`` (who blocked the players ``avoid``), arrived at ``NOW + n``."""
    made = MatchRequest(f"{bucket}.{n}", WAITING, f"sec{n}", f"tok{n}", level, NOW + n, NOW + n + wait, NOW + n)
    return dataclasses.replace(made, player=player(n), avoid=tuple(player(a)[0] for a in avoid))


def player(n: int) -> tuple[str, str, str]:
    return (f"p_{n:022d}", f"P{n}", "person")


def found(store, bucket: str, n: int, now: int = NOW + 10) -> tuple[int | None, str | None]:
    look = store.look_match(bucket, f"{bucket}.{n}", times(now))
    return look.found, look.fill_level


@pytest.fixture
def published(store, ids):
    """A bucket of the test's own and a reader of what its scripts publish (each as a list)."""
    bucket = ids("b")
    subscription = store.subscription()
    subscription.subscribe(match_channel(bucket))
    assert subscription.receive(5)[0] == "subscribed"

    def next_published() -> list[str]:
        got = subscription.receive(5)
        assert got is not None and got[0] == "message", got
        return orjson.loads(got[2])

    yield bucket, next_published
    subscription.close()


def test_a_waiting_request_finds_every_request_waiting_in_its_bucket_and_the_first_ones_level(store, ids):
    bucket = ids("b")
    for n, level in enumerate(("hard", "easy", "basic")):
        store.enqueue_match(bucket, asked(bucket, n, level), "{}", times(NOW + n), ["g"])
        assert found(store, bucket, n) == (n + 1, "hard"), "itself included; the longest-waiting one's level"
    assert found(store, bucket, 0) == (3, "hard")
    store.cancel_match(bucket, f"{bucket}.0", times(NOW + 20))
    assert found(store, bucket, 2, NOW + 21) == (2, "easy"), "the first gone: the next one's level"
    assert found(store, bucket, 0, NOW + 21) == (None, None), "an ended request finds nobody"


def test_a_forming_group_finds_its_people_and_a_seated_one_nobody(store, ids):
    bucket = ids("b")
    other = ids("c")  # another bucket's request counts for nobody here
    store.enqueue_match(other, asked(other, 9), "{}", times(), ["x"])
    for n in range(4):
        store.enqueue_match(bucket, asked(bucket, n, ("pro", "easy")[n % 2]), "{}", times(NOW + n), ["g"])
    assert [found(store, bucket, n) for n in range(4)] == [(4, "pro")] * 4
    store.match_seated(bucket, "g", times(NOW + 20))
    assert [found(store, bucket, n, NOW + 21) for n in range(4)] == [(None, None)] * 4
    assert found(store, other, 9) == (1, "basic")


def test_requests_kept_apart_count_for_each_other_but_never_past_three(store, ids):
    bucket = ids("b")
    for n in range(4):  # 0 blocked 1, 2 blocked 3: no table of four, so all four wait
        avoid = (n + 1,) if n % 2 == 0 else ()
        formed = store.enqueue_match(bucket, asked(bucket, n, avoid=avoid), "{}", times(NOW + n), ["g"])
        assert formed.groups == ()
    assert [found(store, bucket, n)[0] for n in range(4)] == [3] * 4, "four who may sit together sit at once"


def test_each_change_of_the_count_is_published_to_every_waiter_and_a_look_to_nobody(store, published):
    bucket, next_published = published
    for n in range(3):
        store.enqueue_match(bucket, asked(bucket, n), "{}", times(NOW + n), ["g"])
        assert next_published() == [EVERYONE], "one more found"
    found(store, bucket, 0)  # publishes nothing: the next publication is the cancel's
    store.cancel_match(bucket, f"{bucket}.2", times(NOW + 10))
    assert next_published() == [f"{bucket}.2", EVERYONE]
    for n in (3, 4):
        store.enqueue_match(bucket, asked(bucket, n), "{}", times(NOW + n), ["g"])
    assert next_published() == [EVERYONE]
    assert next_published() == [EVERYONE], "the four left the queue for their group"
    store.match_seated(bucket, "g", times(NOW + 20))
    assert sorted(next_published()) == sorted(f"{bucket}.{n}" for n in (0, 1, 3, 4)), "the count did not change"


def test_a_person_gone_idle_stops_counting_at_the_look_due_then(store, published):
    bucket, next_published = published
    for n in range(2):
        store.enqueue_match(bucket, asked(bucket, n, wait=120_000), "{}", times(NOW + n), [])
        next_published()
    later = NOW + 20_000
    assert found(store, bucket, 1, later) == (2, "basic")  # 1 asks about its request; 0 does not
    look = store.form_matches(bucket, times(later), ["x", "y"])
    assert look.groups == () and look.next_due_ms == NOW + IDLE + 1, "when 0 goes idle, before any deadline"
    store.form_matches(bucket, times(NOW + IDLE + 1), ["x", "y"])
    assert next_published() == [f"{bucket}.0", EVERYONE], "0 expired: 1's dialog reads the new count"
    assert found(store, bucket, 1, NOW + IDLE + 2) == (1, "basic")
    assert store.form_matches(bucket, times(NOW + IDLE + 3), []).next_due_ms == NOW + IDLE + 2 + IDLE + 1
