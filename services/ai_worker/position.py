"""A seat's view turned into the record the kernel takes (``records.POSITION``).

Only the view is read (own hand, bids, the current trick, the round's
completed tricks, hand sizes, rules, legal moves), so nothing a seat may not
know can reach a strategy.  The unseen cards are all 52 minus the own hand
minus every card shown in ``tricks`` and ``trick``; a seat that did not follow
the led suit is marked void in it (``void_suits``), which sampling respects.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from services.engine import FULL_DECK, cards_in, first_seat, mask_of, parse_card

from .records import POSITION

Position = np.ndarray  # one POSITION record, as a one-element array (how numba takes it fastest)


def position_of(view: dict[str, Any]) -> Position:
    """The kernel's position for the seat whose view this is."""
    seat = view["you"]
    if seat is None:
        raise ValueError("a spectator view has no decisions")
    hand = mask_of(parse_card(c) for c in view["hand"])
    seen = hand
    void_suits = [0, 0, 0, 0]
    played_by = [0, 0, 0, 0]
    history: list[int] = []
    for trick in [*view["tricks"], {"cards": view["trick"]}]:
        cards = [(entry["seat"], parse_card(entry["card"])) for entry in trick["cards"]]
        if not cards:
            continue
        led = cards[0][1] // 13
        for who, card in cards:
            seen |= 1 << card
            played_by[who] |= 1 << card
            history.append(card)
            if card // 13 != led:
                void_suits[who] |= 1 << led
    out = FULL_DECK & ~seen
    unseen = list(cards_in(out))
    sizes = list(view["hand_sizes"])
    if len(unseen) != sum(sizes) - sizes[seat]:
        raise ValueError("view is inconsistent: unseen cards do not match the other hand sizes")
    trick_cards = [parse_card(entry["card"]) for entry in view["trick"]]
    leader = view["leader"] if view["leader"] is not None else first_seat(view["round"])
    rules = view["rules"]
    lose = rules["lose_score"]
    record = (
        seat,
        hand,
        out,
        unseen + [0] * (52 - len(unseen)),
        len(unseen),
        sizes,
        void_suits,
        [-1 if b is None else b for b in view["bids"]],
        view["tricks_won"],
        played_by,
        _four(view["bags"]),
        _four(view["scores"]),
        leader,
        trick_cards + [0] * (4 - len(trick_cards)),
        len(trick_cards),
        bool(view["spades_broken"]),
        history + [0] * (52 - len(history)),
        len(history),
        view["tricks"][0]["leader"] if view["tricks"] else leader,
        rules["scoring"] == "partnership",
        bool(rules["spades_must_be_broken"]),
        bool(rules["nil_tricks_count_for_team"]),
        bool(rules["nil"]),
        rules["nil_value"],
        rules["set_penalty"] == "negative",
        rules["bag_limit"],
        rules["bag_penalty"],
        rules["win_score"],
        lose is not None,
        lose if lose is not None else 0,
    )
    return np.array([record], dtype=POSITION)


def _four(per_side: list[int]) -> list[int]:
    """Per-side figures padded to four entries (partnership has two sides)."""
    return list(per_side) + [0] * (4 - len(per_side))
