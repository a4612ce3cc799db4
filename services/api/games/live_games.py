"""Each player's games in play: the index the pipeline keeps around the commits that bind or free a seat's player,
and its reading (``GET /v1/players/me/live-games``, the lobby's "Your games" on any device the player is signed in
on).

A game is noted among a player's (:class:`services.api.store.player_index.PlayerIndex`) when a commit binds one of
its seats to the player (a creation, a claim, a quick match's game, a rematch's seat; a rejoin or a take names
the player again): before the write, so a process that dies after it loses nothing, and again after it, as a
reader may have forgotten the game meanwhile (read before its creation was written).  The commit that frees the
player's seat (a leave to an open seat) or ends the game forgets it, after the write; one that fails to is
harmless, as the index is only a hint: the reading checks every game's record, shows only the seats bound to the
player now, and forgets the games over or gone.  A seat the computer plays for its player since they left it
stays theirs to claim back, so it stays listed (``stand_in``).  Ordinary moves never touch the index.
"""

from __future__ import annotations

import logging
from typing import Any

from services.api.games.record import GameRecord
from services.api.games.rendering import seats_view
from services.api.store.protocol import GameStore, now_ms
from services.engine import turn

log = logging.getLogger(__name__)

NOBODY: frozenset[str] = frozenset()


def bound_players(record: GameRecord | None) -> frozenset[str]:
    """The players whose seats a game in play holds for them (a person's, or a stand-in's); none once it is over."""
    if record is None or record.finished:
        return NOBODY
    return frozenset(s.player_id for s in record.seats if s.player_id is not None)


def before_commit(store: GameStore, before: GameRecord | None, nxt: GameRecord) -> None:
    """The players a change binds, noted before its write (a store error fails the change: nothing written)."""
    for player_id in bound_players(nxt) - bound_players(before):
        store.note_player_game(player_id, nxt.game_id, now_ms())


def after_commit(store: GameStore, before: GameRecord | None, nxt: GameRecord) -> None:
    """After the write: the players it binds noted again, the ones it freed forgotten.  Never raises."""
    now, was = bound_players(nxt), bound_players(before)
    try:
        for player_id in now - was:
            store.note_player_game(player_id, nxt.game_id, now_ms())
        for player_id in was - now:
            store.forget_player_games(player_id, [nxt.game_id])
    except Exception:  # the index is a hint: a reader checks every game it names
        log.warning("player index not updated for game %s", nxt.game_id, exc_info=True)


def live_games(store: GameStore, player_id: str) -> list[dict[str, Any]]:
    """The games in play where a seat is bound to ``player_id`` now, the most lately changed first: for each the
    seat, the phase, whose turn, the table's seats (never a token).  Games over or gone are forgotten."""
    found: list[tuple[GameRecord, int]] = []
    gone = []
    for game_id in store.player_games(player_id):
        record = store.load(game_id)
        if record is None or record.finished:
            gone.append(game_id)
            continue
        seat = next((i for i, s in enumerate(record.seats) if s.player_id == player_id), None)
        if seat is not None:  # else not the player's now: left to an open seat (its forgetting may have failed)
            found.append((record, seat))
    if gone:
        store.forget_player_games(player_id, gone)
    found.sort(key=lambda pair: (pair[0].changed_ms, pair[0].game_id), reverse=True)
    return [_entry(record, seat) for record, seat in found]


def _entry(record: GameRecord, seat: int) -> dict[str, Any]:
    state = record.state
    return {
        "game_id": record.game_id,
        "seat": seat,
        "stand_in": record.seats[seat].stand_in,
        "phase": "waiting" if record.waiting else state.phase,
        "round": state.round,
        "turn": None if record.waiting else turn(state),
        "scores": list(state.scores),
        "seats": seats_view(record),
        "changed_ms": record.changed_ms,
    }
