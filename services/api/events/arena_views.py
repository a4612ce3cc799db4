"""What the API shows of an arena: its clock and counts, its standings, an entrant.  Never anything a game hides."""

from __future__ import annotations

from typing import Any

from services.api.events.arena import on_fire
from services.api.events.arena_docs import Entry
from services.api.events.arena_room import ArenaRoom, arena_rules, ends_ms
from services.api.events.model import Event

TOP = 20  # the standings the event's own view holds; the rest page by GET /v1/events/{id}/standings


def entrant_view(event: Event, entry: Entry, place: int | None) -> dict[str, Any]:
    """An entrant's standing (``place`` from 0) and where it is now: playing a game (its id and seat), waiting to
    be paired, withdrawn, or finished with the arena."""
    s = entry.standing
    status = "playing" if entry.game_id else "withdrawn" if entry.withdrawn else "waiting"  # a last game plays on
    if event.status == "finished":
        status = "finished"
    return {
        "rank": None if place is None else place + 1,
        "player_id": s.id,
        "name": entry.name,
        "kind": entry.kind,
        "rating": s.rating,
        "points": s.points,
        "games": s.games,
        "wins": s.wins,
        "run": s.run,
        "on_fire": on_fire(arena_rules(event), s),
        "performance": s.performance,
        "status": status,
        "game_id": entry.game_id,
        "seat": entry.seat,
    }


def arena_view(event: Event, room: ArenaRoom) -> dict[str, Any]:
    """The arena's seating, length and end, how many are in it, waiting and playing, and the top standings."""
    return {
        "seating": event.settings.seating,
        "minutes": event.settings.minutes,
        "started_ms": event.started_ms,
        "ends_ms": ends_ms(event),
        **room.counts(event.event_id),
        "standings": standings_page(event, room, 0, TOP),
    }


def standings_page(event: Event, room: ArenaRoom, start: int, count: int) -> list[dict[str, Any]]:
    return [entrant_view(event, entry, place) for place, entry in room.standings(event.event_id, start, count)]
