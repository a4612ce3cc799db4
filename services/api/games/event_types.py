"""Every type of entry in a game's log, with what it tells a reader: the one list.

The push stream (:mod:`services.api.live.stream`) and a connection's audience (:mod:`services.api.games.audience`)
read their rules from it; the contract's ``EventType`` enum, the web client (``events.js``, ``news.js``,
``transport.js``) and the Python client are held to it by ``tests/api/games/test_event_types.py``.  A new type is
added here first (CONTRIBUTING.md: "Add a table event").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EventType:
    """One type of log entry and what it means to whoever reads the log."""

    name: str
    last: bool = False  # nothing follows it in the log: a stream ends right after it
    hands_on: bool = False  # gives its ``data.seat`` to another credential: that seat's old token sees no more
    seats: bool = False  # who sits where changed: a client reads the view again to show it
    leaves: bool = False  # the game may be left to computers alone after it: an open stream keeps it watched
    private: bool = False  # may carry a part for one seat only (a hand, passed cards)


TYPES: tuple[EventType, ...] = (
    EventType("game_created", seats=True),
    EventType("seat_claimed", hands_on=True, seats=True),
    EventType("seat_left", hands_on=True, seats=True, leaves=True),
    EventType("seat_rejoined", hands_on=True, seats=True),
    EventType("seat_released", hands_on=True, seats=True),
    EventType("rematch_offered"),
    EventType("reservation_ended", seats=True),
    EventType("round_started", private=True),
    EventType("bid"),
    EventType("hand_shown", private=True),
    EventType("cards_passed", private=True),
    EventType("exchange_done", private=True),
    EventType("card_played"),
    EventType("trick_won"),
    EventType("round_scored"),
    EventType("game_over", last=True),
    EventType("clock_credited"),
    EventType("turn_timed_out"),
    EventType("seat_away", leaves=True),
    EventType("seat_back"),
    EventType("turn_clock"),
    EventType("fair_play"),
)
BY_NAME = {kind.name: kind for kind in TYPES}

LAST = next(kind.name for kind in TYPES if kind.last)
HANDS_ON = frozenset(kind.name for kind in TYPES if kind.hands_on)
LEAVES = frozenset(kind.name for kind in TYPES if kind.leaves)
