"""Computer players: the three levels of seed 000 over a numba simulation kernel.

    decide(view, level, seed) -> {"bid": n} | {"card": "QS"}

``view`` is ``services.engine.view(state, seat)``; ``level`` is easy, standard
or pro.  :func:`warm_up` compiles the kernel once (the Celery worker calls it
at process start).  The Celery app lives in ``celery_app``/``tasks``.
"""

from .kernel import warm_up
from .strategies import LEVELS, decide

__all__ = ["LEVELS", "decide", "warm_up"]
