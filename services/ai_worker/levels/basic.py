"""Seed 002's easiest level, "mudah" (named basic here): :func:`services.computers.basic_move`.

The rule lives beside the level catalogue, in pure Python, so that the API can
play it as its fallback without this package; the worker serves the same
function, on any view of the seat's turn (``ANY_PHASE``), exactly as the API
plays it.
"""

from __future__ import annotations

from typing import Any

from services.computers import basic_move

ANY_PHASE = True  # the API's fallback answers without a phase check, so the worker does too


def move(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Basic's move for the seat whose turn ``view`` shows (``seed`` is unused: basic does not draw)."""
    return basic_move(view)
