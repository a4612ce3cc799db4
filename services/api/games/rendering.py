"""Game views as clients see them, and the per-process cache that saves
rendering them again (docs/architecture.md lists every per-process cache).

Everything cached here is keyed by content that never changes (a committed
version, a finished round, a trick's cards), so nothing is ever invalidated:
the caches save CPU, never a Redis read, and can't serve a stale answer.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

import orjson

from services.api.games.clocks import clock_view
from services.api.games.fair_play import fair_play_view
from services.api.games.record import GameRecord, Seat
from services.api.games.reservations import rematch_view, reserved_seats
from services.engine import GameState, Rules, completed_tricks, last_trick, view
from services.engine import round_view as round_json


class ViewCache:
    """A small thread-safe LRU, one per process (``VIEW_CACHE_SIZE`` entries).

    Keys (tuples) by what they hold: ``(game, version, seat)`` a view dict,
    ``("json", game, version, seat)`` a view's encoded body, ``("hint", game,
    version, seat)`` a hint, ``("review", game, round, seat)`` a finished round's review,
    ``("history", game, last round)`` rendered rounds,
    ``("tricks", game, round, cards)`` rendered tricks."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple, Any] = OrderedDict()
        self._lock = Lock()

    def get(self, key: tuple) -> Any:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: tuple, value: Any) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


class RenderedRounds(list):
    """A game's finished rounds as views show them, with their encoded JSON
    ``text``, which a response splices in whole: they are most of a late
    view's bytes."""

    __slots__ = ("text",)

    def __init__(self, rounds: list[dict[str, Any]], text: bytes) -> None:
        super().__init__(rounds)
        self.text = text


NO_ROUNDS = RenderedRounds([], b"[]")


def rendered_rounds(game_id: str, history: tuple, rules: Rules, cache: ViewCache) -> RenderedRounds:
    """``history`` rendered, cached by (game, last finished round).

    A finished round never changes, so a new round extends the longest
    rendered prefix found in the cache instead of rendering every round again.
    Keyed by content, not version: right before a commit too."""
    known = len(history)
    prefix = NO_ROUNDS
    while known:
        hit = cache.get(("history", game_id, history[known - 1]))
        if hit is not None and len(hit) == known:
            prefix = hit
            break
        known -= 1
    if known == len(history):
        return prefix
    new = [round_json(i + 1, history[i], rules) for i in range(known, len(history))]
    encoded = b",".join(orjson.dumps(r) for r in new)
    text = b"".join((b"[", encoded, b"]") if not prefix else (prefix.text[:-1], b",", encoded, b"]"))
    rounds = RenderedRounds([*prefix, *new], text)
    cache.put(("history", game_id, history[-1]), rounds)
    return rounds


def finished_rounds(game_id: str, history: tuple, rules: Rules, cache: ViewCache | None) -> list[dict[str, Any]]:
    """``history`` (finished rounds) as views show them: through the cache when there is one."""
    if cache is not None:
        return rendered_rounds(game_id, history, rules, cache)
    return [round_json(i + 1, record, rules) for i, record in enumerate(history)]


def rendered_tricks(game_id: str, state: GameState, cache: ViewCache) -> list[dict[str, Any]]:
    """This round's completed tricks as views show them, cached by (game,
    round, their cards) and extended by one trick at a time, as
    :func:`rendered_rounds` does for finished rounds: otherwise every move
    renders up to 13 tricks again."""
    done = len(state.plays) // 4
    if not done:
        return []
    key = ("tricks", game_id, state.round, state.plays[: done * 4])
    tricks = cache.get(key)
    if tricks is not None:
        return tricks
    previous = cache.get(("tricks", game_id, state.round, state.plays[: done * 4 - 4])) if done > 1 else []
    newest = last_trick(state)  # this round's: it has a completed trick
    if previous is not None and len(previous) == done - 1 and newest is not None:
        tricks = [*previous, newest]
    else:
        tricks = completed_tricks(state)
    cache.put(key, tricks)
    return tricks


def engine_view(record: GameRecord, seat: int | None, cache: ViewCache | None) -> dict[str, Any]:
    """Exactly ``services.engine.view(state, seat)``, computed faster: the
    engine renders finished rounds and this round's tricks on every call,
    this renders each once (see :func:`rendered_rounds`, :func:`rendered_tricks`).
    tests/api/test_e2e.py checks the result equals the engine's view after every move."""
    state = record.state
    if cache is None:
        return view(state, seat)
    data = view(state, seat, history=False, tricks=False)
    data["tricks"] = rendered_tricks(record.game_id, state, cache)
    if state.history:
        data["history"] = rendered_rounds(record.game_id, state.history, state.rules, cache)
    return data


def seats_view(record: GameRecord) -> list[dict[str, Any]]:
    """Each seat: its type, level, whether a claim may take it (not a seat reserved for a rematch's person) and
    who plays it (:func:`seat_player`)."""
    reserved = reserved_seats(record) if record.rematch else ()
    return [
        {
            "seat": i,
            "type": s.type,
            "level": s.level,
            "claimable": s.claimable and i not in reserved,
            "player": seat_player(s),
        }
        for i, s in enumerate(record.seats)
    ]


def computer_player_id(level: str) -> str:
    """A computer level's player id: each level is one rated player (``computer-hard``)."""
    return f"computer-{level}"


def seat_player(seat: Seat) -> dict[str, str] | None:
    """Who plays a seat, as views show it: the player a person's seat is bound to, the computer level of a
    computer's seat (a stand-in's too: the computer plays it now), or None (an open seat, a person without
    a player)."""
    if seat.type == "ai" and seat.level:
        return {"id": computer_player_id(seat.level), "name": seat.level, "kind": "computer"}
    if seat.player_id is None:
        return None
    return {"id": seat.player_id, "name": seat.name or "", "kind": seat.player_kind or "person"}


def game_view(
    record: GameRecord, seat: int | None, cache: ViewCache | None = None, remember: bool = True
) -> dict[str, Any]:
    """The engine's view for ``seat`` plus game_id, version, seats, options,
    seeded, last_seq and clock, with phase ``waiting`` (no turn, nothing legal) while a seat is open.

    ``remember`` only for committed records: a view is cached by version."""
    key = (record.game_id, record.version, seat)
    if cache is not None and remember:
        cached = cache.get(key)
        if cached is not None:
            return cached
    data = engine_view(record, seat, cache)
    data["game_id"] = record.game_id
    data["version"] = record.version
    data["seats"] = seats_view(record)
    data["options"] = record.options.to_json()
    data["seeded"] = record.seeded
    data["last_seq"] = record.seq  # where a client resumes the events (/events?after=, /stream) from this view
    if record.rematch:  # a rematch offered, or seats reserved (services.api.games.reservations)
        data.update(rematch_view(record))
    data["clock"] = clock_view(record.clock)  # a version's clock never changes: cached with the view
    if record.fair is not None:  # a game made to count (services.api.games.fair_play)
        data["fair_play"] = fair_play_view(record.fair)
    if record.waiting:
        data["phase"] = "waiting"
        data["turn"] = None
        data["legal"] = []
        if "legal_blind" in data:
            data["legal_blind"] = []
    if cache is not None and remember:
        cache.put(key, data)
    return data
