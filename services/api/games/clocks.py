"""Turn clocks: the time-control catalogue and the rules of a person's turn time (pure: no I/O).

A game's time control is one of its settings (``options.clock``, a name from :data:`CONTROLS`); its running
clock is kept with the game (``GameRecord.clock``, a :class:`~services.api.games.record.Clock`) and changed only by the commits
that change the game, through :func:`after_change`.  The rules:

* a person's turn (a ``human`` seat, not away, in a game with a clock that is not waiting for players) has a
  deadline: the turn's start + the move time + the seat's reserve left; so has a person's seat that no device
  holds (released with its dead credential, :mod:`services.api.games.seat_release`): its turns time out and it
  goes away like any seat whose person stopped moving, until its player takes it back with a new token;
* a person's move spends ``max(0, elapsed - move time)`` of the seat's reserve (a timeout spends all of it);
* when the deadline passes, the computer makes that one move (the game's takeover level, :func:`stand_in_level`);
  after :data:`AWAY_AFTER` timeouts in a row the seat is **away**, and the computer plays it at once, with no
  clock, until the person is back (their own move, or ``POST .../back``); their own move resets the count;
* the service's own outages are not the person's time (:func:`credited`): a turn that ran while no API process
  could take a move (a gap in the service's heartbeat, :mod:`services.api.games.service_beat`) gets that time back
  on its deadline, and at least a grace after the outage's end, before any deadline is acted on;
* :func:`computer_seat` is the one rule of whose turn the computer plays: an ``ai`` seat's, an away person's,
  or a person's past the (credited) deadline.  The AI hooks register and send by it, and ``apply_ai_move`` accepts a
  decision only under it, so a racing person's move and the timeout move are kept to exactly one by the
  commit's compare-and-set.

Times are the server's, in Unix milliseconds: a client shows ``deadline_ms - server_time_ms``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from services.api.games import fair_play
from services.api.games.record import NO_CLOCK, Clock, GameRecord
from services.computers import DEFAULT_LEVEL
from services.engine import turn


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A named time control: seconds a move, and a reserve (time bank) each seat spends past them."""

    name: str
    move_seconds: int
    reserve_seconds: int
    description: str


CONTROLS: dict[str, TimeControl] = {
    c.name: c
    for c in (
        TimeControl("none", 0, 0, "No clock: a turn waits for its player (the game expires when nobody moves)."),
        TimeControl("fast", 10, 30, "10 s a move plus a 30 s reserve: quick play."),
        TimeControl("normal", 25, 60, "25 s a move plus a 60 s reserve."),
        TimeControl("relaxed", 60, 120, "A minute a move plus a 2 min reserve."),
        TimeControl("correspondence", 24 * 3600, 0, "A day a move, no reserve: play at your own pace."),
    )
}
PEOPLE_DEFAULT = "normal"  # a game created with two or more people (or open seats for them)
DEFAULT_RULE = "normal when two or more seats are human or open at creation, else none"
AWAY_AFTER = 2  # timeouts in a row that make a seat away
STAND_IN_LEVEL = "basic"  # the timeout move's level in a game whose ai_takeover is null
#: What made a change, for :func:`after_change`: a seat's own move, its timeout, an away seat's computer move,
#: an ai seat's move, a person coming back, or a change of seats (create, claim, leave).
MOVES = frozenset({"move", "timeout", "stand_in", "ai"})


@dataclass(frozen=True, slots=True)
class Outages:
    """The service's outages known when a clock is judged: ``spans``, each (start, end) in Unix ms, oldest first and
    none overlapping (each starts at the last heartbeat before it); ``grace_ms``, the least time a turn that ran
    through one has left after its end (a person's client needs a moment to find the service back)."""

    spans: tuple[tuple[int, int], ...] = ()
    grace_ms: int = 0


NO_OUTAGES = Outages()


def credited(clock: Clock, outages: Outages) -> Clock:
    """``clock`` with the outages its running turn went through given back: each outage's time within the turn is
    added to the deadline (and to ``given_ms``), and the deadline is at least ``grace_ms`` after the outage's end.
    An outage that began once the deadline had passed gives nothing (the clock ran out while the service took
    moves); one given already (ending at or before ``given_until_ms``) is not given twice.  The same object when
    there is nothing to give."""
    if clock.seat is None or clock.deadline_ms is None or clock.turn_started_ms is None:
        return clock
    started, deadline, given, until = clock.turn_started_ms, clock.deadline_ms, clock.given_ms, clock.given_until_ms
    for start, end in outages.spans:
        if end <= started or (until is not None and end <= until):
            continue  # before this turn, or given already
        if start >= deadline:
            break  # the clock had run out before the service stopped
        lost = end - max(start, started)
        given, until = given + lost, end
        deadline = max(deadline + lost, end + outages.grace_ms)
    if until == clock.given_until_ms:
        return clock
    return replace(clock, deadline_ms=deadline, given_ms=given, given_until_ms=until)


def default_control(seat_types: Iterable[str]) -> str:
    """The control of a game created without ``options.clock``: a clock once people play people."""
    people = sum(t in ("human", "open") for t in seat_types)
    return PEOPLE_DEFAULT if people >= 2 else NO_CLOCK


def catalogue() -> list[dict[str, Any]]:
    """The controls as ``GET /v1/rules`` lists them (``time_controls``)."""
    return [
        {
            "name": c.name,
            "move_seconds": c.move_seconds,
            "reserve_seconds": c.reserve_seconds,
            "description": c.description,
        }
        for c in CONTROLS.values()
    ]


def new_clock(control: str, scale: float = 1.0) -> Clock | None:
    """A new game's clock (no turn running yet), or None for ``none``.  ``scale`` multiplies the control's
    times (``CLOCK_SCALE``: a test and operations setting, 1 in production)."""
    spec = CONTROLS[control]
    if spec.name == NO_CLOCK:
        return None
    move, reserve = round(spec.move_seconds * 1000 * scale), round(spec.reserve_seconds * 1000 * scale)
    return Clock(control, move, reserve, None, None, None, (reserve,) * 4, (0,) * 4, (False,) * 4)


def after_change(
    clock: Clock | None,
    before: GameRecord | None,
    after: GameRecord,
    now_ms: int,
    by: str,
    seat: int | None = None,
    outages: Outages = NO_OUTAGES,
) -> Clock | None:
    """The clock of ``after``, the change of ``before`` (None: the game's creation) made at ``now_ms`` ``by``
    (:data:`MOVES`, ``"back"`` with the ``seat`` coming back, ``"credit"`` for the outages alone, or a change of
    seats), the running turn first given back the ``outages`` it went through (:func:`credited`).  A new object:
    stored clocks are shared between versions and never changed in place."""
    if clock is None:
        return None
    c = credited(clock, outages)
    reserve, timeouts, away = list(c.reserve_ms), list(c.timeouts), list(c.away)
    if before is not None:
        for i, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
            if old.type != new.type:  # another occupant (claimed, left): a fresh seat
                reserve[i], timeouts[i], away[i] = c.full_reserve_ms, 0, False
            elif old.token_hash != new.token_hash and new.token_hash is not None:  # a new token: back at the table
                timeouts[i], away[i] = 0, False
    mover = turn(before.state) if before is not None and by in MOVES else None
    if mover is not None:
        if c.seat == mover and c.turn_started_ms is not None:  # the time it took, the service's outages not counted
            spent = now_ms - c.turn_started_ms - c.given_ms - c.move_ms
            reserve[mover] = max(0, reserve[mover] - max(0, spent))
        if by == "move":
            timeouts[mover], away[mover] = 0, False
        elif by == "timeout":
            timeouts[mover] += 1
            away[mover] = away[mover] or timeouts[mover] >= AWAY_AFTER
    if by == "back" and seat is not None:
        timeouts[seat], away[seat] = 0, False
    to_move = None if after.waiting else turn(after.state)
    running = to_move if to_move is not None and after.seats[to_move].type == "human" and not away[to_move] else None
    given, until = 0, None
    if running is None:
        started = deadline = None
    elif by in MOVES or c.seat != running or c.deadline_ms is None:  # a new turn: its clock starts now
        started, deadline = now_ms, now_ms + c.move_ms + reserve[running]
    else:  # a change of seats elsewhere at the table, or a credit: the running turn goes on
        started, deadline, given, until = c.turn_started_ms, c.deadline_ms, c.given_ms, c.given_until_ms
    return Clock(
        c.control,
        c.move_ms,
        c.full_reserve_ms,
        running,
        started,
        deadline,
        tuple(reserve),
        tuple(timeouts),
        tuple(away),
        given,
        until,
    )


def computer_seat(record: GameRecord, now_ms: int, outages: Outages = NO_OUTAGES) -> int | None:
    """The seat whose turn the computer plays now: an ``ai`` seat's, an away person's, or a person's past the
    deadline, the ``outages`` its turn went through given back; None otherwise (a person's turn in time, waiting for
    players, game over)."""
    types = [s.type for s in record.seats]
    if "open" in types or ("ai" not in types and record.clock is None):
        return None  # (most games: no computer seat and no clock, no need to work out the turn; or waiting)
    seat = turn(record.state)
    if seat is None:
        return None
    if types[seat] == "ai":
        return seat
    clock = record.clock
    if clock is None or types[seat] != "human":
        return None
    if clock.away[seat]:
        return seat
    if clock.seat != seat:
        return None
    deadline = credited(clock, outages).deadline_ms
    return seat if deadline is not None and now_ms >= deadline else None


def reason(record: GameRecord, seat: int) -> str:
    """Why the computer plays ``seat`` (:func:`computer_seat` chose it): ``ai``, ``stand_in`` (away) or ``timeout``."""
    if record.seats[seat].type == "ai":
        return "ai"
    return "stand_in" if record.away(seat) else "timeout"


def stand_in_level(record: GameRecord, seat: int) -> str:
    """The level that plays ``seat``'s turn: an ai seat's own; for a person, the takeover level
    (:func:`services.api.games.fair_play.stand_in_level`: the server's in a game that counts, else
    ``options.ai_takeover``), basic when that is null."""
    own = record.seats[seat]
    if own.type == "ai":
        return own.level or DEFAULT_LEVEL
    return fair_play.stand_in_level(record) or STAND_IN_LEVEL


def deadline_seconds(record: GameRecord, outages: Outages = NO_OUTAGES) -> float | None:
    """The running person's deadline (Unix seconds, as the timers score), the ``outages`` given back, or None when
    no clock runs."""
    deadline = credited(record.clock, outages).deadline_ms if record.clock is not None else None
    return deadline / 1000 if deadline is not None else None


def clock_view(clock: Clock | None) -> dict[str, Any] | None:
    """The clock as views show it (None without one): whose clock runs and until when, reserves, away seats."""
    if clock is None:
        return None
    return {
        "control": clock.control,
        "move_ms": clock.move_ms,
        "seat": clock.seat,
        "turn_started_ms": clock.turn_started_ms,
        "deadline_ms": clock.deadline_ms,
        "reserve_ms": list(clock.reserve_ms),
        "away": list(clock.away),
    }
