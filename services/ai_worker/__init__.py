"""Computer players: the levels of ``services.computers.LEVELS``, over a numba kernel.

    decide(view, level, seed) -> {"bid": n} | {"card": "QS"}
    # house rules: {"look": True} | {"bid": n, "blind": True} | {"pass": ["AS", "KH"]}

``view`` is ``services.engine.view(state, seat)``; ``level`` is one of
``services.computers.LEVEL_NAMES``.  Modules, by job:

* ``celery_app``, ``tasks``: the Celery app and its tasks ``ai.decide`` and ``ai.hint``.
* ``dispatch``: ``decide`` and ``analyse``, a view routed to its level.
* ``warmup``: ``warm_up``, every kernel entry point compiled at worker start; ``kernel_cache``:
  numba's on-disk cache, one directory per version of these sources.
* ``position``: a view as the kernel's ``POSITION`` record; ``records``: that record and the
  kernel's other bundles (``TABLE``, ``Rules``, ``Trick``).
* ``bits``: cards as bit masks and the trick in progress; ``dealing``: the RNG and the deals of the
  unseen cards; ``playout``: the standard rule and whole-round playouts with it; ``passing``: the
  cards a level gives in the nil exchange.
* ``levels``: one module per level, named as the level, and the parts they share (``normal_bid``,
  ``hard_inference``, ``hard_scoring``, ``dd``).
"""

from .kernel_cache import use_kernel_cache

use_kernel_cache()  # before any kernel module is imported: numba fixes a cache path at decoration

from .dispatch import LEVELS, analyse, decide  # noqa: E402
from .warmup import warm_up  # noqa: E402

__all__ = ["LEVELS", "analyse", "decide", "warm_up"]
