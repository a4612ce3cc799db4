"""The expert's par: what each round's expert table scored on each deal (NS, EW), read from its game while it
plays and kept in the round once it has finished (its game expires from the game store an hour after its record
is written, like every table's).  The next round does not wait for that table, so it may finish rounds later, or
after the event: the service keeps it on the first read that finds it finished."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from services.api.events.model import Event
from services.api.events.results import table_results
from services.api.games.record import GameRecord

Points = tuple[int, int]


def pars(event: Event, game: Callable[[str], GameRecord | None]) -> dict[int, list[Points]]:
    """Each round's par so far, on each deal its expert table has finished: the kept one, else its game's."""
    found = {}
    for rnd in event.rounds:
        if rnd.par:
            found[rnd.number] = list(rnd.par)
            continue
        record = game(rnd.par_game_id) if rnd.par_game_id else None
        if record is not None:
            found[rnd.number] = [r.points for r in table_results(0, record.state, event.settings.deals_per_round)]
    return found


def finished(event: Event, game: Callable[[str], GameRecord | None]) -> dict[int, tuple[Points, ...]]:
    """The par of each round whose expert table has finished and whose par is not kept yet."""
    found = {}
    for rnd in event.rounds:
        record = game(rnd.par_game_id) if rnd.par_game_id and not rnd.par else None
        if record is not None and record.finished:
            found[rnd.number] = tuple(r.points for r in table_results(0, record.state, event.settings.deals_per_round))
    return found


def kept(event: Event, found: dict[int, tuple[Points, ...]]) -> Event | None:
    """``event`` with ``found`` kept in its rounds (None: nothing new, another process kept them first)."""
    rounds = tuple(replace(r, par=found[r.number]) if r.number in found else r for r in event.rounds)
    return None if rounds == event.rounds else event.next_version(rounds=rounds)
