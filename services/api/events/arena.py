"""The arena's rules, pure: pairing a wave of waiting entrants into four-seat tables, scoring a finished game
(points and the streak's fire), and the standings' order as one integer per entrant.

No I/O and no clock: the events room keeps the entrants, the pool and the standings, and calls these functions
with what it read (docs/events.md, "Arena").  An entrant is whoever scores: a player, or a fixed pair in a
``pairs`` event.  The standings' integer is a Redis sorted set's score, so the store ranks as :class:`Standings`
does here."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

Format = Literal["pairs", "partners", "solo"]
Outcome = Literal["win", "draw", "loss"]

# How many entrants sit on each side of a table: a pair against a pair (two players each), two individuals
# partnered by the pairing against two more, or four individuals each for themselves.
SIDES: dict[str, tuple[int, ...]] = {"pairs": (1, 1), "partners": (2, 2), "solo": (1, 1, 1, 1)}
# What one game adds to the performance total, on top of the opponents' mean rating (the linear performance).
PERFORMANCE_STEP = {"win": 400, "draw": 0, "loss": -400}
# The performance rating's share of the standings' integer: below it, the points above (docs/events.md).
PERFORMANCE_SPAN = 10_000


@dataclass(frozen=True)
class ArenaRules:
    """An arena event's rules.  ``fire_after`` wins in a row light the fire: while it burns a game counts
    ``fire_factor`` times, and any game not won puts it out.  ``rating_per_point`` weighs rank against rating
    in the pairing (one point of standing counts as that much rating); ``window`` is how many of the next
    waiting entrants, in that order, a table is looked for among."""

    format: Format = "partners"
    win: int = 2
    draw: int = 1
    loss: int = 0
    fire_after: int = 2
    fire_factor: int = 2
    rating_per_point: int = 400
    window: int = 8

    def __post_init__(self) -> None:
        if self.format not in SIDES:
            raise ValueError(f"unknown arena format {self.format!r}")
        if self.window < self.seats - 1 or self.fire_after < 1 or self.fire_factor < 1:
            raise ValueError("an arena needs window ≥ table size − 1, fire_after ≥ 1 and fire_factor ≥ 1")

    @property
    def seats(self) -> int:
        """Entrants per table (a ``pairs`` table has two: each entrant is a pair of players)."""
        return sum(SIDES[self.format])


@dataclass(frozen=True)
class Entrant:
    """One entrant's standing.  ``run`` is the wins in a row ending with the last game; ``performance_total`` the
    sum over games of the opponents' mean rating plus ``PERFORMANCE_STEP``; ``last_opponents`` and
    ``last_partners`` are of the last game only: the next table may not repeat either."""

    id: str
    rating: int
    points: int = 0
    games: int = 0
    wins: int = 0
    run: int = 0
    performance_total: int = 0
    last_opponents: frozenset[str] = frozenset()
    last_partners: frozenset[str] = frozenset()

    @property
    def performance(self) -> int:
        """The mean per game of ``performance_total`` (the entrant's own rating before a first game), within
        ``[0, PERFORMANCE_SPAN)`` so that it never reaches the points in :func:`standing_score`."""
        guess = round(self.performance_total / self.games) if self.games else self.rating
        return min(max(guess, 0), PERFORMANCE_SPAN - 1)


@dataclass(frozen=True)
class Table:
    """A table the pairing formed: its sides, each a tuple of entrant ids (side 0 first)."""

    sides: tuple[tuple[str, ...], ...]

    @property
    def entrants(self) -> tuple[str, ...]:
        return tuple(entrant for side in self.sides for entrant in side)


@dataclass(frozen=True)
class Wave:
    """What one pairing made: the tables, and the entrants left waiting for the next wave (in arrival order)."""

    tables: tuple[Table, ...]
    waiting: tuple[str, ...]


def on_fire(rules: ArenaRules, entrant: Entrant) -> bool:
    """Whether the entrant's next game counts ``fire_factor`` times."""
    return entrant.run >= rules.fire_after


def points_for(rules: ArenaRules, entrant: Entrant, outcome: Outcome) -> int:
    """What a game with this outcome adds to the entrant's points: the base, times the factor on fire."""
    base = {"win": rules.win, "draw": rules.draw, "loss": rules.loss}[outcome]
    return base * (rules.fire_factor if on_fire(rules, entrant) else 1)


def pairing_key(rules: ArenaRules, entrant: Entrant) -> int:
    """Where the entrant sorts in the pool, highest first: its points (its rank) weighed against its rating."""
    return entrant.points * rules.rating_per_point + entrant.rating


def standing_score(entrant: Entrant) -> int:
    """The standings' order in one integer, highest first: points, then the performance rating (ties by id)."""
    return entrant.points * PERFORMANCE_SPAN + entrant.performance


def outcomes(scores: Sequence[int]) -> tuple[Outcome, ...]:
    """Each side's outcome from the game's final scores: the highest wins, the highest shared by several is a
    draw among them, every other side loses."""
    best = max(scores)
    top = sum(score == best for score in scores)
    return tuple(("win" if top == 1 else "draw") if score == best else "loss" for score in scores)


def record_game(
    rules: ArenaRules, table: Table, results: Sequence[Outcome], entrants: Mapping[str, Entrant]
) -> dict[str, Entrant]:
    """The table's entrants after its game, from each side's outcome (``results`` in the order of
    ``table.sides``): points and fire by :func:`points_for`, the performance total, and who they just met."""
    if len(results) != len(table.sides):
        raise ValueError(f"{len(results)} outcomes for a table of {len(table.sides)} sides")
    after = {}
    for side, outcome in zip(table.sides, results, strict=True):
        opponents = frozenset(e for other in table.sides if other is not side for e in other)
        faced = round(sum(entrants[e].rating for e in opponents) / len(opponents))
        for entrant_id in side:
            before = entrants[entrant_id]
            after[entrant_id] = replace(
                before,
                points=before.points + points_for(rules, before, outcome),
                games=before.games + 1,
                wins=before.wins + (outcome == "win"),
                run=before.run + 1 if outcome == "win" else 0,
                performance_total=before.performance_total + faced + PERFORMANCE_STEP[outcome],
                last_opponents=opponents,
                last_partners=frozenset(side) - {entrant_id},
            )
    return after


def pair_wave(rules: ArenaRules, waiting: Sequence[str], entrants: Mapping[str, Entrant]) -> Wave:
    """Tables for the waiting entrants (``waiting`` in arrival order, the longest waiting first).

    The last arrivals beyond a multiple of the table's size wait for the next wave.  The others are sorted by
    :func:`pairing_key`, highest first (ties by id); from the top, each entrant not yet seated takes the next
    ``window`` entrants not seated after it and sits with the first group of them, nearest first, that
    :func:`_seating` can seat.  An entrant no group fits (everyone near it just met it) waits, as do the few at
    the bottom a table would not fill.  A sort and one pass: a wave of 10,000 in docs/benchmarks.md."""
    size = rules.seats
    keyed = sorted((-pairing_key(rules, entrants[e]), e) for e in waiting[: len(waiting) - len(waiting) % size])
    order = [entrants[e] for _, e in keyed]
    keys = [-key for key, _ in keyed]
    seated = [False] * len(order)
    tables = []
    for start in range(len(order)):
        if seated[start]:
            continue
        seated[start] = True  # seated now or left waiting: never looked at again
        for group in itertools.combinations(_nearby(seated, start, rules.window), size - 1):
            members = (start, *group)
            table = _seating(rules.format, [order[i] for i in members], [keys[i] for i in members])
            if table is not None:
                tables.append(table)
                for i in group:
                    seated[i] = True
                break
    placed = {entrant for table in tables for side in table.sides for entrant in side}
    return Wave(tuple(tables), tuple(entrant for entrant in waiting if entrant not in placed))


def _nearby(seated: list[bool], start: int, window: int) -> list[int]:
    """The first ``window`` places after ``start`` whose entrants are not seated yet."""
    found: list[int] = []
    for i in range(start + 1, len(seated)):
        if not seated[i]:
            found.append(i)
            if len(found) == window:
                break
    return found


def _seating(format: Format, group: list[Entrant], keys: list[int]) -> Table | None:
    """This group's table, or None if every way to seat it meets someone's last opponent as an opponent or last
    partner as a partner.  Partners: of the splits that meet no one again, the most even (the sides' sums of
    pairing keys closest; with the group sorted by key that is the first and the last against the middle two)."""
    across, beside = _met(group)
    if format != "partners":
        return None if across else Table(tuple((e.id,) for e in group))
    best: tuple[int, Table] | None = None
    for p, a, b in ((1, 2, 3), (2, 1, 3), (3, 1, 2)):
        if (0, p) in beside or (a, b) in beside or not across.isdisjoint(((0, a), (0, b), (p, a), (p, b))):
            continue
        gap = abs(keys[0] + keys[p] - keys[a] - keys[b])
        if best is None or gap < best[0]:
            best = (gap, Table(((group[0].id, group[p].id), (group[a].id, group[b].id))))
    return None if best is None else best[1]


def _met(group: list[Entrant]) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """The places (i, j) in the group, both ways round, of those who may not sit across (one was the other's
    last opponent) and of those who may not sit beside each other (one was the other's last partner)."""
    ids = {e.id for e in group}
    across: set[tuple[int, int]] = set()
    beside: set[tuple[int, int]] = set()
    for i, entrant in enumerate(group):
        if ids.isdisjoint(entrant.last_opponents) and ids.isdisjoint(entrant.last_partners):
            continue
        for j, other in enumerate(group):
            if other.id in entrant.last_opponents:
                across |= {(i, j), (j, i)}
            if other.id in entrant.last_partners:
                beside |= {(i, j), (j, i)}
    return across, beside


class Standings:
    """The standings in memory, ordered as a Redis sorted set orders them: by ``-standing_score`` ascending, ties
    by id (a sorted set orders equal scores by member bytes, which for UTF-8 is the ids' code point order).  A
    change is a bisect and a list insert; a rank is a bisect; the top N is a slice."""

    def __init__(self, entrants: Iterable[Entrant] = ()) -> None:
        self._scores: dict[str, int] = {}
        self._order: list[tuple[int, str]] = []
        for entrant in entrants:
            self.put(entrant)

    def __len__(self) -> int:
        return len(self._order)

    def put(self, entrant: Entrant) -> None:
        """Place the entrant by its current standing (``ZADD standings -score id``)."""
        self.remove(entrant.id)
        score = standing_score(entrant)
        self._scores[entrant.id] = score
        bisect.insort(self._order, (-score, entrant.id))

    def remove(self, entrant_id: str) -> None:
        """Take a withdrawn entrant out (``ZREM``); nothing if it is not in."""
        score = self._scores.pop(entrant_id, None)
        if score is not None:
            del self._order[bisect.bisect_left(self._order, (-score, entrant_id))]

    def rank(self, entrant_id: str) -> int:
        """The entrant's place, 0 first (``ZRANK``); KeyError if it is not in."""
        return bisect.bisect_left(self._order, (-self._scores[entrant_id], entrant_id))

    def page(self, start: int, count: int) -> list[tuple[str, int]]:
        """``count`` entrants from place ``start`` with their scores (``ZRANGE start start+count-1 WITHSCORES``)."""
        return [(entrant_id, -score) for score, entrant_id in self._order[start : start + count]]
