"""The leaderboards' buckets: a player's rank is the players in the buckets above its own plus those ahead of
it inside its bucket, so a bucket must be narrow enough that counting inside one is quick at any size of board.

A bucket is a sixteenth of a point of score (``floor(score × 16)``).  Sixteen is a power of two, so ``score × 16``
is exact in floating point and a bucket's bounds, ``b / 16`` and ``(b + 1) / 16``, are exact too: the range
``b / 16 <= score < (b + 1) / 16`` an index reads holds exactly the bucket's players, with no rounding at an edge.
A million players spread over a few thousand buckets per board and kind, a few thousand in the fullest.
"""

from __future__ import annotations

import math

PER_POINT = 16


def bucket_of(score: float) -> int:
    """The bucket of a score."""
    return math.floor(score * PER_POINT)


def bounds(bucket: int) -> tuple[float, float]:
    """The scores of a bucket: from the first (included) to the second (excluded)."""
    return bucket / PER_POINT, (bucket + 1) / PER_POINT
