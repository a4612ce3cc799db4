"""Who quick match seats together, pure: a blocked pair (either way) never at one table, the first four with no
blocked pair otherwise, in arrival order.  The scripts that apply it: tests/api/store/test_lobby_store.py."""

from __future__ import annotations

from services.api.store.match_groups import SEEDS, four, kept_apart, table_from
from services.api.store.matches import WAITING, MatchRequest


def req(n: int, avoid: tuple[int, ...] = (), bound: bool = True) -> MatchRequest:
    player = (f"p{n}", f"P{n}", "person") if bound else None
    return MatchRequest(
        f"b.{n}", WAITING, "s", "t", "basic", n, n + 1, n, player=player, avoid=tuple(f"p{a}" for a in avoid)
    )


def test_a_pair_is_kept_apart_when_either_blocked_the_other():
    assert kept_apart(req(0, avoid=(1,)), req(1)) and kept_apart(req(1), req(0, avoid=(1,)))
    assert not kept_apart(req(0, avoid=(2,)), req(1))
    assert not kept_apart(req(0, avoid=(1,)), req(1, bound=False)), "a request with no player: nobody to block"


def test_with_no_blocks_the_first_four_sit_together():
    assert four([req(n) for n in range(6)]) == [0, 1, 2, 3]
    assert four([req(n) for n in range(3)]) is None


def test_a_table_skips_whoever_is_blocked_by_someone_already_chosen():
    live = [req(0, avoid=(1,)), req(1), req(2), req(3, avoid=(2,)), req(4), req(5)]
    assert table_from(live, 0) == [0, 2, 4, 5]
    assert table_from(live, 1) == [1, 2, 4, 5]
    assert four(live) == [0, 2, 4, 5]


def test_a_table_is_built_around_its_first_request_even_a_late_one():
    live = [req(0), req(1), req(2), req(3, avoid=(0, 1, 2))]
    assert table_from(live, 3) == [3]
    assert four(live) is None, "no four hold no blocked pair"


def test_a_player_everybody_blocked_never_stops_the_others():
    live = [req(0)] + [req(n, avoid=(0,)) for n in range(1, 5)]
    assert four(live) == [1, 2, 3, 4]


def test_the_tables_of_four_are_tried_from_the_first_seeds_only():
    live = [req(n, avoid=(99,)) for n in range(SEEDS)] + [req(99)] * 3
    assert four(live) == [0, 1, 2, 3]
    loners = [req(n, avoid=tuple(range(SEEDS + 4))) for n in range(SEEDS)] + [req(SEEDS + n) for n in range(4)]
    assert four(loners) is None, "bounded: the four late ones wait for the deadlines"
