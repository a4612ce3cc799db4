"""The kernel's randomness and the deals of the cards a seat cannot see.

Randomness is an explicit xorshift64 state seeded from the task's seed
(splitmix64), never a global RNG, so the same view and seed give the same
decision in any process.

Sampling (:func:`sample_hands`): the other hands get exactly their known
sizes from the unseen cards, and voids revealed in play (a seat that did not
follow the led suit) are respected.  Cards the seat gave its partner in the
nil exchange stay the partner's until played; a seat whose own hand is still
hidden (it may bid blind) is dealt a hand too.  Without voids it is an exact uniform
shuffle-and-split; with voids each card (in random order) goes to an allowed
seat with chance proportional to its free places, never to one that would
make the rest undealable (Hall's condition on 3 seats × 4 suits) – close to
uniform over the consistent deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import popcount, suit_of

_SEED_MASK = (1 << 64) - 1


def rng_seed(seed: int) -> np.uint64:
    """A task's seed (any integer) as the kernel's 64-bit seed."""
    return np.uint64(seed & _SEED_MASK)


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
def new_dealer(seed: np.uint64) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`deal_unseen` works with: ``(rng, scratch for 52 cards, the four hands dealt)``."""
    return new_rng(seed), np.empty(52, dtype=np.int64), np.empty(4, dtype=np.int64)


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
def sample_hands(position: np.ndarray, with_voids: bool, rng: np.ndarray, buf: np.ndarray, hands: np.ndarray) -> bool:
    """Deal the cards the seat of ``position`` cannot see to the other three
    seats at random into ``hands`` (the seat keeps its own hand, or is dealt
    one while it is hidden), giving each its known hand size and,
    ``with_voids``, respecting the voids it revealed; the cards it gave its
    partner and the partner has not played stay the partner's.  ``buf`` is
    scratch space for 52 cards.  Returns False only if the constraints are
    impossible."""
    p = position[0]
    me = p.seat
    partner = (me + 2) & 3
    known = p.gave & p.out  # given to the partner and not played yet
    n = 0
    for i in range(p.n_unseen):
        card = p.unseen[i]
        if not (known >> card) & 1:
            buf[n] = card
            n += 1
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        buf[i], buf[j] = buf[j], buf[i]
    others = np.empty(3, dtype=np.int64)
    caps = np.empty(3, dtype=np.int64)
    voids = np.zeros(4, dtype=np.int64)
    any_void = False
    for i in range(3):
        seat = (me + 1 + i) & 3
        others[i] = seat
        caps[i] = p.sizes[seat]
        hands[seat] = 0
        if seat == partner and known:
            hands[seat] = known
            caps[i] -= popcount(known)
        if with_voids and p.voids[seat]:
            voids[seat] = p.voids[seat]
            any_void = True
    hands[me] = p.hand
    start = 0
    if p.hidden:  # the seat's own hand first, from the same shuffle
        for _ in range(p.sizes[me]):
            hands[me] |= np.int64(1) << buf[start]
            start += 1
    if not any_void:
        pos = start
        for i in range(3):
            for _ in range(caps[i]):
                hands[others[i]] |= np.int64(1) << buf[pos]
                pos += 1
        return True
    remaining = np.zeros(4, dtype=np.int64)
    eligible = np.zeros(4, dtype=np.int64)
    for i in range(start, n):
        remaining[suit_of(buf[i])] += 1
    for suit in range(4):
        for i in range(3):
            if not (voids[others[i]] >> suit) & 1:
                eligible[suit] |= 1 << i
    if not _feasible(remaining, caps, eligible):
        return False
    for k in range(start, n):
        card = buf[k]
        suit = suit_of(card)
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
def deal_unseen(position: np.ndarray, rng: np.ndarray, buf: np.ndarray, dealt: np.ndarray) -> None:
    """:func:`sample_hands` with the revealed voids, or without them in the
    (never seen in a legal game) case that they can't all be honoured."""
    if not sample_hands(position, True, rng, buf, dealt):
        sample_hands(position, False, rng, buf, dealt)


NO_WORLDS = np.zeros((0, 4), dtype=np.int64)  # no deals supplied: a search samples its own


@njit(cache=True, inline="always")
def deal_world(
    position: np.ndarray, rng: np.ndarray, buf: np.ndarray, dealt: np.ndarray, worlds: np.ndarray, i: int
) -> None:
    """The ``i``-th deal a search weighs: :func:`deal_unseen`'s, or, with ``worlds`` supplied (four hands a row),
    row ``i`` mod their number, the randomness untouched (a test-only player that sees the true deal)."""
    if worlds.shape[0] == 0:
        deal_unseen(position, rng, buf, dealt)
    else:
        for s in range(4):
            dealt[s] = worlds[i % worlds.shape[0], s]
