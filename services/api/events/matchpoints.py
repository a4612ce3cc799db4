"""Matchpoints, pure: each deal's North-South results compared with each other, East-West the mirror.

On a deal played at ``n`` tables, a result scores :data:`BEAT` for every other result of its direction it beats
and :data:`TIE` for every one it ties, so the top is ``BEAT * (n - 1)``.  A pair's total is shown as a
percentage of the tops of the deals it was scored on.  A no-show pair (absent or withdrawn when its round
started, its seats played by computer stand-ins) is given :data:`NO_SHOW_SHARE` of the top on each such deal;
the result its stand-ins made stays a result like any other, so its opponents and every other table are scored
on it as it fell.  docs/events.md works an example that ``tests/api/events/test_matchpoints.py`` checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BEAT = 2  # matchpoints for each result of the same direction beaten
TIE = 1  # and for each one tied
NO_SHOW_SHARE = 0.4  # a no-show pair's share of the top


def top(results: int) -> int:
    """The most matchpoints one result can score among ``results`` of its direction."""
    return BEAT * (results - 1)


def matchpoints(scores: Sequence[int]) -> list[int]:
    """Each score's matchpoints against the others (the same direction on the same deal)."""
    return [sum(BEAT if s > o else TIE if s == o else 0 for o in scores) - TIE for s in scores]


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table's result on one deal: its pairs, North-South's score (East-West's is scored as its negative, as a
    duplicate sheet does) and which pairs were no-shows."""

    ns: int
    ew: int
    ns_score: int
    ew_score: int
    no_shows: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Scored:
    """What one pair made on one deal: its matchpoints and the top they are out of."""

    pair: int
    direction: str  # NS | EW
    matchpoints: float
    top: int


def score_deal(results: Sequence[TableResult]) -> list[tuple[Scored, Scored]]:
    """Every table's (NS, EW) matchpoints on one deal, in ``results``' order.  A direction's results are compared
    on the difference of the two sides' scores (what North-South made minus what East-West made), so a deal whose
    sides both score is compared on what separated them."""
    ns_margin = [r.ns_score - r.ew_score for r in results]
    ns_points = matchpoints(ns_margin)
    ew_points = matchpoints([-m for m in ns_margin])
    best = top(len(results))
    scored = []
    for result, ns, ew in zip(results, ns_points, ew_points, strict=True):
        scored.append(
            (
                Scored(result.ns, "NS", round(best * NO_SHOW_SHARE, 2) if result.ns in result.no_shows else ns, best),
                Scored(result.ew, "EW", round(best * NO_SHOW_SHARE, 2) if result.ew in result.no_shows else ew, best),
            )
        )
    return scored


@dataclass(frozen=True, slots=True)
class Standing:
    pair: int
    matchpoints: float
    top: int

    @property
    def percent(self) -> float:
        return round(100 * self.matchpoints / self.top, 2) if self.top else 0.0


def standings(deals: Sequence[Sequence[tuple[Scored, Scored]]], pairs: Sequence[int]) -> list[Standing]:
    """Every pair's total over the scored ``deals``, best percentage first (ties by pair number)."""
    totals = {p: [0.0, 0] for p in pairs}
    for deal in deals:
        for table in deal:
            for scored in table:
                if scored.pair in totals:
                    totals[scored.pair][0] += scored.matchpoints
                    totals[scored.pair][1] += scored.top
    rows = [Standing(p, round(mp, 2), int(t)) for p, (mp, t) in totals.items()]
    return sorted(rows, key=lambda s: (-s.percent, s.pair))


def ranks(rows: Sequence[Standing]) -> list[int]:
    """Each standing's rank, ``rows`` in :func:`standings`' order: pairs on the same percentage share a rank and the
    next rank skips as many ("1, 2, 2, 4"); tied pairs are listed by pair number, which ranks nobody."""
    found: list[int] = []
    for i, row in enumerate(rows):
        found.append(found[-1] if i and row.percent == rows[i - 1].percent else i + 1)
    return found
