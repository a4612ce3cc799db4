"""Moves that finish a short game, for tests that need a game to end (on the engine or through the API)."""

from __future__ import annotations

from typing import Any

from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest, parse_move
from services.engine import GameState, turn, view


def ending_move(state: GameState) -> tuple[str, dict[str, Any]]:
    """The seat to move's move, as ``(kind, body)`` for ``parse_move``: seats 0 and 2 bid their highest
    legal bid, seats 1 and 3 their lowest above nil; every seat plays its first legal card.  The two sides
    bid differently so that their scores differ: equal scores play another round (tie rounds), and with
    the same bids on both sides a game to 1 / −1 could tie round after round (both sides set by the same
    points) and never end."""
    seat = turn(state)
    legal = view(state, seat)["legal"]
    if state.phase != "bidding":
        return "play", {"card": legal[0]}
    if seat % 2 == 0:
        return "bid", {"bid": legal[-1]}
    return "bid", {"bid": min((b for b in legal if b > 0), default=legal[0])}


def play_to_the_end(ctx: Collaborators, game_id: str, tokens: list[str | None]) -> None:
    """:func:`ending_move`'s moves through ``commands.make_move`` until game over (every seat a person's,
    ``tokens`` by seat)."""
    for _ in range(2000):
        state = ctx.store.load(game_id).state
        if state.phase == "game_over":
            return
        seat = turn(state)
        token = tokens[seat]
        assert token is not None
        commands.make_move(ctx, game_id, MoveRequest(token=token, move=parse_move(*ending_move(state))))
    raise AssertionError("the game did not end")
