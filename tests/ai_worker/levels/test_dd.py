"""The exact endgame search (services.ai_worker.levels.dd) equals plain minimax.

The reference below plays every legal card at every turn, with no pruning and
no merging of equivalent cards, and scores each finished round with the
kernel's objective; the search must give the same value for every candidate
card over random endgames of one to three tricks, with tricks in progress,
nil bids and scores near the end of the game.  The memo of positions it
shares between the sampled deals of a decision changes no value.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from services.ai_worker.bits import SPADE_MASK, STANDARD_DECK, add_to_trick, legal_mask
from services.ai_worker.levels.dd import MEMO_BITS, card_values, new_memo, search
from services.ai_worker.levels.hard_scoring import round_value
from services.ai_worker.records import House, Rules
from services.engine.cards import cards_in

RULES = Rules(True, True, False, True, 100, True, 10, 100, 500, True, -200, STANDARD_DECK)
HOUSE = House(0, False, 0, False, 0, 0, False, 0, False)


def minimax(hands: list[int], won: list[int], me: int, leader: int, trick: list[int], broken: bool, scoring) -> float:
    """Every line of play, the side of ``me`` maximising its objective and the other side minimising it."""
    n = len(trick)
    if n == 0 and not any(hands):
        bids, bags, scores, blind = scoring
        return round_value(me, bids, np.array(won, dtype=np.int64), RULES, HOUSE, bags, scores, blind)
    seat = (leader + n) % 4
    led, best, winner = -1, -1, -1
    for k, c in enumerate(trick):
        led, best, winner = add_to_trick(c, k, (leader + k) % 4, led, best, winner)
    legal = legal_mask(hands[seat], led if n else -1, broken, RULES.must_break)
    values = []
    for card in cards_in(legal):
        h = list(hands)
        h[seat] &= ~(1 << card)
        _, _, w = add_to_trick(card, n, seat, led, best, winner)
        if n == 3:
            won2 = list(won)
            won2[w] += 1
            spade = broken or any((1 << c) & SPADE_MASK for c in trick + [card])
            values.append(minimax(h, won2, me, w, [], spade, scoring))
        else:
            values.append(minimax(h, won, me, leader, trick + [card], broken, scoring))
    return max(values) if (seat & 1) == (me & 1) else min(values)


def random_endgame(rng: random.Random, most: int = 3):
    """A partnership endgame of 1 to ``most`` tricks, with 0 to 3 cards of the current trick down."""
    tricks = rng.randint(1, most)
    n = rng.randint(0, 3)
    leader = rng.randrange(4)
    cards = rng.sample(range(52), 4 * tricks)
    hands = [0, 0, 0, 0]
    trick = cards[:n]
    pos = n
    for s in range(4):
        size = tricks - (1 if (s - leader) % 4 < n else 0)
        for _ in range(size):
            hands[s] |= 1 << cards[pos]
            pos += 1
    played = 13 - tricks
    bids = [rng.choice([0, 1, 2, 3, 4, 5]) for _ in range(4)]
    won = [0, 0, 0, 0]
    for _ in range(played):
        won[rng.randrange(4)] += 1
    bags = np.array([rng.randrange(10), rng.randrange(10), 0, 0], dtype=np.int64)
    scores = np.array([rng.choice([0, 350, 450, -150]), rng.choice([0, 350, 450, -150]), 0, 0], dtype=np.int64)
    return hands, won, leader, trick, rng.random() < 0.7, (np.array(bids, dtype=np.int64), bags, scores, 0)


def root_of(leader: int, trick: list[int], broken: bool, scoring) -> tuple[int, int, int, int, np.ndarray, np.ndarray]:
    """The seat to play, the trick's led suit, best card and winner, and the search's ``state`` and
    ``scoring`` arrays for an endgame of :func:`random_endgame`."""
    me = (leader + len(trick)) % 4
    led, best, winner = -1, -1, -1
    for k, c in enumerate(trick):
        led, best, winner = add_to_trick(c, k, (leader + k) % 4, led, best, winner)
    state = np.array([me, leader, len(trick), led, best, winner, int(broken), 0, 0, 0, 0], dtype=np.int64)
    state[7 : 7 + len(trick)] = trick
    flat = np.concatenate([scoring[0], scoring[1], scoring[2], [scoring[3]]]).astype(np.int64)
    return me, led, best, winner, state, flat


def search_args(hands: list[int], won: list[int], state: np.ndarray, flat: np.ndarray) -> tuple:
    """The arguments :func:`search` and :func:`card_values` take first: the position, the rules, the scoring."""
    return np.array(hands, dtype=np.int64), np.array(won, dtype=np.int64), state, RULES, HOUSE, flat


def test_the_search_equals_minimax_for_every_card() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(1500):
        hands, won, leader, trick, broken, scoring = random_endgame(rng)
        me, led, best, winner, state, flat = root_of(leader, trick, broken, scoring)
        legal = legal_mask(hands[me], led if trick else -1, broken, RULES.must_break)
        out = np.zeros(55)
        card_values(*search_args(hands, won, state, flat), legal, out, *new_memo())
        for card in cards_in(legal):
            h = list(hands)
            h[me] &= ~(1 << card)
            _, _, w = add_to_trick(card, len(trick), me, led, best, winner)
            if len(trick) == 3:
                won2 = list(won)
                won2[w] += 1
                spade = broken or any((1 << c) & SPADE_MASK for c in trick + [card])
                expected = minimax(h, won2, me, w, [], spade, scoring)
            else:
                expected = minimax(h, won, me, leader, trick + [card], broken, scoring)
            assert out[card] == expected
            checked += 1
        whole = search(*search_args(hands, won, state, flat), -1e18, 1e18, *new_memo())
        assert whole == max(out[c] for c in cards_in(legal))
    assert checked > 350


def test_a_memo_shared_by_the_deals_of_one_decision_changes_no_value() -> None:
    """Expert shares one memo between the sampled deals of a decision: the same known cards, the
    rest dealt differently, one objective.  Each deal's values equal those with a memo of its own, and
    those with a shared memo of two slots (every position evicting another)."""
    rng = random.Random(11)
    for _ in range(20):
        hands, won, leader, trick, broken, scoring = random_endgame(rng, most=5)
        me, led, _, _, state, flat = root_of(leader, trick, broken, scoring)
        shared, tiny = new_memo(), new_memo(1)
        unseen = [c for c in cards_in(sum(hands) & ~hands[me])]
        for _ in range(30):  # the other hands dealt again from the same cards, sizes kept
            rng.shuffle(unseen)
            dealt = list(hands)
            pos = 0
            for s in range(4):
                if s != me:
                    size = hands[s].bit_count()
                    dealt[s] = sum(1 << c for c in unseen[pos : pos + size])
                    pos += size
            legal = legal_mask(dealt[me], led if trick else -1, broken, RULES.must_break)
            values = []
            for memo in (shared, new_memo(), tiny):
                out = np.zeros(55)
                card_values(*search_args(dealt, won, state.copy(), flat), legal, out, *memo)
                values.append([out[c] for c in cards_in(legal)])
            assert values[0] == values[1] == values[2]


def test_a_memo_holds_at_most_expert_s_slots() -> None:
    assert new_memo(0)[0].shape == (1, 5)
    with pytest.raises(ValueError, match="2\\*\\*0 to"):
        new_memo(MEMO_BITS + 1)
