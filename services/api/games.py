"""What the API does to a game: create, claim, leave, move, views and events.

Routes stay thin; everything here works on :class:`~services.api.store.GameRecord`
and commits through :meth:`GameStore.commit` (compare-and-set on the version).
A move is retried from a fresh read when another writer got in first, so of
N racing moves for one turn exactly one applies and the others see the
truth afterwards (``not_your_turn``), unless the client pinned the version
with ``If-Match`` (then ``version_conflict``).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock
from typing import Any

import orjson
from flask import g

from services.engine import Bid, EngineError, GameState, Play, RuleError, apply, make_rules, new_game, parse_card, view
from services.engine.cards import codes
from services.engine.state import first_seat, last_completed_trick, replay_tricks
from services.engine.views import last_trick, trick_view
from services.engine.views import round_view as round_json
from services.players import DEFAULT_LEVEL

from . import ai_hook
from .observability import GAMES_CREATED, GAMES_FINISHED, MOVES
from .problems import ApiError, invalid_request
from .schemas import DEFAULT_OPTIONS
from .store import GameRecord, GameStore, Seat, idempotency_key
from .tokens import hash_token, new_game_id, new_token, seat_of_token

MAX_CAS_ATTEMPTS = 8
log = logging.getLogger("spades.api")


# ---- views -------------------------------------------------------------------


class ViewCache:
    """Rendered views by (game, version, seat): a version never changes, so
    entries never go stale; the cache only saves CPU, never a Redis read."""

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


def rendered_rounds(game_id: str, history: tuple, cache: ViewCache) -> RenderedRounds:
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
    new = [round_json(i + 1, history[i]) for i in range(known, len(history))]
    encoded = b",".join(orjson.dumps(r) for r in new)
    text = b"".join((b"[", encoded, b"]") if not prefix else (prefix.text[:-1], b",", encoded, b"]"))
    rounds = RenderedRounds([*prefix, *new], text)
    cache.put(("history", game_id, history[-1]), rounds)
    return rounds


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
    newest = last_completed_trick(state)
    if previous is not None and len(previous) == done - 1 and newest is not None:
        tricks = [*previous, trick_view(*newest)]
    else:
        tricks = [trick_view(*t) for t in replay_tricks(first_seat(state.round), state.plays[: done * 4])]
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
        data["history"] = rendered_rounds(record.game_id, state.history, cache)
    return data


def game_options(record: GameRecord) -> dict[str, Any]:
    """The game's options, with the default of any option added after it was stored."""
    return {**DEFAULT_OPTIONS, **record.options}


def seats_view(record: GameRecord) -> list[dict[str, Any]]:
    return [{"seat": i, "type": s.type, "level": s.level, "claimable": s.claimable} for i, s in enumerate(record.seats)]


def game_view(
    record: GameRecord, seat: int | None, cache: ViewCache | None = None, remember: bool = True
) -> dict[str, Any]:
    """The engine's view for ``seat`` plus game_id, version, seats, options,
    with phase ``waiting`` (no turn, nothing legal) while a seat is open.

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
    data["options"] = game_options(record)
    if record.waiting:
        data["phase"] = "waiting"
        data["turn"] = None
        data["legal"] = []
    if cache is not None and remember:
        cache.put(key, data)
    return data


# ---- events ------------------------------------------------------------------


def _event(record: GameRecord, kind: str, data: dict[str, Any], private: dict[int, Any] | None = None) -> dict:
    record.seq += 1
    event: dict[str, Any] = {"seq": record.seq, "type": kind, "version": record.version, "data": data}
    if private:
        event["private"] = {str(seat): value for seat, value in private.items()}
    return event


def round_started(record: GameRecord, state: GameState) -> dict[str, Any]:
    public = {"round": state.round, "dealer": (state.round - 1) % 4, "turn": (state.round) % 4}
    private = {seat: {"hand": codes(state.hands[seat])} for seat in range(4)}
    return _event(record, "round_started", public, private)


def move_events(record: GameRecord, before: GameState, after: GameState, seat: int, move: Bid | Play) -> list[dict]:
    """The events one accepted move causes, in order."""
    if isinstance(move, Bid):
        return [_event(record, "bid", {"seat": seat, "bid": move.tricks})]
    events = [_event(record, "card_played", {"seat": seat, "card": codes(1 << move.card)[0]})]
    if len(before.plays) % 4 == 3:
        trick = last_trick(after)
        events.append(_event(record, "trick_won", {"seat": trick["winner"], "trick": trick}))
    if len(after.history) > len(before.history):
        scored = round_json(len(after.history), after.history[-1])
        events.append(_event(record, "round_scored", scored))
        if after.phase == "game_over":
            events.append(
                _event(record, "game_over", {"winner": list(after.winner or ()), "scores": list(after.scores)})
            )
        else:
            events.append(round_started(record, after))
    return events


def visible_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it: its own private part merged in, no other."""
    private = event.get("private")
    if private is None:
        return event
    data = dict(event["data"])
    if seat is not None and str(seat) in private:
        data.update(private[str(seat)])
    return {"seq": event["seq"], "type": event["type"], "version": event["version"], "data": data}


# ---- auth --------------------------------------------------------------------


def bearer_token(header: str | None, required: bool) -> str | None:
    if not header:
        if required:
            raise ApiError(401, "unauthorized", "This request needs 'Authorization: Bearer <seat token>'.")
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 256:
        raise ApiError(401, "unauthorized", "The Authorization header must be 'Bearer <seat token>'.")
    return token


def seat_for(record: GameRecord, token: str | None) -> int | None:
    """The seat ``token`` holds in this game; 401 for a token of no seat here."""
    if token is None:
        return None
    seat = seat_of_token(token, [s.token_hash for s in record.seats])
    if seat is None:
        raise ApiError(401, "unauthorized", "The token does not hold a seat in this game.")
    return seat


# ---- commands ----------------------------------------------------------------


def load(store: GameStore, game_id: str) -> GameRecord:
    if len(game_id) > 64:
        raise ApiError(404, "not_found", "No such game (it may have expired).")
    record = store.load(game_id)
    if record is None:
        raise ApiError(404, "not_found", "No such game (it may have expired).")
    return record


def create_game(store: GameStore, body: dict[str, Any], cache: ViewCache | None) -> dict[str, Any]:
    overrides = dict(body["rules"])
    preset = overrides.pop("preset")
    try:
        rules = make_rules(preset, **overrides)
    except RuleError as error:
        raise invalid_request([{"field": f"rules.{error.option}", "message": error.message}]) from None
    state = new_game(rules, body.get("seed"))
    seats: list[Seat] = []
    tokens: list[str | None] = []
    for spec in body["seats"]:
        token = new_token() if spec["type"] == "human" else None
        level = spec.get("level", DEFAULT_LEVEL) if spec["type"] == "ai" else None
        seats.append(Seat(spec["type"], level, hash_token(token) if token else None))
        tokens.append(token)
    record = GameRecord(new_game_id(), 1, seats, "", dict(body["options"]))
    record = record.with_state(state)
    events = [_event(record, "game_created", {"seats": seats_view(record), "rules": rules.to_dict()})]
    if not record.waiting:
        record.started = True
        events.append(round_started(record, state))
    ai_hook.before_commit(record)
    if not store.commit(record, None, events):  # a 128-bit id collision: practically never
        raise ApiError(503, "unavailable", "Could not allocate a game id; retry.")
    GAMES_CREATED.inc()
    ai_hook.after_commit(store, record)
    created = []
    for i, (seat, token) in enumerate(zip(seats, tokens, strict=True)):
        item: dict[str, Any] = {"seat": i, "type": seat.type, "level": seat.level}
        if token:
            item["token"] = token
        created.append(item)
    return {"game_id": record.game_id, "seats": created, "state": game_view(record, None, cache)}


def _next(record: GameRecord) -> GameRecord:
    """A copy to modify into the next version."""
    nxt = GameRecord(
        record.game_id,
        record.version + 1,
        list(record.seats),  # Seats are immutable: a change replaces one
        record.state_json,
        dict(record.options),
        record.started,
        record.seq,
        record.rounds_json,
    )
    nxt.__dict__["state"] = record.state
    return nxt


def claim_seat(store: GameStore, game_id: str, seat: int, cache: ViewCache | None) -> dict[str, Any]:
    for _ in range(MAX_CAS_ATTEMPTS):
        record = load(store, game_id)
        if not 0 <= seat < 4:
            raise ApiError(404, "not_found", "Seats are numbered 0 to 3.")
        if not record.seats[seat].claimable:
            raise ApiError(409, "seat_taken", f"Seat {seat} is not open.")
        if record.state.phase == "game_over":
            raise ApiError(409, "game_over", "The game is over.")
        token = new_token()
        nxt = _next(record)
        nxt.seats[seat] = Seat("human", None, hash_token(token))
        events = [_event(nxt, "seat_claimed", {"seat": seat})]
        if not nxt.waiting and not nxt.started:
            nxt.started = True
            events.append(round_started(nxt, nxt.state))
        ai_hook.before_commit(nxt)
        if store.commit(nxt, record, events):
            ai_hook.after_commit(store, nxt)
            return {"game_id": game_id, "seat": seat, "token": token, "state": game_view(nxt, seat, cache)}
    raise ApiError(503, "unavailable", "The game is too busy; retry.")


def leave_seat(store: GameStore, game_id: str, seat: int, token: str, cache: ViewCache | None) -> dict[str, Any]:
    for _ in range(MAX_CAS_ATTEMPTS):
        record = load(store, game_id)
        own = seat_for(record, token)
        if own != seat:
            raise ApiError(403, "forbidden", "A token may only leave its own seat.")
        g.seat = seat
        nxt = _next(record)
        takeover = record.options.get("ai_takeover")
        if takeover and record.state.phase != "game_over":
            nxt.seats[seat] = Seat("ai", takeover, None, stand_in=True)
        else:
            nxt.seats[seat] = Seat("open")
        events = [_event(nxt, "seat_left", {"seat": seat, "ai_takeover": nxt.seats[seat].level})]
        ai_hook.before_commit(nxt)
        if store.commit(nxt, record, events):
            ai_hook.after_commit(store, nxt)
            return game_view(nxt, None, cache)
    raise ApiError(503, "unavailable", "The game is too busy; retry.")


def parse_if_match(header: str | None) -> int | None:
    """``"7"``, ``W/"7"`` or ``7`` → 7; anything else is a 400."""
    if header is None:
        return None
    text = header.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if not text.isdigit() or len(text) > 15:
        raise invalid_request([{"field": "If-Match", "message": 'must be an ETag like "7"'}])
    return int(text)


def request_fingerprint(kind: str, body: dict[str, Any]) -> str:
    return hashlib.sha256(f"{kind}:{json.dumps(body, sort_keys=True)}".encode()).hexdigest()


def _commit_move(
    store: GameStore,
    record: GameRecord,
    seat: int,
    move: Bid | Play,
    cache: ViewCache | None,
    idem: tuple[str, str] | None = None,
    count: bool = True,
) -> dict[str, Any] | None:
    """Apply ``move`` for ``seat`` to ``record`` and commit it; the seat's new
    view, or None when another writer changed the game first.  ``idem`` is
    ``(Idempotency-Key redis key, request fingerprint)``."""
    kind = "bid" if isinstance(move, Bid) else "play"
    before = record.state
    try:
        after = apply(before, seat, move)
    except EngineError as error:
        if count:  # a refusal found on a possibly stale copy is re-checked, and counted, then
            MOVES.labels(kind, error.code).inc()
        if error.code == "not_your_turn":
            raise ApiError(409, "not_your_turn", error.detail, reason=error.code) from None
        raise ApiError(422, "illegal_move", error.detail, reason=error.code) from None
    nxt = _next(record).with_state(after)
    events = move_events(nxt, before, after, seat, move)
    # not stored in the cache until committed: a lost race leaves no trace
    response = game_view(nxt, seat, cache, remember=False)
    idem_value = None
    if idem:
        idem_value = (idem[0], orjson.dumps({"fingerprint": idem[1], "response": response}).decode())
    ai_hook.before_commit(nxt)
    if not store.commit(nxt, record, events, idem_value):
        return None
    MOVES.labels(kind, "accepted").inc()
    if after.phase == "game_over":
        GAMES_FINISHED.inc()
    if cache is not None:
        cache.put((record.game_id, nxt.version, seat), response)
    ai_hook.after_commit(store, nxt)
    return response


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A client's move as the route parsed it."""

    token: str
    move: Bid | Play
    if_match: int | None = None  # the version the client saw (If-Match)
    idempotency_key: str | None = None
    fingerprint: str | None = None  # of kind and body; set with an idempotency key


def make_move(store: GameStore, game_id: str, request: MoveRequest, cache: ViewCache | None) -> dict[str, Any]:
    """Apply the move for the token's seat; returns the seat's new view.

    The first attempt starts from this process's most recent copy of the game
    when it has one (saving a Redis read): the commit's compare-and-set makes
    that safe, and any refusal found on that copy is re-checked on a fresh read
    before it is reported, so a stale copy can cost a retry, never a wrong answer.
    """
    for attempt in range(MAX_CAS_ATTEMPTS):
        recent = store.recent(game_id) if attempt == 0 else None
        record = recent or load(store, game_id)
        try:
            response = _try_move(store, record, request, cache, fresh=recent is None)
        except ApiError:
            if recent is not None:
                continue  # judge refusals on a fresh read only
            raise
        if response is not None:
            return response
    raise ApiError(503, "unavailable", "The game is too busy; retry.")


def _try_move(
    store: GameStore, record: GameRecord, request: MoveRequest, cache: ViewCache | None, fresh: bool
) -> dict[str, Any] | None:
    """One attempt of :func:`make_move` on ``record``: the new view, None if
    another writer got in first, or an ApiError for a refused move."""
    seat = seat_for(record, request.token)
    assert seat is not None
    g.seat = seat
    idem = None
    if request.idempotency_key:
        idem = (idempotency_key(record.game_id, seat, request.idempotency_key), request.fingerprint or "")
        stored = store.idempotent_response(idem[0])
        if stored is not None:
            if stored["fingerprint"] != idem[1]:
                raise ApiError(422, "idempotency_key_reused", "This Idempotency-Key was used with a different request.")
            return stored["response"]
    if request.if_match is not None and request.if_match != record.version:
        raise ApiError(412, "version_conflict", f"The game is at version {record.version}, not {request.if_match}.")
    if record.waiting:
        raise ApiError(409, "waiting_for_players", "The game waits until every seat is taken.")
    return _commit_move(store, record, seat, request.move, cache, idem, count=fresh)


def apply_ai_move(store: GameStore, game_id: str, version: int, seat: int, move: Bid | Play) -> bool:
    """Apply a computer player's decision made for ``version``; False (and
    nothing changed) when the game has moved on, the seat is no longer a
    computer's, or the move is illegal: a stale or duplicate result is
    dropped, never applied twice."""
    record = store.recent(game_id)  # usually the version this process just committed and sent
    if record is None or record.version != version:
        record = store.load(game_id)
    if record is None or record.version != version or record.seats[seat].type != "ai" or record.waiting:
        return False  # (a stale recent copy only costs the commit below its compare-and-set)
    try:
        return _commit_move(store, record, seat, move, None) is not None
    except ApiError as error:
        log.warning("AI move refused", extra={"game_id": game_id, "seat": seat, "reason": error.extra.get("reason")})
        return False


def parse_move(kind: str, body: dict[str, Any]) -> Bid | Play:
    return Bid(body["bid"]) if kind == "bid" else Play(parse_card(body["card"]))
