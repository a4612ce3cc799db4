"""A pure-Python reference of the standard playing strategy, written from
the engine and the view only, to check the numba kernel against."""

from __future__ import annotations

from typing import Any

from services.engine.cards import (
    SPADES,
    SUIT_MASKS,
    beats,
    highest,
    highest_by_rank,
    lowest,
    lowest_by_rank,
    parse_card,
)


def _made(view: dict[str, Any], seat: int) -> bool:
    bids, won, rules = view["bids"], view["tricks_won"], view["rules"]
    if bids[seat] == 0:
        return True
    if rules["scoring"] != "partnership":
        return won[seat] >= bids[seat]
    partner = (seat + 2) % 4
    counted = won[seat] + (won[partner] if bids[partner] != 0 or rules["nil_tricks_count_for_team"] else 0)
    return counted >= bids[seat] + bids[partner]


def reference_standard(view: dict[str, Any]) -> int:
    """The standard strategy's card, as the module docstring of
    services.ai_worker.levels.standard describes it."""
    seat = view["you"]
    legal = 0
    for code in view["legal"]:
        legal |= 1 << parse_card(code)
    made = _made(view, seat)
    trick = [(e["seat"], parse_card(e["card"])) for e in view["trick"]]
    if not trick:
        return lowest_by_rank(legal) if made else highest_by_rank(legal)
    winner, best = trick[0]
    for who, card in trick[1:]:
        if beats(card, best):
            winner, best = who, card
    winning = [c for c in range(52) if legal >> c & 1 and beats(c, best)]
    losing = legal & ~sum(1 << c for c in winning)
    partner = (seat + 2) % 4
    partner_winning = view["rules"]["scoring"] == "partnership" and winner == partner
    partner_nil = view["bids"][partner] == 0 and view["tricks_won"][partner] == 0
    if partner_winning and partner_nil and winning:
        return min(winning)  # overtake a nil partner with the cheapest winning card
    if made or partner_winning:
        if losing:
            return lowest_by_rank(losing)
        return highest_by_rank(legal) if made else lowest_by_rank(legal)
    led = trick[0][1] // 13
    follow = legal & SUIT_MASKS[led]
    if follow:
        top = highest(follow)
        return top if beats(top, best) else lowest(follow)
    trumps = [c for c in winning if c // 13 == SPADES]
    if trumps:
        return min(trumps)
    return lowest_by_rank(legal)
