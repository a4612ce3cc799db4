"""What a finished table made on each deal, read from its game; and a deal's scoresheet and the standings from
those results, pure over plain data (:mod:`services.api.events.matchpoints` scores them)."""

from __future__ import annotations

from collections.abc import Sequence

from services.api.events.matchpoints import Scored, Standing, TableResult, score_deal, standings
from services.api.events.model import COMPUTER_PAIR, DealResult, Event, Round
from services.engine import GameState, first_seat, replay_tricks

NS, EW = 0, 1  # the sides: seats 0 and 2 sit North-South, 1 and 3 East-West


def table_results(table: int, state: GameState, deals: int) -> list[DealResult]:
    """The first ``deals`` rounds a table's game finished (a tie that played on adds rounds nobody compares)."""
    found = []
    for number, record in enumerate(state.history[:deals], start=1):
        tricks = [0, 0, 0, 0]
        for _, _, winner in replay_tricks(first_seat(number), record.plays):
            if winner is not None:
                tricks[winner] += 1
        found.append(
            DealResult(table, number, tuple(record.bids), tuple(tricks), (record.points[NS], record.points[EW]))
        )
    return found


def board_of(round_no: int, deal: int, deals_per_round: int) -> int:
    """The event's deal number (a "board"), from 1: round 1's deals first."""
    return (round_no - 1) * deals_per_round + deal


def deal_results(rnd: Round, results: Sequence[DealResult], deal: int) -> list[TableResult]:
    by_table = {t.table: t for t in rnd.tables}
    return [
        TableResult(by_table[r.table].ns, by_table[r.table].ew, r.points[NS], r.points[EW], frozenset(rnd.no_shows))
        for r in sorted(results, key=lambda r: r.table)
        if r.deal == deal
    ]


def scored_deals(event: Event, results: dict[int, list[DealResult]]) -> list[list[tuple[Scored, Scored]]]:
    """Every deal whose every table has finished, scored; ``results`` by round number."""
    scored = []
    for rnd in event.rounds:
        found = results.get(rnd.number, [])
        for deal in range(1, event.settings.deals_per_round + 1):
            tables = deal_results(rnd, found, deal)
            if tables and len(tables) == len(rnd.tables):
                scored.append(score_deal(tables))
    return scored


def event_standings(event: Event, results: dict[int, list[DealResult]]) -> list[Standing]:
    """The ranked pairs' standings (the computer pair that evens an odd field is scored against, never ranked)."""
    ranked = [p.number for p in event.pairs if p.number and p.kind != COMPUTER_PAIR]
    return standings(scored_deals(event, results), ranked)
