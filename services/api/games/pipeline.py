"""The one way a change reaches a game: every command is a change function, and this module commits it.

A change function takes the game as read and returns a :class:`Change` (the next version and its own log
entries) or an :class:`Answer` (nothing to write: the command's answer as it is).  It never writes; it raises an
``ApiError`` to refuse.  :func:`run` is the only retry loop and :func:`commit` the only commit sequence
(lichess's round actor is the model: a person's move, a computer's, a timeout, a seat change and a rematch all
go through one handle → publish):

1. load the game (a move's first attempt from the process's recent copy: the compare-and-set makes the copy safe,
   and only a commit is taken from it — a refusal or an answer found on it is judged again on a fresh read);
2. the change function;
3. the log: the clock's entries (:mod:`services.api.games.clock_events`) around the change's own, numbered in
   that order — none once the game was over (a finished game's clock stands still); a running turn is first given
   back the service's outages it went through (``ctx.outages``: :mod:`services.api.games.service_beat`);
4. before the write: the creators' hold (a creation), the record due (the change that ends the game), the AI
   turn or deadline the version needs, the listing's check and the players' index (a change of seats), the
   record's entry (a creation);
5. the compare-and-set, with the change's idempotent answer stored in the same write; lost to another writer:
   back to 1;
6. after it: the clock metrics, the end of a game (the creators' holds released, its record due, a public table
   unlisted, counted), the AI turn sent, the listing synced, the players' index
   (:mod:`services.api.games.live_games`).

A write the replicas did not confirm (``NotReplicated``) is written: the after-steps run, then it is raised
(``503 not_replicated``: the client retries, and its retry finds the change made).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from services.api.games import clock_events, fair_play, live_games, quotas
from services.api.games.clocks import NO_OUTAGES
from services.api.games.record import GameRecord
from services.api.metrics import GAMES_CREATED, GAMES_FINISHED
from services.api.problems import ApiError
from services.api.store.protocol import GameStore, NotReplicated

if TYPE_CHECKING:
    from services.api.games.commands import Collaborators

MAX_CAS_ATTEMPTS = 8

Entries = Callable[[GameRecord], list[dict[str, Any]]]


def no_entries(nxt: GameRecord) -> list[dict[str, Any]]:
    return []


@dataclass(slots=True)
class Change:
    """A change function's result: ``nxt`` (the game's next version, changed) and ``entries(nxt)``, the change's
    own log entries, made (and numbered) on ``nxt`` when the pipeline calls it, between the clock's."""

    nxt: GameRecord
    entries: Entries = no_entries
    by: str = "seat"  # what made it, for the clock: a move (clocks.MOVES), "seat", "back", "create", "credit"
    seat: int | None = None  # with "back": the seat whose person came back
    read: bool = False  # a client looks at the game now (its creation, a leave): the AI hooks' after_commit
    keep: Callable[[GameRecord], tuple[str, bytes]] | None = None  # an idempotent answer, written with it


@dataclass(frozen=True, slots=True)
class Answer:
    """A change function's result when there is nothing to write: the command's answer as it is."""

    value: Any


def run(
    ctx: Collaborators,
    game_id: str,
    change: Callable[[GameRecord], Change | Answer],
    recent: bool = False,
) -> Change | Answer:
    """Apply ``change`` to the game and commit it, from a fresh read each time another writer got in first:
    the committed :class:`Change` (its ``nxt`` as written) or the change function's :class:`Answer`.
    ``recent``: the first attempt reads the process's recent copy (a move: it saves a store read).
    ``404`` for a game that is not there; ``503`` after :data:`MAX_CAS_ATTEMPTS` lost races."""
    for attempt in range(MAX_CAS_ATTEMPTS):
        copy = ctx.store.recent(game_id) if recent and attempt == 0 else None
        record = copy or load(ctx.store, game_id)
        try:
            outcome = change(record)
        except ApiError:
            if copy is not None:
                continue  # a refusal is judged on a fresh read only
            raise
        if isinstance(outcome, Answer):
            if copy is not None:
                continue  # so is an answer: the copy may be older than the game
            return outcome
        if commit(ctx, record, outcome):
            return outcome
    raise ApiError(503, "unavailable", "The game is too busy; retry.")


def load(store: GameStore, game_id: str) -> GameRecord:
    """The game as stored now; ``404`` when there is none (never created, or expired)."""
    record = store.load(game_id) if len(game_id) <= 64 else None
    if record is None:
        raise ApiError(404, "not_found", "No such game (it may have expired).")
    return record


def create(ctx: Collaborators, change: Change, repeated: bool = False) -> bool:
    """Write a new game (``change.nxt``, version 1): True once written, False when its id exists already (nothing
    written; nothing held, unless ``repeated``: a creation made again with fixed ids, whose first making holds the
    same places).  ``429`` when a creator holds too many games."""
    return commit(ctx, None, change, repeated)


def commit(ctx: Collaborators, before: GameRecord | None, change: Change, repeated: bool = False) -> bool:
    """The commit sequence (the module docstring's steps 3 to 6) of ``change`` on ``before`` (None: a creation):
    True once written, False when another writer got in first (or the game exists already) and nothing was."""
    nxt = change.nxt
    creating = before is None
    timed = creating or before.state.phase != "game_over"
    # the outages a running turn went through, from a beat less than half the outage bound old (an outage recorded
    # later began after it, so a turn this commit starts is seldom given time it ran): may refuse (503), unwritten
    outages = ctx.outages.current() if timed and nxt.clock is not None else NO_OUTAGES
    events = clock_events.opening(nxt, before, change.by, change.seat, outages) if timed else []
    events += change.entries(nxt)
    events += fair_play.judged(nxt, before) if before is not None else []
    events += clock_events.closing(nxt, before) if timed else []
    ends = nxt.state.phase == "game_over" and not (before is not None and before.state.phase == "game_over")
    seats = creating or nxt.seats != before.seats
    kept = change.keep(nxt) if change.keep is not None else None
    if creating:
        quotas.hold(ctx.store, ctx.quotas, nxt)
    try:  # each step may be refused by the store (its timers or outbox shard failing over): nothing is written
        if ends and ctx.records is not None:
            ctx.records.ending(ctx.store, nxt)  # its record is due even if nothing runs after the write
        ctx.ai.before_commit(nxt)
        if seats:
            ctx.tables.before_seats(nxt)
            live_games.before_commit(ctx.store, before, nxt)
        if creating and ctx.records is not None:
            ctx.records.created(ctx.store, nxt)
        written = ctx.store.commit(nxt, before, events, kept)
    except NotReplicated:
        _after(ctx, before, change, ends, seats)
        raise
    except Exception:
        if creating:
            quotas.release(ctx.store, nxt)
        raise
    if not written:
        if creating and not repeated:
            quotas.release(ctx.store, nxt)
        return False
    _after(ctx, before, change, ends, seats)
    return True


def _after(ctx: Collaborators, before: GameRecord | None, change: Change, ends: bool, seats: bool) -> None:
    """Step 6: what follows a write (never raises for a hook's failure: the change is made)."""
    nxt = change.nxt
    if before is None:
        GAMES_CREATED.inc()
    else:
        clock_events.counted(nxt, before, change.by)
    if ends:
        GAMES_FINISHED.inc()
        quotas.release(ctx.store, nxt)
        if ctx.records is not None:
            ctx.records.finished(ctx.store, nxt)
    read = change.read or before is None or (nxt.computer_only and not before.computer_only)  # its last person left
    ctx.ai.after_commit(nxt, read=read)
    if seats or ends:
        ctx.tables.after_seats(nxt)
        live_games.after_commit(ctx.store, before, nxt)
