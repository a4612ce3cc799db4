"""A seat's view turned into the arrays the kernel takes.

Only the view is read (own hand, bids, the current trick, the round's
completed tricks, hand sizes, rules, legal moves), so nothing a seat may not
know can reach a strategy.  The unseen cards are all 52 minus the own hand
minus every card shown in ``tricks`` and ``trick``; a seat that did not follow
the led suit is marked void in it (``void_suits``), which sampling respects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from services.engine import FULL_DECK, cards_in, first_seat, mask_of, parse_card


@dataclass(frozen=True)
class Position:
    seat: int
    hand: int  # own cards, a mask
    unseen: np.ndarray  # card indices the seat cannot see, int64
    sizes: np.ndarray  # cards left in each hand, int64[4]
    void_suits: np.ndarray  # per seat, a 4-bit set of suits it has shown void in
    bids: np.ndarray  # per seat, -1 for a seat yet to bid
    leader: int  # the seat leading the current trick (the first seat while bidding)
    trick: np.ndarray  # the current trick's cards in play order, int64[4]
    trick_n: int
    won: np.ndarray  # tricks won this round per seat
    broken: bool
    partnership: bool
    must_break: bool
    nil_counts: bool
    played_by: np.ndarray  # per seat, the cards it has played this round (a mask)
    scoring: np.ndarray  # search.round_value's rule figures
    bags: np.ndarray  # per side, before this round
    scores: np.ndarray  # per side, before this round
    nil_allowed: bool
    history: np.ndarray  # this round's cards in play order (completed tricks, then the trick in progress), padded
    history_n: int  # how many of them are real
    first_leader: int  # who led the round's first trick

    @property
    def out(self) -> int:
        """Every card neither played nor in this seat's hand, as a mask."""
        return mask_of(int(c) for c in self.unseen)

    def bids_known(self) -> np.ndarray:
        """The bids with unknown ones as 0 (only used once all are in)."""
        return np.maximum(self.bids, 0)


def _ints(values: list[int]) -> np.ndarray:
    return np.array(values, dtype=np.int64)


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
    unseen = list(cards_in(FULL_DECK & ~seen))
    sizes = list(view["hand_sizes"])
    if len(unseen) != sum(sizes) - sizes[seat]:
        raise ValueError("view is inconsistent: unseen cards do not match the other hand sizes")
    trick_cards = [parse_card(entry["card"]) for entry in view["trick"]]
    leader = view["leader"] if view["leader"] is not None else first_seat(view["round"])
    rules = view["rules"]
    return Position(
        seat=seat,
        hand=hand,
        unseen=_ints(unseen),
        sizes=_ints(sizes),
        void_suits=_ints(void_suits),
        bids=_ints([-1 if b is None else b for b in view["bids"]]),
        leader=leader,
        trick=_ints(trick_cards + [0] * (4 - len(trick_cards))),
        trick_n=len(trick_cards),
        won=_ints(view["tricks_won"]),
        broken=bool(view["spades_broken"]),
        partnership=rules["scoring"] == "partnership",
        must_break=bool(rules["spades_must_be_broken"]),
        nil_counts=bool(rules["nil_tricks_count_for_team"]),
        played_by=_ints(played_by),
        scoring=_ints(scoring_figures(rules)),
        bags=_ints(_four(view["bags"])),
        scores=_ints(_four(view["scores"])),
        nil_allowed=bool(rules["nil"]),
        history=_ints(history + [0] * (52 - len(history))),
        history_n=len(history),
        first_leader=view["tricks"][0]["leader"] if view["tricks"] else leader,
    )


def _four(per_side: list[int]) -> list[int]:
    """Per-side figures padded to four entries (partnership has two sides)."""
    return list(per_side) + [0] * (4 - len(per_side))


def scoring_figures(rules: dict[str, Any]) -> list[int]:
    """The rule figures :func:`services.ai_worker.search.round_value` reads, in its order."""
    lose = rules["lose_score"]
    return [
        rules["nil_value"],
        int(rules["set_penalty"] == "negative"),
        rules["bag_limit"],
        rules["bag_penalty"],
        rules["win_score"],
        int(lose is not None),
        lose if lose is not None else 0,
    ]
