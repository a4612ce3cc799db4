"""A round's tables (and, with ``par``, its expert table) as ordinary games: made through :func:`services.api.games.commands.create_game` (never a copy
of the command pipeline) with the round's secret and ``deals`` = the deals per round, so every table of a round is
dealt the same cards; and a withdrawn pair's seats handed to stand-ins (:func:`services.api.games.seat_release.release`,
a leave's change)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from services.api.events.model import COMPUTER_PAIR, Event, Pair, Table
from services.api.games import commands, pipeline, seat_release
from services.api.games.commands import Collaborators, FixedIds
from services.api.games.quotas import NO_QUOTAS
from services.api.games.record import NO_CLOCK, PlayerRef

SEATS = 4
PAR_LEVEL = "expert"  # the par: what four of the strongest level make with the deals


def creation_body(event: Event, table: Table, pairs: dict[int, Pair], no_shows: tuple[int, ...]) -> dict[str, Any]:
    """A table's game as a create request: seats 0 and 2 North-South's players, 1 and 3 East-West's; computers of
    the stand-in level for a no-show's or the computer pair's seats.  Rated only when the event is (and it has a
    clock): made as strangers' games, without hints (services.ratings.policy)."""
    settings = event.settings
    computer = {"type": "ai", "level": settings.stand_in_level}
    seats: list[dict[str, Any]] = [computer] * SEATS
    for first, number in ((0, table.ns), (1, table.ew)):
        if number not in no_shows and pairs[number].kind != COMPUTER_PAIR:
            seats[first] = seats[first + 2] = {"type": "human"}
    options = {
        "ai_takeover": settings.stand_in_level,
        "hints": False,
        "public": False,
        "matched": settings.rated,
        "clock": settings.clock,
    }
    rules = {"preset": "partnership", "deals": settings.deals_per_round}
    return {"rules": rules, "seats": seats, "options": options}


def seat_players(table: Table, pairs: dict[int, Pair], no_shows: tuple[int, ...]) -> tuple[PlayerRef | None, ...]:
    bound: list[PlayerRef | None] = [None] * SEATS
    for first, number in ((0, table.ns), (1, table.ew)):
        pair = pairs[number]
        if number not in no_shows and pair.kind != COMPUTER_PAIR:
            for offset, member in zip((0, 2), pair.members, strict=True):
                bound[first + offset] = PlayerRef(member.id, member.name, member.kind)
    return tuple(bound)


def make_tables(ctx: Collaborators, event: Event) -> None:
    """Every table of the event's current round made, each once: a table found made is left as it is, and a
    creation another process made first finds it made (:class:`services.api.games.commands.FixedIds`)."""
    current = event.rounds[-1]
    pairs = {p.number: p for p in event.pairs}
    ctx = replace(ctx, quotas=NO_QUOTAS)  # the event's tables count against nobody's games in play
    for table in current.tables:
        if ctx.store.load(table.game_id) is not None:
            continue
        body = creation_body(event, table, pairs, current.no_shows)
        fixed = FixedIds(table.game_id, (None,) * SEATS, seat_players(table, pairs, current.no_shows))
        commands.create_game(ctx, body, fixed=fixed, secret=current.secret)
    if current.par_game_id is not None and ctx.store.load(current.par_game_id) is None:
        fixed = FixedIds(current.par_game_id, (None,) * SEATS)
        commands.create_game(ctx, par_body(event), fixed=fixed, secret=current.secret)


def par_body(event: Event) -> dict[str, Any]:
    """The round's expert table: four computers of :data:`PAR_LEVEL` play its deals, unlisted, without a clock."""
    expert = {"type": "ai", "level": PAR_LEVEL}
    options = {"ai_takeover": PAR_LEVEL, "hints": False, "public": False, "clock": NO_CLOCK}
    return {
        "rules": {"preset": "partnership", "deals": event.settings.deals_per_round},
        "seats": [expert] * SEATS,
        "options": options,
    }


def hand_to_stand_ins(ctx: Collaborators, event: Event, pair: Pair) -> None:
    """A pair withdrawn mid-round: its seats at its current table left to stand-ins of the takeover level (its
    players may still take them back), so the table plays on."""
    if not pair.withdrawn:
        return
    for table in event.rounds[-1].tables:
        if pair.number in (table.ns, table.ew) and ctx.store.load(table.game_id) is not None:
            for member in pair.members:
                pipeline.run(ctx, table.game_id, seat_release.release(member.id, (), gone=True))
