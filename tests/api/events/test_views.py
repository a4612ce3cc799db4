"""What the API shows of an event: the standings' ranks, shared by pairs on the same percentage."""

from __future__ import annotations

from services.api.events import views
from services.api.events.model import DealResult, Event, Member, Pair, Round, Settings, Table

SETTINGS = Settings("Tie night", "duplicate_pairs", 4, 1, 3, "none", False, True, "easy")


def event_of_one_board() -> Event:
    pairs = tuple(
        Pair(f"p{n}", (Member(f"a{n}", "A", "bot"), Member(f"b{n}", "B", "bot")), None, n) for n in (1, 2, 3, 4)
    )
    tables = (Table(1, 1, 2, "g1"), Table(2, 3, 4, "g2"))
    return Event("e", "a1", SETTINGS, 0, "running", 5, pairs, (Round(1, "secret", tables, (), 0),))


def deal(table: int, ns: int, ew: int) -> DealResult:
    return DealResult(table, 1, (3, 3, 3, 3), (4, 3, 3, 3), (ns, ew))


def test_pairs_on_the_same_percentage_share_a_rank_and_the_next_rank_skips():
    """North-South beat East-West by 10 at table 1 and by 30 at table 2: pair 3 (North-South at 2) and pair 2
    (East-West at 1) top the board, 100 %; pairs 1 and 4 score nothing. Ranks 1, 1, 3, 3."""
    body = views.event_view(event_of_one_board(), {1: [deal(1, 40, 30), deal(2, 70, 40)]})
    assert [(s["rank"], s["pair"], s["percent"]) for s in body["standings"]] == [
        (1, 2, 100.0),
        (1, 3, 100.0),
        (3, 1, 0.0),
        (3, 4, 0.0),
    ]


def test_a_board_tied_at_every_table_ranks_every_pair_first():
    body = views.event_view(event_of_one_board(), {1: [deal(1, 40, 30), deal(2, 50, 40)]})
    assert [(s["rank"], s["pair"], s["percent"]) for s in body["standings"]] == [(1, p, 50.0) for p in (1, 2, 3, 4)]


def test_every_pair_ranks_first_before_a_board_is_scored():
    body = views.event_view(event_of_one_board(), {})
    assert [(s["rank"], s["pair"]) for s in body["standings"]] == [(1, 1), (1, 2), (1, 3), (1, 4)]
