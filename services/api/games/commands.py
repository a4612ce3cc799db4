"""What the API does to a game: create, claim, leave and move.

Each command is a change function run by :mod:`services.api.games.pipeline`, which
commits it with the store's compare-and-set on the version and applies it again to a
fresh read when another writer got in first: of N racing moves for one turn exactly
one applies and the others see the truth afterwards (``not_your_turn``), unless the
client pinned the version with ``If-Match`` (then ``version_conflict``).

Commands take their collaborators (:class:`Collaborators`: the store, the AI
hooks, the view cache, the operator's settings) as a parameter and know nothing
of Flask: the app factory builds one per process and the routes pass it in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from services.api.games import clocks, fair_play, idempotency, pipeline, seat_release
from services.api.games.auth import seat_for
from services.api.games.commit_hooks import NO_AI, AiHooks
from services.api.games.events import event, log_entries
from services.api.games.move_request import MoveRequest, computer_move
from services.api.games.pipeline import Answer, Change, Entries
from services.api.games.quotas import NO_QUOTAS, Quotas
from services.api.games.record import GameOptions, GameRecord, PlayerRef, Seat
from services.api.games.record_schedule import RecordSchedule
from services.api.games.rendering import ViewCache, game_view, seats_view
from services.api.games.reservations import check_claim
from services.api.games.seat_players import AS_BOUND, Players
from services.api.games.seat_tokens import hash_token, new_game_id, new_token
from services.api.games.service_beat import NO_BEAT, OutageSource
from services.api.games.table_hooks import NO_TABLES, TableHooks
from services.api.metrics import MOVES
from services.api.problems import ApiError, invalid_request
from services.api.store.protocol import GameStore, NotReplicated, idempotency_key, key_digest, now_ms
from services.computers import DEFAULT_LEVEL
from services.engine import (
    Bid,
    EngineError,
    Look,
    Move,
    Pass,
    Play,
    RuleError,
    apply_with_events,
    make_rules,
    new_game,
    round_started,
)
from services.ratings.policy import RATED_MIN_TARGET

log = logging.getLogger(__name__)


def _ignore_seat(seat: int | None) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Collaborators:
    """What commands work with; one per process, built by the app factory."""

    store: GameStore
    cache: ViewCache | None = None
    ai: AiHooks = NO_AI
    allow_seeded: bool = True  # the app passes ALLOW_SEEDED_GAMES (off unless set): a seed's creator knows the deals
    note_seat: Callable[[int | None], None] = _ignore_seat  # the seat a request acts for, for its log line
    quotas: Quotas = NO_QUOTAS  # games each creator may keep in play (services.api.games.quotas)
    records: RecordSchedule | None = None  # finished games recorded (services.api.games.record_schedule); None: not
    tables: TableHooks = NO_TABLES  # public tables listed (services.api.games.table_hooks)
    clock_scale: float = 1.0  # CLOCK_SCALE: the time controls' times multiplied (a test and operations setting)
    rated_min_win_score: int = RATED_MIN_TARGET  # RATED_MIN_WIN_SCORE: a shorter game is not rated
    players: Players = AS_BOUND  # seats' players as they are now (services.api.games.seat_players)
    outages: OutageSource = NO_BEAT  # the service's outages the clocks give back (services.api.games.service_beat)


@dataclass(frozen=True, slots=True)
class FixedIds:
    """A game whose id and whose people's seat-token hashes were chosen before it was created (a quick
    match's group, services.api.lobby): creating it again finds it made, and no token is handed out."""

    game_id: str
    token_hashes: tuple[str | None, ...]
    players: tuple[PlayerRef | None, ...] = ()  # the people's players, where their requests carried one
    clients: tuple[str | None, ...] = ()  # the people's clients (hashed addresses), by seat


def create_game(
    ctx: Collaborators,
    body: dict[str, Any],
    creators: tuple[str, ...] = (),
    fixed: FixedIds | None = None,
    player: PlayerRef | None = None,
    client: str | None = None,
    secret: str | None = None,
) -> dict[str, Any] | None:
    """A new game; ``creators`` (:func:`services.api.games.quotas.creator_ids`) hold it while it is in play.
    ``secret``: the secret the server deals it from (an event's round: every table the same cards), never shown.
    With ``fixed``, the game of those ids, or None when it exists already.  The seat whose spec says
    ``player: true`` is bound to ``player`` (the request's player token; the route checks there is one).
    ``client`` (:func:`services.api.games.quotas.address_id`) gets every human seat's token: it took them all."""
    seed = body.get("seed")
    if seed is not None and not ctx.allow_seeded:
        raise ApiError(
            403,
            "seeded_games_disabled",
            "This server does not create games with a chosen seed (ALLOW_SEEDED_GAMES is off, its default): "
            "whoever knows the seed knows every deal. Omit 'seed' and the server deals from a secret it keeps; "
            "a duplicate match needs a server in match mode (ALLOW_SEEDED_GAMES=1).",
        )
    overrides = dict(body["rules"])
    preset = overrides.pop("preset")
    try:
        rules = make_rules(preset, **overrides)
    except RuleError as error:
        raise _rules_refused(error) from None
    state = new_game(rules, secret if secret is not None else seed)
    seats: list[Seat] = []
    tokens: list[str | None] = []
    for i, spec in enumerate(body["seats"]):
        token = new_token() if spec["type"] == "human" and fixed is None else None
        level = spec.get("level", DEFAULT_LEVEL) if spec["type"] == "ai" else None
        token_hash = hash_token(token) if token else fixed.token_hashes[i] if fixed else None
        bound = (spec.get("player") and player) or (fixed.players[i] if fixed and i < len(fixed.players) else None)
        seats.append(Seat.taken(token_hash, bound) if spec["type"] == "human" else Seat(spec["type"], level))
        tokens.append(token)
    asked = body["options"]
    clock = asked.get("clock") or clocks.default_control(s.type for s in seats)
    options = GameOptions.from_json({**asked, "clock": clock})
    clients = fixed.clients if fixed and fixed.clients else (client,) * len(seats)
    now = now_ms()
    record = GameRecord(
        fixed.game_id if fixed else new_game_id(),
        1,
        seats,
        "",
        options,
        seeded=seed is not None,
        creators=creators,
        created_ms=now,
        changed_ms=now,
    )
    record = record.with_state(state)
    record.clock = clocks.new_clock(clock, ctx.clock_scale)
    record.fair = fair_play.begin(seats, options, rules, seed is not None, clients, ctx.rated_min_win_score)
    opened = seat_change("game_created", {"seats": seats_view(record), "rules": rules.to_dict()})
    if not pipeline.create(ctx, Change(record, opened, by="create"), repeated=fixed is not None):
        if fixed is not None:
            return None  # made already (its creation repeated): its holds are its own
        raise ApiError(503, "unavailable", "Could not allocate a game id; retry.")  # a 128-bit id collision
    seat_release.recheck(ctx, record.game_id, [s.player for s in seats])  # a credential revoked meanwhile
    created = []
    for i, (seat, token) in enumerate(zip(seats, tokens, strict=True)):
        item: dict[str, Any] = {"seat": i, "type": seat.type, "level": seat.level}
        if token:
            item["token"] = token
        created.append(item)
    return {"game_id": record.game_id, "seats": created, "state": game_view(record, None, ctx.cache)}


def _rules_refused(error: RuleError) -> ApiError:
    """A bad option is a 400 naming it; a combination of options that makes no sense a 422 naming both."""
    errors = [{"field": f"rules.{name}", "message": error.message} for name in error.options]
    if len(error.options) == 1:
        return invalid_request(errors)
    detail = f"rules.{error.options[0]} and rules.{error.options[1]}: {error.message}"
    return ApiError(422, "invalid_rules", detail, errors=errors)


def claim_seat(
    ctx: Collaborators, game_id: str, seat: int, player: PlayerRef | None = None, client: str | None = None
) -> dict[str, Any]:
    """Take an open seat (or a stand-in's) with a new token; bound to ``player`` when the request carried one;
    ``client``: who took it (:func:`services.api.games.fair_play.seat_taken`)."""
    token = new_token()

    def claim(record: GameRecord) -> Change:
        if not 0 <= seat < 4:
            raise ApiError(404, "not_found", "Seats are numbered 0 to 3.")
        if not record.seats[seat].claimable:
            raise ApiError(409, "seat_taken", f"Seat {seat} is not open.")
        if record.state.phase == "game_over":
            raise ApiError(409, "game_over", "The game is over.")
        if record.rematch:
            check_claim(record, seat, now_ms())  # a rematch's seat kept for its person: 409 seat_reserved
        fair_play.check_claim(record, seat, player)  # a rated game's left seat is kept for its player
        if player is not None:
            check_not_seated(record, player, seat)
        nxt = record.successor()
        nxt.seats[seat] = Seat.taken(hash_token(token), player)
        fair_play.seat_taken(nxt, seat, client)
        return Change(nxt, seat_change("seat_claimed", {"seat": seat}))

    done = pipeline.run(ctx, game_id, claim)
    assert isinstance(done, Change)
    seat_release.recheck(ctx, game_id, [player])  # a credential revoked meanwhile
    return {"game_id": game_id, "seat": seat, "token": token, "state": game_view(done.nxt, seat, ctx.cache)}


def check_not_seated(record: GameRecord, player: PlayerRef, seat: int) -> None:
    """409 ``player_seated`` when ``player`` holds a seat of the game already: one player, one seat (a player
    on both sides of a table would be rated against themselves).  The seat a stand-in plays for them (they left
    it) is theirs to claim back."""
    if any(s.player_id == player.id and not (i == seat and s.stand_in) for i, s in enumerate(record.seats)):
        raise ApiError(409, "player_seated", "This player holds a seat of this game already.")


def seat_change(kind: str, data: dict[str, Any]) -> Entries:
    """The log entries of a change of seats told by the event ``kind``: that event, then round 1 dealt, the first
    time no seat is open."""

    def entries(nxt: GameRecord) -> list[dict[str, Any]]:
        told = [event(nxt, kind, data)]
        if nxt.waiting or nxt.started:
            return told
        nxt.started = True
        return told + log_entries(nxt, [round_started(nxt.state)])

    return entries


def leave_seat(ctx: Collaborators, game_id: str, seat: int, token: str) -> dict[str, Any]:
    def leave(record: GameRecord) -> Change:
        if seat_for(record, token) != seat:
            raise ApiError(403, "forbidden", "A token may only leave its own seat.")
        ctx.note_seat(seat)
        nxt = record.successor()
        # a stand-in plays the seat for its player until someone claims it: leaving is no way out of a rated
        # game's result (services.api.records.content.seat_player_id)
        nxt.seats[seat] = seat_release.left_seat(record, seat)
        data = {"seat": seat, "ai_takeover": nxt.seats[seat].level}
        # read: the leaver watches on (a game it leaves to computers plays on)
        return Change(nxt, lambda n: [event(n, "seat_left", data)], read=True)

    done = pipeline.run(ctx, game_id, leave)
    assert isinstance(done, Change)
    return game_view(done.nxt, None, ctx.cache)


class KeyedMove(NamedTuple):
    """A move sent with an ``Idempotency-Key``: where its seat's entry lives, the key's digest, the body's fingerprint."""

    key: str
    digest: bytes
    fingerprint: str


def move_kind(move: Move) -> str:
    """The move's kind as the API names it (its route, and the moves metric's label)."""
    if isinstance(move, Bid):
        return "blind" if move.blind else "bid"
    return _KINDS[type(move)]


_KINDS = {Look: "blind", Pass: "pass", Play: "play"}


class MoveRefused(ApiError):
    """The engine refused a move of ``kind``: counted by kind and reason once judged on a fresh read."""

    def __init__(self, kind: str, error: EngineError) -> None:
        if error.code == "not_your_turn":
            super().__init__(409, "not_your_turn", error.detail, reason=error.code)
        else:
            super().__init__(422, "illegal_move", error.detail, reason=error.code)
        self.kind = kind

    def count(self) -> None:
        MOVES.labels(self.kind, self.extra["reason"]).inc()


def _move_change(record: GameRecord, seat: int, move: Move, by: str = "move") -> Change:
    """``move`` for ``seat`` applied to ``record``: the change, its log entries the engine's events.  ``by``: who
    moved, for the clock (:data:`services.api.games.clocks.MOVES`)."""
    try:
        after, happened = apply_with_events(record.state, seat, move)
    except EngineError as error:
        raise MoveRefused(move_kind(move), error) from None
    return Change(record.successor().with_state(after), lambda nxt: log_entries(nxt, happened), by=by)


class _Moved:
    """A person's move as :func:`make_move` answers it: its seat's view of the version it made, rendered once
    (stored with its ``Idempotency-Key`` in the same commit when it has one, cached, answered)."""

    def __init__(self, cache: ViewCache | None) -> None:
        self.cache = cache
        self.seat = 0
        self.kind = ""
        self._made: GameRecord | None = None
        self._view: dict[str, Any] = {}

    def view(self, nxt: GameRecord) -> dict[str, Any]:
        if self._made is not nxt:  # not stored in the cache until committed: a lost race leaves no trace
            self._made, self._view = nxt, game_view(nxt, self.seat, self.cache, remember=False)
        return self._view

    def answer(self, nxt: GameRecord) -> dict[str, Any]:
        return {**self.view(nxt), "server_time_ms": nxt.changed_ms}  # stored: a keyed retry gets the same bytes


def make_move(ctx: Collaborators, game_id: str, request: MoveRequest) -> dict[str, Any]:
    """Apply the move for the token's seat; returns the seat's new view.

    The first attempt starts from this process's most recent copy of the game
    when it has one (saving a store read): the commit's compare-and-set makes
    that safe, and any refusal found on that copy is re-checked on a fresh read
    before it is reported (:func:`services.api.games.pipeline.run`), so a stale
    copy can cost a retry, never a wrong answer.
    """
    moved = _Moved(ctx.cache)
    try:
        done = pipeline.run(ctx, game_id, lambda record: _try_move(ctx, record, request, moved), recent=True)
    except MoveRefused as refused:
        refused.count()
        raise
    if isinstance(done, Answer):
        assert done.value is not None  # a stored answer replayed on a fresh read
        return done.value
    MOVES.labels(moved.kind, "accepted").inc()
    if ctx.cache is not None:
        ctx.cache.put((game_id, done.nxt.version, moved.seat), moved.view(done.nxt))
    return moved.answer(done.nxt)


def _try_move(ctx: Collaborators, record: GameRecord, request: MoveRequest, moved: _Moved) -> Change | Answer:
    """The change function of :func:`make_move`: the move's change, a stored answer (a keyed move repeated), or
    an ApiError for a refused move."""
    seat = seat_for(record, request.token)
    assert seat is not None
    ctx.note_seat(seat)
    idem = None
    if request.idempotency_key:
        # the seat's last keyed move only: an older key is judged as a new move
        idem = KeyedMove(
            idempotency_key(record.game_id, seat), key_digest(request.idempotency_key), request.fingerprint or ""
        )
        raw = ctx.store.idempotent_entry(idem.key, idem.digest)
        if raw is not None:
            stored = idempotency.unpack(raw)
            if stored.fingerprint != idem.fingerprint:
                raise ApiError(422, "idempotency_key_reused", "This Idempotency-Key was used with a different request.")
            # None from a copy older than the entry; a fresh read holds its rounds (the pipeline reads one)
            return Answer(idempotency.replay(stored, record, ctx.cache))
    if request.if_match is not None and request.if_match != record.version:
        raise ApiError(412, "version_conflict", f"The game is at version {record.version}, not {request.if_match}.")
    if record.waiting:
        raise ApiError(409, "waiting_for_players", "The game waits until every seat is taken.")
    try:
        move = request.move_in(record.state.rules.deck)
    except ValueError:
        raise ApiError(
            422, "illegal_move", "That card is not in this game's deck.", reason="card_not_in_hand"
        ) from None
    moved.seat, moved.kind = seat, move_kind(move)
    change = _move_change(record, seat, move)
    if idem is not None:
        key = idem

        def keep(nxt: GameRecord) -> tuple[str, bytes]:
            return key.key, idempotency.pack(key.digest, key.fingerprint, moved.answer(nxt))

        change.keep = keep
    return change


def apply_ai_move(ctx: Collaborators, game_id: str, version: int, seat: int, decision: dict[str, Any]) -> bool:
    """Apply a computer player's decision made for ``version``; False (and nothing changed) when the game has
    moved on or is gone, the seat is no longer a computer's, or the move is illegal: a stale or duplicate result
    is dropped, never applied twice.  Not judged now (``503``: the heartbeat answered late, the game too busy):
    raised, so that the caller keeps the decision (stored, its turn on the timers) for the deadline sweep."""
    kinds: list[str] = []

    def ai_move(record: GameRecord) -> Change | Answer:
        outages = ctx.outages.current() if record.clock is not None else clocks.NO_OUTAGES
        if record.version != version or clocks.computer_seat(record, now_ms(), outages) != seat:
            return Answer(False)  # (from the process's recent copy: judged again on a fresh read)
        try:
            move = computer_move(decision, record.state.rules.deck)
        except (ValueError, KeyError, TypeError):
            log.warning("AI move unreadable", extra={"game_id": game_id, "seat": seat})
            return Answer(False)
        kinds.append(move_kind(move))
        return _move_change(record, seat, move, by=clocks.reason(record, seat))

    try:
        done = pipeline.run(ctx, game_id, ai_move, recent=True)  # usually the version this process just committed
    except MoveRefused as refused:
        refused.count()
        log.warning("AI move refused", extra={"game_id": game_id, "seat": seat, "reason": refused.extra["reason"]})
        return False
    except NotReplicated:  # written; if a failover loses it, the deadline sweep sends the turn again
        log.warning("AI move not confirmed by replicas", extra={"game_id": game_id, "seat": seat})
        return True
    except ApiError as error:  # the game is gone (404): nothing to apply it to
        if error.status != 404:
            raise
        return False
    if isinstance(done, Answer):
        return bool(done.value)
    MOVES.labels(kinds[-1], "accepted").inc()
    return True
