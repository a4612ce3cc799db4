"""Random legal play on the engine: positions for the AI's tests and for ``benchmarks.ai``'s timings."""

from __future__ import annotations

import random

from services.engine import Bid, GameState, apply, legal_moves, turn


def play_randomly(state: GameState, moves: int, rng: random.Random) -> GameState:
    """``state`` after ``moves`` uniformly random legal moves (bids 1..4 when possible)."""
    for _ in range(moves):
        seat = turn(state)
        options = legal_moves(state, seat)
        bids = [m for m in options if isinstance(m, Bid) and 1 <= m.tricks <= 4]
        state = apply(state, seat, rng.choice(bids or options))
    return state
