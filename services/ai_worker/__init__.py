"""Computer players: seed 000's three levels and seed 002's three, over a numba kernel.

    decide(view, level, seed) -> {"bid": n} | {"card": "QS"}

``view`` is ``services.engine.view(state, seat)``; ``level`` is one of
``services.players.LEVEL_NAMES``.  :func:`warm_up` compiles the kernel once
(the Celery worker calls it at process start).  The Celery app lives in ``celery_app``/``tasks``.
"""

from .strategies import LEVELS, decide, warm_up

__all__ = ["LEVELS", "decide", "warm_up"]
