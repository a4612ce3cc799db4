"""A bucket's bounds hold exactly its scores, with no rounding at an edge."""

from __future__ import annotations

import math
import random

from services.ratings.buckets import bounds, bucket_of


def test_every_score_lies_in_its_buckets_bounds_and_the_bounds_belong_to_it():
    rng = random.Random(3)
    scores = [rng.uniform(-40, 60) for _ in range(20_000)] + [0.0, -0.0, 10.0, -1 / 16, 1 / 16, 2.5, -7.9375]
    scores += [math.nextafter(b / 16, -math.inf) for b in range(-50, 50)] + [b / 16 for b in range(-50, 50)]
    for score in scores:
        bucket = bucket_of(score)
        low, high = bounds(bucket)
        assert low <= score < high
        assert bucket_of(low) == bucket and bucket_of(math.nextafter(high, -math.inf)) == bucket
