"""Movements: every pair seated once a round, Howell's round robins complete, Mitchell's never repeat a meeting."""

from __future__ import annotations

import itertools

import pytest

from services.api.events.movements import FEWEST_PAIRS, HOWELL, mitchell, most_rounds, movement


@pytest.mark.parametrize("pairs", [4, 6, 8, 10, 12, 20, 200])
def test_every_pair_sits_exactly_once_a_round(pairs):
    for seating in movement(pairs):
        seated = [p for table in seating for p in table]
        assert sorted(seated) == list(range(1, pairs + 1))


@pytest.mark.parametrize("pairs", sorted(HOWELL))
def test_howell_is_a_complete_round_robin_with_directions_shared(pairs):
    rounds = movement(pairs)
    assert len(rounds) == pairs - 1
    met = [frozenset(table) for seating in rounds for table in seating]
    assert sorted(map(sorted, met)) == sorted(
        map(sorted, map(frozenset, itertools.combinations(range(1, pairs + 1), 2)))
    )
    for pair in range(1, pairs + 1):
        north_south = sum(table[0] == pair for seating in rounds for table in seating)
        assert abs(north_south - (pairs - 1) / 2) <= 1


@pytest.mark.parametrize("pairs", [10, 16, 200])
def test_mitchell_keeps_north_south_still_and_never_repeats_a_meeting(pairs):
    rounds = mitchell(pairs)
    assert len(rounds) == pairs // 2 == most_rounds(pairs)
    for seating in rounds:
        assert [ns for ns, _ in seating] == list(range(1, pairs // 2 + 1))
    met = [table for seating in rounds for table in seating]
    assert len(set(met)) == len(met)


def test_an_odd_or_too_small_field_has_no_movement_of_its_own():
    assert most_rounds(7) == 7  # seated with a computer pair: the 8-pair movement
    for pairs in (FEWEST_PAIRS - 1, 5):
        with pytest.raises(ValueError, match="even"):
            movement(pairs)
