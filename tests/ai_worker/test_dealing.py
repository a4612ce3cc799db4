"""Deals of the unseen cards (services.ai_worker.dealing): sizes, unseen
cards and revealed voids are respected, and deals without voids are uniform."""

from __future__ import annotations

import numpy as np

from services.ai_worker.dealing import new_rng, sample_hands
from services.ai_worker.records import POSITION
from services.engine.cards import SPADE_MASK, cards_in


def clubs_holder(voids: list[int]) -> np.ndarray:
    """A position of seat 0 holding the 13 clubs before the first lead, the
    other seats void in ``voids`` (4-bit sets of suits)."""
    position = np.zeros(1, dtype=POSITION)
    p = position[0]
    p["hand"] = (1 << 13) - 1
    p["unseen"][:39] = np.arange(13, 52)
    p["n_unseen"] = 39
    p["sizes"] = 13
    p["voids"] = voids
    return position


def test_samples_respect_sizes_unseen_cards_and_voids():
    rng_state = new_rng(np.uint64(3))
    unseen = range(13, 52)
    position = clubs_holder([0, 0b0010, 0b1100, 0])  # 1: no diamonds; 2: no hearts or spades
    buf = np.empty(52, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    seen_splits = set()
    for _ in range(300):
        assert sample_hands(position, True, rng_state, buf, hands)
        assert hands[0] == (1 << 13) - 1
        assert [int(h).bit_count() for h in hands] == [13, 13, 13, 13]
        assert int(hands[1] | hands[2] | hands[3]) == sum(1 << c for c in unseen)
        assert not int(hands[1]) & (((1 << 13) - 1) << 13)
        assert not int(hands[2]) & (((1 << 26) - 1) << 26)
        assert int(hands[2]) & SPADE_MASK == 0
        seen_splits.add(tuple(int(h) for h in hands))
    assert len(seen_splits) > 250


def test_samples_without_voids_are_roughly_uniform():
    rng_state = new_rng(np.uint64(5))
    position = clubs_holder([0, 0, 0, 0])
    buf = np.empty(52, dtype=np.int64)
    hands = np.empty(4, dtype=np.int64)
    counts = np.zeros((4, 52))
    for _ in range(3000):
        sample_hands(position, True, rng_state, buf, hands)
        for seat in (1, 2, 3):
            for c in cards_in(int(hands[seat])):
                counts[seat, c] += 1
    share = counts[1:, 13:] / 3000
    assert np.all(np.abs(share - 1 / 3) < 0.05)


def test_voids_are_set_aside_when_asked():
    position = clubs_holder([0, 0b1110, 0, 0])  # seat 1: only clubs, which seat 0 holds: impossible
    hands = np.empty(4, dtype=np.int64)
    buf = np.empty(52, dtype=np.int64)
    assert not sample_hands(position, True, new_rng(np.uint64(1)), buf, hands)
    assert sample_hands(position, False, new_rng(np.uint64(1)), buf, hands)
    assert [int(h).bit_count() for h in hands] == [13, 13, 13, 13]
