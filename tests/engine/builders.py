"""Hand-built positions for rule tests."""

from __future__ import annotations

from dataclasses import replace

from services.engine.cards import mask_of, parse_card
from services.engine.rules import Rules, make_rules
from services.engine.state import GameState, new_game


def hand(*codes: str) -> int:
    return mask_of(parse_card(c) for c in codes)


def cards(*codes: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in codes)


def playing_state(
    hands: tuple[int, int, int, int],
    *,
    rules: Rules | None = None,
    bids: tuple[int, int, int, int] = (3, 3, 3, 3),
    plays: tuple[int, ...] = (),
    leader: int = 1,
) -> GameState:
    """Round 1 (dealer 0) in the playing phase with the given hands and plays.

    ``plays`` are cards already played this round (completed tricks plus the
    current one); ``leader`` leads the current trick.
    """
    base = new_game(rules or make_rules("partnership"), seed=1)
    return replace(base, phase="playing", hands=hands, bids=bids, plays=plays, leader=leader)
