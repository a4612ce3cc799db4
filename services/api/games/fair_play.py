"""Fair play in a game made to count: the game's half of the rule of which games are rated (the other half,
read off the finished game's record, is :mod:`services.ratings.policy`; docs/api.md tells both).

A game is *made to count* when :func:`services.ratings.policy.may_count` says so at its creation; it then keeps a
:class:`~services.api.games.record.FairPlay`, which every commit judges (:func:`judged`, called by the pipeline):

- a person who leaves, or is away (two turns in a row lost to the clock), **before the first card** aborts it:
  it no longer counts, and nobody is penalised;
- **after the first card**, that seat's player *forfeits*: their side is placed last whatever their stand-in then
  scores, and the seat is kept for them: only their own player takes it back (:func:`check_claim`);
- one client (an address) holding two person seats is one person playing both: the game no longer counts.

While it counts, the stand-in of a left seat is a level the server chooses (:data:`RATED_STAND_IN`), not the
creator's ``ai_takeover``, and no hint or round review is given to anyone (``409 rated_game``) until it is over.
Each change of it is a ``fair_play`` log entry, and views show it (``fair_play``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from services.api.games.events import event
from services.api.games.record import FairPlay, GameOptions, GameRecord, PlayerRef, Seat
from services.api.problems import ApiError
from services.computers import DEFAULT_LEVEL
from services.engine import GameState, Rules
from services.ratings.policy import ABORTED, RATED_MIN_TARGET, SHARED_CLIENT, may_count

RATED_STAND_IN = DEFAULT_LEVEL  # the level that plays a left or away seat while the game counts


def begin(
    seats: Sequence[Seat],
    options: GameOptions,
    rules: Rules,
    seeded: bool,
    clients: Sequence[str | None],
    min_win_score: int = RATED_MIN_TARGET,
) -> FairPlay | None:
    """The fair play of a new game (None: a game not made to count); ``clients``: who took each seat;
    ``min_win_score``: ``RATED_MIN_WIN_SCORE``."""
    made = may_count(
        [s.type for s in seats],
        seeded=seeded,
        hints=options.hints,
        public=options.public,
        matched=options.matched,
        clock=options.clock,
        win_score=rules.win_score,
        min_win_score=min_win_score,
    )
    if not made:
        return None
    kept = tuple(client if seat.type == "human" else None for seat, client in zip(seats, clients, strict=True))
    fair = FairPlay(clients=kept)
    return replace(fair, counts=False, reason=SHARED_CLIENT) if _shared(seats, kept) else fair


def counting(record: GameRecord) -> bool:
    """The game is made to count, still counts, and is not over: the rules of rated play hold."""
    return record.fair is not None and record.fair.counts and not record.finished


def stand_in_level(record: GameRecord) -> str | None:
    """The level that takes over a person's seat: the server's while the game counts, else ``ai_takeover``."""
    return RATED_STAND_IN if counting(record) else record.options.ai_takeover


def kept_for_player(record: GameRecord, seat: int) -> bool:
    """While the game counts, a left seat's stand-in plays for its player, who alone takes it back."""
    held = record.seats[seat]
    return held.stand_in and held.player_id is not None and counting(record)


def check_claim(record: GameRecord, seat: int, player: PlayerRef | None) -> None:
    """``409 seat_kept``: a seat :func:`kept_for_player` claimed by anyone but its player (their Player-Token)."""
    theirs = player is not None and player.id == record.seats[seat].player_id
    if kept_for_player(record, seat) and not theirs:
        raise ApiError(
            409,
            "seat_kept",
            f"Seat {seat} is kept for its player in this rated game: a computer plays it for them, and only "
            "they can take it back (claim it with their Player-Token).",
        )


def check_no_engine_help(record: GameRecord, what: str) -> None:
    """``409 rated_game``: no hint nor round review (``what``) while the game counts; any once it is over."""
    if counting(record):
        raise ApiError(
            409,
            "rated_game",
            f"No {what} in a rated game until it is over: the engine's help would play for you. Ask again once "
            "the game is over, or play an unrated game (with hints on) to practise.",
        )


def seat_taken(nxt: GameRecord, seat: int, client: str | None) -> None:
    """Who took ``seat`` in ``nxt`` (a claim, a redeemed rejoin code): judged with the rest by :func:`judged`."""
    if nxt.fair is not None:
        clients = list(nxt.fair.clients)
        clients[seat] = client
        nxt.fair = replace(nxt.fair, clients=tuple(clients))


def card_played(state: GameState) -> bool:
    """A card of the game has been played (a leave is no longer an abort)."""
    return state.round > 1 or bool(state.plays)


def judged(nxt: GameRecord, before: GameRecord) -> list[dict[str, Any]]:
    """Sets ``nxt.fair`` after a change of ``before`` (see the module doc) and returns its log entry, if any."""
    fair = nxt.fair
    if fair is None or not fair.counts or before.finished:
        return []
    started = card_played(before.state)
    reason, aborted_by = None, None
    forfeits, timed_out = set(fair.forfeits), set(fair.timed_out)
    for i, (was, now) in enumerate(zip(before.seats, nxt.seats, strict=True)):
        left = was.type == "human" and now.type != "human"
        away = now.type == "human" and nxt.away(i) and not before.away(i)
        if (left or away) and started:
            forfeits.add(i)
            if away:
                timed_out.add(i)
        elif (left or away) and aborted_by is None:
            reason, aborted_by = ABORTED, i
    if reason is None and _shared(nxt.seats, fair.clients):
        reason = SHARED_CLIENT
    new = replace(
        fair,
        counts=reason is None,
        reason=reason,
        forfeits=tuple(sorted(forfeits)),
        timed_out=tuple(sorted(timed_out)),
        aborted_by=aborted_by,
    )
    if new == fair:
        return []
    nxt.fair = new
    return [event(nxt, "fair_play", fair_play_view(new))]


def fair_play_view(fair: FairPlay) -> dict[str, Any]:
    """What views and the log show of it (never the clients)."""
    return {
        "counts": fair.counts,
        "reason": fair.reason,
        "forfeits": list(fair.forfeits),
        "timed_out": list(fair.timed_out),
        "aborted_by": fair.aborted_by,
    }


def _shared(seats: Sequence[Seat], clients: Sequence[str | None]) -> bool:
    taken = [client for seat, client in zip(seats, clients, strict=True) if seat.type == "human" and client]
    return len(set(taken)) != len(taken)
