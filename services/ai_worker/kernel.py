"""The numba simulation kernel: the standard strategy, card sampling and playouts.

Everything here works on the engine's bit-mask convention (card index =
``suit * 13 + rank``, a set of cards is a 52-bit mask held in an ``int64``) so
a whole decision – sampling the unseen cards, playing rounds out, counting
tricks – runs compiled, with no Python objects in the loop.

Why numba (and not Cython/C or vectorised numpy): playouts are branchy,
card-by-card control flow that numpy cannot vectorise, and numba compiles that
plain Python to machine code without a build step or compiler toolchain in the
image.  ``cache=True`` stores the machine code on disk and :func:`warm_up`
compiles every entry point once at worker start, so no task pays JIT cost.

The standard playing strategy (seed 000) and its interpretations are
documented in :mod:`services.ai_worker.strategies`; :func:`standard_choice` is
the one implementation of it, used by live decisions and by every simulation.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

SPADES = 3
SUIT_FIELD = (1 << 13) - 1
SPADE_MASK = SUIT_FIELD << 39
FULL_DECK = (1 << 52) - 1
MAX_BID = 13
NO_CARD = -1


# ---------------------------------------------------------------- bit helpers


@njit(cache=True, inline="always")
def lowest_index(mask: int) -> int:
    """The lowest card index in a non-empty set."""
    return np.int64(trailing_zeros(np.int64(mask)))


@njit(cache=True, inline="always")
def highest_index(mask: int) -> int:
    """The highest card index in a non-empty set."""
    return np.int64(63 - leading_zeros(np.int64(mask)))


@njit(cache=True, inline="always")
def popcount(mask: int) -> int:
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def lowest_by_rank(mask: int) -> int:
    """The card of lowest rank in a non-empty set; ties go to the lowest suit
    (clubs, diamonds, hearts, spades) – the engine's ``lowest_by_rank``."""
    best = NO_CARD
    best_rank = 99
    for suit in range(4):
        field = (mask >> (13 * suit)) & SUIT_FIELD
        if field:
            rank = trailing_zeros(np.int64(field))
            if rank < best_rank:
                best_rank = rank
                best = suit * 13 + rank
    return best


@njit(cache=True, inline="always")
def highest_by_rank(mask: int) -> int:
    """The card of highest rank in a non-empty set; ties go to the highest
    suit – the engine's ``highest_by_rank``."""
    best = NO_CARD
    best_rank = -1
    for suit in range(4):
        field = (mask >> (13 * suit)) & SUIT_FIELD
        if field:
            rank = 63 - leading_zeros(np.int64(field))
            if rank >= best_rank:
                best_rank = rank
                best = suit * 13 + rank
    return best


@njit(cache=True, inline="always")
def beating_mask(best: int) -> int:
    """Every card that would beat ``best`` if played to its trick."""
    above = FULL_DECK & ~((np.int64(2) << best) - 1)
    suit = best // 13
    if suit == SPADES:
        return above
    return (above & (SUIT_FIELD << (13 * suit))) | SPADE_MASK


@njit(cache=True, inline="always")
def legal_mask(hand: int, led_suit: int, broken: bool, must_break: bool) -> int:
    """The engine's ``legal_cards``; ``led_suit`` is -1 when leading."""
    if led_suit >= 0:
        follow = hand & (SUIT_FIELD << (13 * led_suit))
        return follow if follow else hand
    if must_break and not broken:
        other = hand & ~SPADE_MASK
        if other:
            return other
    return hand


# ---------------------------------------------------------- standard strategy


@njit(cache=True, inline="always")
def bid_made(seat: int, bids: np.ndarray, won: np.ndarray, partnership: bool, nil_counts: bool) -> bool:
    """Whether ``seat`` plays as "bid already made".

    Nil is always made (a nil bidder tries to lose every trick).  In
    partnership the contract is the team's (non-nil bids added) and the
    tricks are the team's tricks as the engine scores them.
    """
    bid = bids[seat]
    if bid == 0:
        return True
    if not partnership:
        return won[seat] >= bid
    partner = (seat + 2) & 3
    partner_bid = bids[partner]
    counted = won[seat]
    if partner_bid != 0 or nil_counts:
        counted += won[partner]
    return counted >= bid + partner_bid


@njit(cache=True, inline="always")
def partner_nil_alive(seat: int, bids: np.ndarray, won: np.ndarray, partnership: bool) -> bool:
    """The seat's partner bid nil and has taken no trick yet."""
    partner = (seat + 2) & 3
    return partnership and bids[partner] == 0 and won[partner] == 0


@njit(cache=True, inline="always")
def standard_choice(
    hand: int,
    led_suit: int,
    best: int,
    partner_winning: bool,
    made: bool,
    broken: bool,
    must_break: bool,
    partner_nil: bool,
) -> int:
    """The standard strategy's card.

    ``led_suit`` is -1 when leading; ``best`` is the card winning the trick
    so far; ``partner_winning`` says that card is the partner's, and
    ``partner_nil`` that this partner's nil is still alive: then the trick is
    overtaken with the cheapest card that beats it, when there is one.
    """
    legal = legal_mask(hand, led_suit, broken, must_break)
    if led_suit < 0:
        return lowest_by_rank(legal) if made else highest_by_rank(legal)
    beat = legal & beating_mask(best)
    if made or partner_winning:
        if partner_nil and beat:  # (partner_nil implies partner_winning)
            return lowest_index(beat)
        safe = legal & ~beat
        if safe:
            return lowest_by_rank(safe)
        return highest_by_rank(legal) if made else lowest_by_rank(legal)
    follow = hand & (SUIT_FIELD << (13 * led_suit))
    if follow:
        return highest_index(follow) if beat else lowest_index(follow)
    if beat:  # void: only spades can beat; trump with the lowest winning one
        return lowest_index(beat)
    return lowest_by_rank(legal)


@njit(cache=True, inline="always")
def add_to_trick(card: int, k: int, seat: int, led_suit: int, best: int, winner: int) -> tuple[int, int, int]:
    """The trick's ``(led suit, winning card, its seat)`` after ``seat`` plays
    ``card`` as the trick's ``k``-th card (0 leads)."""
    if k == 0:
        return card // 13, card, seat
    if beating_mask(best) & (np.int64(1) << card):
        return led_suit, card, seat
    return led_suit, best, winner


@njit(cache=True, inline="always")
def trick_state(trick: np.ndarray, trick_n: int, leader: int) -> tuple[int, int, int]:
    """``(led suit, card winning so far, its seat)`` of the trick in progress
    (``-1, NO_CARD, -1`` before the lead)."""
    led_suit = -1
    best = NO_CARD
    winner = -1
    for k in range(trick_n):
        led_suit, best, winner = add_to_trick(trick[k], k, (leader + k) & 3, led_suit, best, winner)
    return led_suit, best, winner


@njit(cache=True)
def standard_card(
    seat: int,
    hand: int,
    trick: np.ndarray,
    trick_n: int,
    leader: int,
    bids: np.ndarray,
    won: np.ndarray,
    broken: bool,
    partnership: bool,
    must_break: bool,
    nil_counts: bool,
) -> int:
    """One standard decision from a position (the live standard play)."""
    led_suit, best, winner = trick_state(trick, trick_n, leader)
    partner_winning = partnership and trick_n > 0 and winner == ((seat + 2) & 3)
    made = bid_made(seat, bids, won, partnership, nil_counts)
    partner_nil = partner_winning and partner_nil_alive(seat, bids, won, partnership)
    return standard_choice(hand, led_suit, best, partner_winning, made, broken, must_break, partner_nil)


@njit(cache=True)
def play_trick(
    hands: np.ndarray,
    won: np.ndarray,
    bids: np.ndarray,
    leader: int,
    trick: np.ndarray,
    trick_n: int,
    broken: bool,
    partnership: bool,
    must_break: bool,
    nil_counts: bool,
) -> int:
    """Complete the trick in progress (``trick_n`` cards already in
    ``trick``) with every remaining seat playing standard; updates ``hands``
    and ``won`` and returns the winning seat."""
    led_suit, best, winner = trick_state(trick, trick_n, leader)
    nils_alive = 0  # seats whose nil is alive, as a 4-bit set (tricks won don't change within a trick)
    if partnership:
        for s in range(4):
            if bids[s] == 0 and won[s] == 0:
                nils_alive |= 1 << s
    for k in range(trick_n, 4):
        seat = (leader + k) & 3
        partner_winning = partnership and k > 0 and winner == ((seat + 2) & 3)
        made = bid_made(seat, bids, won, partnership, nil_counts)
        partner_nil = partner_winning and (nils_alive >> ((seat + 2) & 3)) & 1 == 1
        card = standard_choice(hands[seat], led_suit, best, partner_winning, made, broken, must_break, partner_nil)
        hands[seat] &= ~(np.int64(1) << card)
        led_suit, best, winner = add_to_trick(card, k, seat, led_suit, best, winner)
    won[winner] += 1
    return winner


@njit(cache=True)
def playout(
    hands: np.ndarray,
    won: np.ndarray,
    bids: np.ndarray,
    leader: int,
    trick: np.ndarray,
    trick_n: int,
    broken: bool,
    partnership: bool,
    must_break: bool,
    nil_counts: bool,
) -> None:
    """Play the round out from a position with every seat standard.

    ``hands`` and ``won`` are updated in place (``won`` ends as the round's
    tricks per seat).  A trick in progress is completed first.
    """
    if trick_n > 0:
        leader = play_trick(hands, won, bids, leader, trick, trick_n, broken, partnership, must_break, nil_counts)
        for k in range(trick_n):
            if trick[k] >= 39:
                broken = True
    while hands[leader] != 0:
        if not broken:
            broken = ((hands[0] | hands[1] | hands[2] | hands[3]) & SPADE_MASK) != SPADE_MASK
        leader = play_trick(hands, won, bids, leader, trick, 0, broken, partnership, must_break, nil_counts)


# Note on ``broken`` above: every card not in a hand has been played (the
# kernel only plays whole rounds), so "a spade was played on an earlier trick"
# is exactly "some spade is missing from the four hands" at a trick's start.
# That avoids tracking it card by card.  Playouts from mid-round positions
# pass the view's ``spades_broken`` and the same test then stays exact
# because cards already played are absent from ``hands`` too.


# ---------------------------------------------------------------- RNG, deals


@njit(cache=True, inline="always")
def rng_next(state: np.ndarray) -> np.uint64:
    """xorshift64: tiny, fast, and its state is ours (no global RNG)."""
    x = state[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    state[0] = x
    return x


@njit(cache=True, inline="always")
def rng_below(state: np.ndarray, n: int) -> int:
    """A uniform integer in ``0 .. n-1`` (n ≤ 2**31; bias ≤ 2**-31·n)."""
    return np.int64((rng_next(state) >> np.uint64(32)) % np.uint64(n))


@njit(cache=True)
def new_rng(seed: np.uint64) -> np.ndarray:
    """Seed an xorshift state through splitmix64 (never zero)."""
    z = seed + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    state = np.empty(1, dtype=np.uint64)
    state[0] = z if z != np.uint64(0) else np.uint64(1)
    return state


@njit(cache=True)
def _feasible(remaining: np.ndarray, caps: np.ndarray, eligible: np.ndarray) -> bool:
    """Hall's condition: the unassigned cards (``remaining`` per suit) fit the
    seats' free places (``caps``, three other seats) given ``eligible[suit]``
    (a 3-bit set of the seats that may hold that suit)."""
    for subset in range(8):
        need = 0
        for suit in range(4):
            if remaining[suit] and (eligible[suit] & ~subset) == 0:
                need += remaining[suit]
        room = 0
        for i in range(3):
            if subset & (1 << i):
                room += caps[i]
        if need > room:
            return False
    return True


@njit(cache=True)
def sample_hands(
    me: int,
    my_hand: int,
    unseen: np.ndarray,
    sizes: np.ndarray,
    void_suits: np.ndarray,
    rng: np.ndarray,
    buf: np.ndarray,
    hands: np.ndarray,
) -> bool:
    """Deal the ``unseen`` cards to the other three seats at random, giving
    each ``sizes[seat]`` cards and respecting revealed voids
    (``void_suits[seat]`` is a 4-bit set).

    Without voids this is an exact uniform shuffle-and-split.  With voids
    each card (in random order) goes to a seat that may hold its suit, with
    chance proportional to the seat's free places, never to one that would
    make the rest undealable (Hall's condition) – close to uniform over the
    consistent deals.  Returns False only if the constraints are impossible.
    """
    n = unseen.shape[0]
    for i in range(n):
        buf[i] = unseen[i]
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        buf[i], buf[j] = buf[j], buf[i]
    others = np.empty(3, dtype=np.int64)
    caps = np.empty(3, dtype=np.int64)
    any_void = False
    for i in range(3):
        seat = (me + 1 + i) & 3
        others[i] = seat
        caps[i] = sizes[seat]
        hands[seat] = 0
        if void_suits[seat]:
            any_void = True
    hands[me] = my_hand
    if not any_void:
        pos = 0
        for i in range(3):
            for _ in range(caps[i]):
                hands[others[i]] |= np.int64(1) << buf[pos]
                pos += 1
        return True
    remaining = np.zeros(4, dtype=np.int64)
    eligible = np.zeros(4, dtype=np.int64)
    for i in range(n):
        remaining[buf[i] // 13] += 1
    for suit in range(4):
        for i in range(3):
            if not (void_suits[others[i]] >> suit) & 1:
                eligible[suit] |= 1 << i
    if not _feasible(remaining, caps, eligible):
        return False
    for k in range(n):
        card = buf[k]
        suit = card // 13
        remaining[suit] -= 1
        excluded = 0
        placed = False
        while not placed:
            total = 0
            for i in range(3):
                if (eligible[suit] >> i) & 1 and not (excluded >> i) & 1:
                    total += caps[i]
            if total == 0:
                return False
            pick = rng_below(rng, total)
            chosen = 0
            for i in range(3):
                if (eligible[suit] >> i) & 1 and not (excluded >> i) & 1:
                    if pick < caps[i]:
                        chosen = i
                        break
                    pick -= caps[i]
            caps[chosen] -= 1
            if _feasible(remaining, caps, eligible):
                hands[others[chosen]] |= np.int64(1) << card
                placed = True
            else:
                caps[chosen] += 1
                excluded |= 1 << chosen
    return True


@njit(cache=True, inline="always")
def deal_unseen(
    me: int,
    my_hand: int,
    unseen: np.ndarray,
    sizes: np.ndarray,
    void_suits: np.ndarray,
    rng: np.ndarray,
    buf: np.ndarray,
    dealt: np.ndarray,
) -> None:
    """:func:`sample_hands`, ignoring the revealed voids in the (never seen in
    a legal game) case that they can't all be honoured."""
    if not sample_hands(me, my_hand, unseen, sizes, void_suits, rng, buf, dealt):
        sample_hands(me, my_hand, unseen, sizes, np.zeros(4, dtype=np.int64), rng, buf, dealt)


# ------------------------------------------------------------- bid estimate


@njit(cache=True)
def estimate_bid(hand: int) -> int:
    """A quick bid for a simulated seat that has not bid yet.

    Side suits: an ace is a trick, a king with a guard (2+ cards) 0.8, a
    queen with two guards (3+ cards) 0.4.  Spades: the ace, a guarded king and
    a twice-guarded queen are tricks, and every spade past the third is a
    trick; spades left over after that may ruff: +1 per void side suit, +0.5
    per singleton, up to that many spare spades.  Rounded, at least 1.
    """
    estimate = 0.0
    ruffs = 0.0
    for suit in range(3):
        field = (hand >> (13 * suit)) & SUIT_FIELD
        length = popcount(field)
        if field & (1 << 12):
            estimate += 1.0
        if field & (1 << 11) and length >= 2:
            estimate += 0.8
        if field & (1 << 10) and length >= 3:
            estimate += 0.4
        if length == 0:
            ruffs += 1.0
        elif length == 1:
            ruffs += 0.5
    spades = (hand >> 39) & SUIT_FIELD
    length = popcount(spades)
    spade_tricks = 0
    if spades & (1 << 12):
        spade_tricks += 1
    if spades & (1 << 11) and length >= 2:
        spade_tricks += 1
    if spades & (1 << 10) and length >= 3:
        spade_tricks += 1
    if length > 3:
        spade_tricks += length - 3
    spade_tricks = min(spade_tricks, length)
    spare = length - spade_tricks
    estimate += spade_tricks + min(ruffs, float(spare))
    bid = int(estimate + 0.5)
    return max(1, min(MAX_BID, bid))


# --------------------------------------------------------------- decisions


@njit(cache=True)
def bid_tricks(
    me: int,
    my_hand: int,
    unseen: np.ndarray,
    sizes: np.ndarray,
    void_suits: np.ndarray,
    known_bids: np.ndarray,
    leader: int,
    partnership: bool,
    must_break: bool,
    nil_counts: bool,
    deals: int,
    seed: np.uint64,
) -> np.ndarray:
    """Average tricks ``me`` takes, for each bid 0..13, over ``deals`` random
    deals of the unseen cards played out from the start of the round with
    every seat standard (``known_bids[s]`` is -1 for a seat yet to bid: it
    gets :func:`estimate_bid` of its sampled hand).

    The same deals serve every bid (common random numbers), so the bids are
    compared on equal luck.  Exact shortcut: a bid only changes play once it
    is made, so a playout in which the contract was never reached gives the
    same tricks for every higher bid; it is reused instead of replayed.
    """
    rng = new_rng(seed)
    buf = np.empty(52, dtype=np.int64)
    dealt = np.empty(4, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    bids = np.empty(4, dtype=np.int64)
    won = np.zeros(4, dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    totals = np.zeros(MAX_BID + 1, dtype=np.float64)
    partner = (me + 2) & 3
    for _ in range(deals):
        deal_unseen(me, my_hand, unseen, sizes, void_suits, rng, buf, dealt)
        for s in range(4):
            bids[s] = known_bids[s] if known_bids[s] >= 0 else estimate_bid(dealt[s])
        # Highest bid first: that playout (contract out of reach until the
        # last trick) is the "never made" line shared by all high bids.
        never_tricks = -1
        never_team = -1
        for bid in range(MAX_BID, -1, -1):
            contract = bid
            if partnership:
                contract += bids[partner]
            if bid > 0 and never_tricks >= 0 and contract > never_team:
                totals[bid] += never_tricks
                continue
            bids[me] = bid
            for s in range(4):
                hands[s] = dealt[s]
                won[s] = 0
            playout(hands, won, bids, leader, trick, 0, False, partnership, must_break, nil_counts)
            if bid == MAX_BID:
                never_tricks = won[me]
                never_team = won[me]
                if partnership and (bids[partner] != 0 or nil_counts):
                    never_team += won[partner]
            totals[bid] += won[me]
    return totals / deals


@njit(cache=True)
def pro_trick_wins(
    me: int,
    my_hand: int,
    candidates: int,
    unseen: np.ndarray,
    sizes: np.ndarray,
    void_suits: np.ndarray,
    bids: np.ndarray,
    leader: int,
    trick: np.ndarray,
    trick_n: int,
    won: np.ndarray,
    broken: bool,
    partnership: bool,
    must_break: bool,
    nil_counts: bool,
    samples: int,
    seed: np.uint64,
) -> np.ndarray:
    """For each card in ``candidates``: in how many of ``samples`` sampled
    distributions of the unseen cards the trick is taken (by ``me``, or in
    partnership by either partner unless one of them bid nil) when ``me``
    plays it and the seats after ``me`` play standard.  The same samples
    serve every card.  Returns 52 counts indexed by card."""
    rng = new_rng(seed)
    buf = np.empty(52, dtype=np.int64)
    dealt = np.empty(4, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    won_copy = np.empty(4, dtype=np.int64)
    cards = np.empty(4, dtype=np.int64)
    wins = np.zeros(52, dtype=np.int64)
    partner = (me + 2) & 3
    team = partnership and bids[me] != 0 and bids[partner] != 0
    for _ in range(samples):
        deal_unseen(me, my_hand, unseen, sizes, void_suits, rng, buf, dealt)
        rest = candidates
        while rest:
            card = lowest_index(rest)
            rest &= rest - 1
            for s in range(4):
                hands[s] = dealt[s]
                won_copy[s] = won[s]
            for k in range(trick_n):
                cards[k] = trick[k]
            cards[trick_n] = card
            hands[me] &= ~(np.int64(1) << card)
            winner = play_trick(
                hands, won_copy, bids, leader, cards, trick_n + 1, broken, partnership, must_break, nil_counts
            )
            if winner == me or (team and winner == partner):
                wins[card] += 1
    return wins


@njit(cache=True)
def random_playouts(count: int, partnership: bool, must_break: bool, seed: np.uint64) -> int:
    """Benchmark/warm-up helper: ``count`` full-round standard playouts of
    random deals with estimated bids; returns the total tricks (always
    13·count, a checksum that keeps the work from being optimised away)."""
    rng = new_rng(seed)
    deck = np.arange(52, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    won = np.empty(4, dtype=np.int64)
    bids = np.empty(4, dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    total = 0
    for _ in range(count):
        for i in range(51, 0, -1):
            j = rng_below(rng, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        for s in range(4):
            hand = np.int64(0)
            for k in range(13):
                hand |= np.int64(1) << deck[13 * s + k]
            hands[s] = hand
            won[s] = 0
        for s in range(4):
            bids[s] = estimate_bid(hands[s])
        playout(hands, won, bids, 0, trick, 0, False, partnership, must_break, True)
        total += won[0] + won[1] + won[2] + won[3]
    return total


def warm_up() -> None:
    """Compile (or load from cache) every kernel entry point now, so the
    first real decision pays no JIT cost.  Called at worker start."""
    unseen = np.arange(13, 52, dtype=np.int64)
    my_hand = np.int64((1 << 13) - 1)
    sizes = np.array([13, 13, 13, 13], dtype=np.int64)
    voids = np.zeros(4, dtype=np.int64)
    voids[1] = 1
    bids = np.array([3, 3, 3, 3], dtype=np.int64)
    known = np.array([-1, -1, -1, -1], dtype=np.int64)
    trick = np.zeros(4, dtype=np.int64)
    won = np.zeros(4, dtype=np.int64)
    for partnership in (True, False):
        bid_tricks(0, my_hand, unseen, sizes, voids, known, 0, partnership, True, True, 2, np.uint64(1))
        pro_trick_wins(
            0, my_hand, my_hand, unseen, sizes, voids, bids, 0, trick, 0, won, False, partnership, True, True, 2,
            np.uint64(1),
        )  # fmt: skip
        standard_card(0, my_hand, trick, 0, 0, bids, won, False, partnership, True, True)
        bid_made(0, bids, won, partnership, True)
        random_playouts(2, partnership, True, np.uint64(1))
