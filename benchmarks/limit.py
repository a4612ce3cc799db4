"""The limit: expert's search on the true deal, a benchmark-only player that sees every hand.

A determinized search (hard's, expert's) weighs many deals of the hidden cards consistent with its seat's
view; the literature's perfect-information reference runs the same search with the deal as it really is as
its only world.  ``limit`` is that player: :func:`services.ai_worker.levels.expert.analysis` with the true
hands as the one deal every search weighs (bids and cards played out by the sharp rollouts, exact endgames
from five tricks left in a partnership game).  It is no level: it reads the whole game state, which no
seat's view holds, so only the in-process benchmarks seat it (``benchmarks.tournament --a limit``), never the
service.

With one world the search has no spread to hedge with: a bid is valued by one rollout, played by normal's
heuristics for every seat, and the limit bids to the last trick that rollout takes (docs/ai.md, "The limit").
``limit-play`` (:func:`decide_play`) bids and exchanges as expert does, from its view, and sees the true deal
only for its cards: what the hidden cards cost expert's card play.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from services.ai_worker.levels import expert
from services.engine import GameState

LIMIT = "limit"
LIMIT_PLAY = "limit-play"


def world(state: GameState) -> np.ndarray:
    """The true deal as the searches hold a deal: one row of four hands (card masks) as they are now, the cards
    set aside in the nil exchange still their giver's until it is done."""
    hands = state.hands
    if state.phase == "passing":
        hands = tuple(h | p for h, p in zip(hands, state.passes, strict=True))
    return np.array([hands], dtype=np.int64)


def analysis(view: dict[str, Any], worlds: np.ndarray, seed: int) -> dict[str, Any]:
    """Expert's analysis of ``view`` with ``worlds`` (rows of four hands) as its only deals."""
    return expert.analysis(view, seed, worlds=worlds)


def decide(state: GameState, seat_view: dict[str, Any], seed: int) -> dict[str, Any]:
    """The limit's move for the seat whose ``seat_view`` of ``state`` this is."""
    return analysis(seat_view, world(state), seed)["move"]


def decide_play(state: GameState, seat_view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Expert's own bid or exchange from ``seat_view``; the limit's card."""
    if seat_view["phase"] != "playing":
        return expert.move(seat_view, seed)
    return decide(state, seat_view, seed)
