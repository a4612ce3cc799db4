"""Random legal games for tests and properties."""

from __future__ import annotations

import random

from services.engine import GameState, apply, legal_moves, new_game, turn
from services.engine.rules import Rules


def play_random_game(
    rules: Rules, seed: int, *, move_seed: int | None = None, max_rounds: int | None = None
) -> GameState:
    """Play uniformly random legal moves until the game ends (or after
    ``max_rounds`` finished rounds)."""
    rng = random.Random(seed if move_seed is None else move_seed)
    state = new_game(rules, seed=seed)
    while state.phase != "game_over" and (max_rounds is None or len(state.history) < max_rounds):
        seat = turn(state)
        state = apply(state, seat, rng.choice(legal_moves(state, seat)))
    return state
