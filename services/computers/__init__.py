"""Computer levels as a catalogue, and the one level cheap enough for the API.

This package imports only the engine, so the API can list the levels and play
basic's rule (its fallback when no worker answers) without importing the AI
worker and its numba kernel.  The worker implements every level; this is the
one list of them.
"""

from .basic import basic_bid, basic_card, basic_move, deck_of, nearest_legal
from .catalogue import (
    BULK_QUEUES,
    DEFAULT_LEVEL,
    HINT_LEVEL,
    LEVEL_NAMES,
    LEVELS,
    QUEUES,
    WORKER_QUEUES,
    Level,
    level_queues,
    queue_of,
)

__all__ = [
    "BULK_QUEUES",
    "DEFAULT_LEVEL",
    "HINT_LEVEL",
    "LEVELS",
    "LEVEL_NAMES",
    "QUEUES",
    "WORKER_QUEUES",
    "Level",
    "basic_bid",
    "basic_card",
    "basic_move",
    "deck_of",
    "level_queues",
    "nearest_legal",
    "queue_of",
]
