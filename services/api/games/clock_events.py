"""A commit's part in the turn clock: the record's new clock and the log entries that tell the table.

Every command that commits a change calls :func:`opening` before it makes its own log entries and
:func:`closing` after; the entries are, in order (all in the change's own commit, versioned like any event):

* ``clock_credited {seat, outage_ms, given_ms, back_ms}`` when the running turn is given back the service's outages
  it went through (:func:`~services.api.games.clocks.credited`): their time within the turn, how much later its
  deadline now is (a grace after the outage included), and when the service took moves again;
* ``turn_timed_out {seat, level, deadline_ms, at_ms}`` when the computer makes a move because the seat's deadline
  passed, then ``seat_away {seat}`` when that was the seat's :data:`~services.api.games.clocks.AWAY_AFTER`-th in a
  row; ``seat_back {seat}`` when an away seat's person moves or says so (``POST .../back``) — before the
  change's own entries;
* the change's own entries (a move's, ``seat_claimed``, ...);
* ``turn_clock {seat, deadline_ms, reserve_ms, move_ms}`` when whose clock runs, or until when, changed (``seat``
  and ``deadline_ms`` null: nobody's runs now — a computer's turn, an away seat's).  Readers get it with
  ``server_time_ms`` added when it is delivered (:func:`delivered`), so a client counts down from the server's
  time, never its own.  None once the game is over.
"""

from __future__ import annotations

from typing import Any

from services.api.games import clocks
from services.api.games.clocks import NO_OUTAGES, Outages
from services.api.games.events import event
from services.api.games.record import Clock, GameRecord
from services.api.metrics import SEATS_AWAY, TIMEOUT_LATENESS, TURN_TIMEOUTS
from services.engine import turn

TURN_CLOCK = "turn_clock"


def opening(
    nxt: GameRecord, before: GameRecord | None, by: str, seat: int | None = None, outages: Outages = NO_OUTAGES
) -> list[dict[str, Any]]:
    """Sets ``nxt.clock`` (:func:`services.api.games.clocks.after_change` at ``nxt.changed_ms``, the ``outages``
    given back; ``before`` None: the game's creation) and returns the clock's entries that go before the change's
    own (see the module doc)."""
    old = before.clock if before is not None else nxt.clock
    if old is None:
        return []
    given = clocks.credited(old, outages) if before is not None else old
    new = nxt.clock = clocks.after_change(old, before, nxt, nxt.changed_ms, by, seat, outages)
    assert new is not None
    entries: list[dict[str, Any]] = []
    if given is not old:
        entries.append(event(nxt, "clock_credited", credited(old, given)))
    if by == "timeout" and before is not None and (mover := turn(before.state)) is not None:
        level = clocks.stand_in_level(before, mover)
        data = {"seat": mover, "level": level, "deadline_ms": given.deadline_ms, "at_ms": nxt.changed_ms}
        entries.append(event(nxt, "turn_timed_out", data))
    for i, (was, now) in enumerate(zip(old.away, new.away, strict=True)):
        if was != now:
            entries.append(event(nxt, "seat_away" if now else "seat_back", {"seat": i}))
    return entries


def credited(old: Clock, given: Clock) -> dict[str, Any]:
    """A ``clock_credited`` entry's data: the seat, the outages' time given back, how much later the deadline is,
    and when the service took moves again."""
    assert old.deadline_ms is not None and given.deadline_ms is not None
    return {
        "seat": old.seat,
        "outage_ms": given.given_ms - old.given_ms,
        "given_ms": given.deadline_ms - old.deadline_ms,
        "back_ms": given.given_until_ms,
    }


def closing(nxt: GameRecord, before: GameRecord | None) -> list[dict[str, Any]]:
    """The entry that goes after the change's own: ``turn_clock`` when whose clock runs, or until when, changed."""
    new, old = nxt.clock, before.clock if before is not None else None
    if new is None or nxt.state.phase == "game_over":
        return []
    if old is not None and (new.seat, new.deadline_ms) == (old.seat, old.deadline_ms):
        return []
    if old is None and new.seat is None:
        return []  # a new game whose first turn is no person's
    return [event(nxt, TURN_CLOCK, turn_clock(new))]


def turn_clock(clock: Clock) -> dict[str, Any]:
    """A ``turn_clock`` entry's data: whose clock runs, until when, the seat's reserve left, the move time."""
    seat = clock.seat
    reserve = clock.reserve_ms[seat] if seat is not None else None
    return {"seat": seat, "deadline_ms": clock.deadline_ms, "reserve_ms": reserve, "move_ms": clock.move_ms}


def delivered(entry: dict[str, Any], server_time_ms: int) -> dict[str, Any]:
    """``entry`` as it leaves the service at ``server_time_ms``: a ``turn_clock`` entry carries that time."""
    if entry["type"] != TURN_CLOCK:
        return entry
    return {**entry, "data": {**entry["data"], "server_time_ms": server_time_ms}}


def counted(nxt: GameRecord, before: GameRecord, by: str) -> None:
    """After the commit of ``nxt`` (made ``by``): the clock metrics (timeouts, their lateness, seats away and back)."""
    old, new = before.clock, nxt.clock
    if old is None or new is None:
        return
    if by == "timeout" and old.deadline_ms is not None:
        TURN_TIMEOUTS.inc()
        TIMEOUT_LATENESS.observe(max(0, nxt.changed_ms - old.deadline_ms) / 1000)
    for was, now in zip(old.away, new.away, strict=True):
        if was != now:
            SEATS_AWAY.labels("away" if now else "back").inc()
