"""A seat's view turned into the record the kernel takes (``records.POSITION``).

Only the view is read (own hand, bids, the current trick, the round's
completed tricks, hand sizes, rules, legal moves), so nothing a seat may not
know can reach a strategy.  The unseen cards are the game's deck
(``Rules.deck``: jokers and the high 2 of spades are its cards' codes) minus
the own hand minus every card shown in ``tricks`` and ``trick``; a seat that
did not follow the led suit is marked void in it (``void_suits``), which
sampling respects.  A seat that may still bid blind has no hand in its view:
its position has ``hidden`` set and all 52 cards unseen.  After the nil
exchange the view's ``passes`` say which cards the partner holds for sure.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from services.computers import deck_of
from services.engine import STANDARD_DECK, cards_in, first_seat, mask_of, parse_card

from .bits import SUIT_TABLE
from .records import POSITION

_SUIT_OF = tuple(SUIT_TABLE.tolist())  # a card's suit, indexed from Python without a call

Position = np.ndarray  # one POSITION record, as a one-element array (how numba takes it fastest)


def position_of(view: dict[str, Any]) -> Position:
    """The kernel's position for the seat whose view this is."""
    seat = view["you"]
    if seat is None:
        raise ValueError("a spectator view has no decisions")
    rules = view["rules"]
    deck = deck_of(view)
    parse = parse_card if deck == STANDARD_DECK else deck.parse
    hidden = view["hand"] is None
    hand = 0 if hidden else mask_of(parse(c) for c in view["hand"])
    seen = hand
    void_suits = [0, 0, 0, 0]
    played_by = [0, 0, 0, 0]
    history: list[int] = []
    for trick in [*view["tricks"], {"cards": view["trick"]}]:
        cards = [(entry["seat"], parse(entry["card"])) for entry in trick["cards"]]
        if not cards:
            continue
        led = _SUIT_OF[cards[0][1]]
        for who, card in cards:
            seen |= 1 << card
            played_by[who] |= 1 << card
            history.append(card)
            if _SUIT_OF[card] != led:
                void_suits[who] |= 1 << led
    deck_cards = deck.cards
    out = deck_cards & ~seen
    unseen = list(cards_in(out))
    sizes = list(view["hand_sizes"])
    if view["phase"] == "passing":  # cards set aside for the exchange are still their giver's
        sizes = [len(view["hand"])] * 4
    if len(unseen) != sum(sizes) - (0 if hidden else sizes[seat]):
        raise ValueError("view is inconsistent: unseen cards do not match the other hand sizes")
    trick_cards = [parse(entry["card"]) for entry in view["trick"]]
    leader = view["leader"] if view["leader"] is not None else first_seat(view["round"])
    lose = rules["lose_score"]
    passes = view.get("passes") or {"gave": [], "received": []}
    blind = view.get("blind") or [False] * 4
    record = (
        seat,
        hand,
        hidden,
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
        sum(1 << s for s in range(4) if blind[s]),
        mask_of(parse(c) for c in passes["gave"]),
        mask_of(parse(c) for c in passes["received"]),
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
        deck_cards,
        rules.get("blind_nil_value", 0),
        rules.get("suicide", False),
        suicide_minimum(rules["min_team_bid"]),
        rules.get("ten_for_200", False),
        rules.get("ten_for_200_value", 0),
        rules.get("mercy_margin") or 0,
        rules.get("boston", False),
        rules.get("nil_pass_cards", 0),
        rules.get("nil_pass_blind_only", False),
    )
    return np.array([record], dtype=POSITION)


def suicide_minimum(min_team_bid: int) -> int:
    """Suicide: the smallest bid of the partner who does not bid nil (the engine's bidding rule,
    ``tests/ai_worker/test_position.py`` holds the two equal)."""
    return max(1, min_team_bid)


def _four(per_side: list[int]) -> list[int]:
    """Per-side figures padded to four entries (partnership has two sides)."""
    return list(per_side) + [0] * (4 - len(per_side))
