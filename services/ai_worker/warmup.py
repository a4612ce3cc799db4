"""Compile every kernel entry point before the first task, so no decision pays JIT cost.

Every compiled function is ``@njit(cache=True)`` (machine code cached in the
package's ``__pycache__``; ``NUMBA_CACHE_DIR`` moves it), and :func:`warm_up`
makes one decision of every level, bidding and playing, in both scorings,
through :func:`.dispatch.decide`: the same argument types as live tasks, so
each entry point is compiled (or loaded from the cache) for them.  The Celery
worker calls it at process start.
"""

from __future__ import annotations

from services.engine import Bid, apply, make_rules, new_game, turn, view

from .dispatch import LEVELS, decide


def warm_up() -> None:
    """One decision of every level, bidding and playing, in both scorings."""
    for preset in ("partnership", "individual"):
        state = new_game(make_rules(preset), seed=1)
        for level in LEVELS:
            decide(view(state, turn(state)), level, 1)
        while state.phase == "bidding":
            state = apply(state, turn(state), Bid(2))
        for level in LEVELS:
            decide(view(state, turn(state)), level, 1)
