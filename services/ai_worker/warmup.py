"""Compile every kernel entry point before the first task, so no decision pays JIT cost.

Every compiled function is ``@njit(cache=True)`` (machine code cached on disk
in a directory per version of the sources, :mod:`.kernel_cache`), and :func:`warm_up`
makes one decision of every level, bidding and playing, in both scorings,
each house-rule decision (a blind decision, a pass in the nil exchange) and an
endgame card (expert's exact search, :data:`.levels.expert.DD_SAMPLES`), through :func:`.dispatch.decide`: the same argument types as live tasks, so
each entry point is compiled (or loaded from the cache) for them.  The Celery
worker calls it at process start.
"""

from __future__ import annotations

from services.engine import Bid, GameState, Look, apply, legal_moves, make_rules, new_game, turn, view

from .dispatch import LEVELS, decide
from .levels.expert import DD_SAMPLES

# Every seat may bid blind, one partner of each side bids nil, so the exchange follows.
HOUSE_OPTIONS = {"blind_margin": 0, "suicide": True}


def warm_up() -> None:
    """One decision of every level, bidding and playing, in both scorings; a blind decision,
    a pass in the nil exchange and an endgame card."""
    for preset in ("partnership", "individual"):
        state = new_game(make_rules(preset), seed=1)
        _decide_all(state)
        while state.phase == "bidding":
            state = apply(state, turn(state), Bid(2))
        _decide_all(state)
        if preset == "partnership":
            while len(view(state, turn(state))["hand"]) > max(DD_SAMPLES) or len(legal_moves(state, turn(state))) < 2:
                seat = turn(state)  # down to an endgame card with a choice, which expert searches
                state = apply(state, seat, legal_moves(state, seat)[0])
            decide(view(state, turn(state)), "expert", 1)
    state = new_game(make_rules("house", **HOUSE_OPTIONS), seed=1)
    _decide_all(state)  # blind decisions
    while state.phase == "bidding":
        seat = turn(state)
        state = apply(state, seat, Look())
        legal = view(state, seat)["legal"]
        state = apply(state, seat, Bid(0 if 0 in legal else min(legal)))
    _decide_all(state)  # the nil exchange


def _decide_all(state: GameState) -> None:
    for level in LEVELS:
        decide(view(state, turn(state)), level, 1)
