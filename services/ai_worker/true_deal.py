"""A finished round's card decision evaluated on its true deal: each legal card's worth with every hand known.

Once a round is over its deal is public (its record shows the four hands and every card played), so a card a
seat played can also be judged against the deal as it really was, not only against the deals the seat's view
allows.  The question carries the seat's view at the decision and the round's complete plays in order
(``plays``: every card of the deck, as the round's record shows them); the other seats' hands at that moment are
the cards each of them plays later in the round.  A round in play has no complete plays: the question is refused
(:class:`NotFinished`), so nothing here can tell a seat of a round in play what the other hands hold.  The answer
names only the seat's legal cards and their values.

Only a card whose true-deal value is exact is valued (:func:`evaluated`): at most :data:`EXACT_FROM` tricks left
in a partnership game, where the rest of the round is solved exactly (:mod:`.levels.dd`, both sides playing their
best with every card known).  Any other card, earlier in the round or of an individual game (the solver plays two
sides), is not valued: the answer has no candidates and no move (``"exact": false``), so it is not scored.  A
value by a search of its own (rollouts, say) would measure agreement with that search, not with the deal.  The
value is the round's points for the seat's side against the other side's, bags charged, the end of the game
weighed (:func:`.levels.hard_scoring.round_value`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from services.computers import deck_of
from services.engine import card_code, first_seat, lowest_by_rank

from .bits import INDEX_LIMIT, NO_CARD, add_to_trick, trick_state
from .levels import hard
from .levels.dd import card_values, new_memo
from .position import position_of

EXACT_FROM = 8  # tricks left from which the true deal is solved exactly, and valued (a partnership game)
SEATS = 4


class NotFinished(ValueError):
    """The question is not about a finished round of this view's game: refused."""


@njit(cache=True)
def exact_values(
    position: np.ndarray,
    candidates: int,
    hands: np.ndarray,
    memo_keys: np.ndarray,
    memo_bounds: np.ndarray,
    memo_nodes: np.ndarray,
) -> np.ndarray:
    """Each candidate card's exact value on the true ``hands`` (expert's endgame search on one deal)."""
    p = position[0]
    rules, house, _ = hard.rollout_rules(p)
    out = np.full(INDEX_LIMIT, -1e9)
    won = np.zeros(4, dtype=np.int64)
    state = np.zeros(11, dtype=np.int64)
    scoring = np.zeros(13, dtype=np.int64)
    for s in range(4):
        won[s] = p.won[s]
        scoring[s] = p.bids[s]
        scoring[4 + s] = p.bags[s]
        scoring[8 + s] = p.scores[s]
    scoring[12] = p.blind
    led, best, winner = trick_state(position, hard.Trick(p.trick_n, p.leader, p.broken))
    state[0], state[1], state[2] = p.seat, p.leader, p.trick_n
    state[3], state[4], state[5], state[6] = led, best, winner, 1 if p.broken else 0
    for k in range(p.trick_n):
        state[7 + k] = p.trick[k]
    card_values(hands.copy(), won, state, rules, house, scoring, candidates, out, memo_keys, memo_bounds, memo_nodes)
    return out


def played_so_far(view: dict[str, Any]) -> list[str]:
    """The round's cards played before the view's moment, in order (its completed tricks, then the trick on)."""
    cards = [each["card"] for trick in view.get("tricks") or [] for each in trick["cards"]]
    return cards + [each["card"] for each in view.get("trick") or []]


def hands_at(view: dict[str, Any], plays: list[str]) -> list[int]:
    """Each seat's hand (a card mask) at the view's moment: the cards it plays later in the finished round whose
    complete ``plays`` are given.  :class:`NotFinished` unless ``plays`` is a complete round that agrees with the
    view (the cards played so far, the seat's own hand, every seat's count)."""
    if view.get("phase") != "playing" or view.get("you") is None or view.get("turn") != view["you"]:
        raise NotFinished("a true-deal evaluation is of a card decision on the seat's turn")
    deck = deck_of(view)
    sizes = view["hand_sizes"]
    before = played_so_far(view)
    if len(plays) != len(before) + sum(sizes) or len(plays) % SEATS or len(set(plays)) != len(plays):
        raise NotFinished("the round is not finished: its plays are not complete")
    if list(plays[: len(before)]) != before:
        raise NotFinished("the plays are not this round's")
    try:
        cards = [deck.parse(code) for code in plays]
    except ValueError as error:
        raise NotFinished(str(error)) from error
    hands = [0] * SEATS
    leader = first_seat(view["round"])
    for start in range(0, len(cards), SEATS):
        led, best, winner = -1, NO_CARD, -1
        for k, card in enumerate(cards[start : start + SEATS]):
            seat = (leader + k) % SEATS
            if start + k >= len(before):
                hands[seat] |= 1 << card
            led, best, winner = add_to_trick(card, k, seat, led, best, winner)
        leader = int(winner)
    if [h.bit_count() for h in hands] != list(sizes) or hands[view["you"]] != sum(
        1 << deck.parse(c) for c in view["hand"]
    ):
        raise NotFinished("the plays do not agree with the view's hands")
    return hands


def evaluated(view: dict[str, Any]) -> bool:
    """Whether a card decision of this view is valued on its true deal (module doc): a partnership game's, with at
    most :data:`EXACT_FROM` tricks left."""
    return len(view["hand"]) <= EXACT_FROM and view["rules"]["scoring"] == "partnership"


def evaluation(view: dict[str, Any], plays: list[str]) -> dict[str, Any]:
    """The true-deal value of each of the view's legal cards (module doc): ``{"move": {"card"}, "candidates":
    [{"card", "value"}], "exact": true}``, the move the best (ties to the lowest card); for a card not valued
    (:func:`evaluated`), ``{"move": None, "candidates": [], "exact": false}``.  The round must be finished either
    way (:class:`NotFinished`)."""
    hands = np.array(hands_at(view, plays), dtype=np.int64)
    if not evaluated(view):
        return {"move": None, "candidates": [], "exact": False}
    deck = deck_of(view)
    cards = [deck.parse(code) for code in view["legal"]]
    mask = sum(1 << c for c in cards)
    values = exact_values(position_of(view), mask, hands, *new_memo())
    value = {c: round(float(values[c]), 9) for c in cards}
    top = max(value.values())
    chosen = lowest_by_rank(sum(1 << c for c in cards if value[c] == top))
    candidates = [{"card": card_code(c), "value": round(value[c], 2)} for c in cards]
    return {"move": {"card": card_code(chosen)}, "candidates": candidates, "exact": True}
