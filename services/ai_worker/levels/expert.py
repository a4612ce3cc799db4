"""Expert: hard's search with the time a person's opponent may take.

Hard decides in a few milliseconds; a person waits happily a few hundred for
a computer opponent.  Expert spends that time on the same determinized search
(:mod:`.hard`): many more sampled deals per decision, so that the chosen move
is not an accident of the sample.
"""

from __future__ import annotations

from typing import Any

from . import hard

BID_DEALS = 1200  # deals per candidate bid (hard: 300)
PLAY_SAMPLES = 1000  # deals per candidate card (hard: 300)


def analysis(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Expert's move and the figures behind it, in :func:`.hard.analysis`'s shape."""
    return hard.analysis(view, seed, bid_deals=BID_DEALS, play_samples=PLAY_SAMPLES)


def move(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Expert's move for the seat whose turn ``view`` shows."""
    return analysis(view, seed)["move"]
