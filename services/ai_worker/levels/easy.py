"""Seed 000's "easy" level, without simulation.

Easy bids uniformly among the view's legal bids in 1..4 (if none of them is
legal, uniformly among all legal bids) and plays a uniformly random legal
card, from ``random.Random(seed)``.  House rules: it never bids blind (it
looks, then bids as above) and gives uniformly random cards in the nil
exchange.
"""

from __future__ import annotations

import random
from typing import Any


def move(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Easy's move for the seat whose turn ``view`` shows."""
    rng = random.Random(seed)
    legal = view["legal"]
    if view["phase"] == "passing":  # legal lists the hand: any pass_count of its cards
        return {"pass": rng.sample(legal, view["pass_count"])}
    if view["hand"] is None:
        return {"look": True}
    if view["phase"] == "bidding":
        low = [b for b in legal if 1 <= b <= 4]
        return {"bid": rng.choice(low or legal)}
    return {"card": rng.choice(legal)}
