"""The rating model (services/ratings/model.py): openskill's Bradley-Terry with the drift per player."""

from __future__ import annotations

from openskill.models import BradleyTerryFull

from services.ratings.model import INITIAL, TAU, Rating, display, ordinal, places, rate

SEATS = [Rating(30, 3), Rating(20, 5), Rating(25, 2), Rating(22, 4)]


def openskill_partnership(ratings: list[Rating], ranks: list[int], tau: float) -> list[Rating]:
    model = BradleyTerryFull(tau=tau)
    teams = [[model.create_rating([ratings[s].mu, ratings[s].sigma]) for s in side] for side in ((0, 2), (1, 3))]
    (a, c), (b, d) = model.rate(teams, ranks=ranks)
    return [Rating(p.mu, p.sigma) for p in (a, b, c, d)]


def test_people_are_rated_as_openskill_rates_them_with_its_drift():
    assert rate("partnership", SEATS, [2, 1]) == openskill_partnership(SEATS, [2, 1], TAU)


def test_a_steady_seat_takes_no_drift_and_a_changing_one_does():
    steady = rate("partnership", SEATS, [2, 1], steady=[True] * 4)
    drifting = rate("partnership", SEATS, [2, 1])
    assert all(s.sigma < d.sigma for s, d in zip(steady, drifting, strict=True))
    # over many games a level's sigma only falls; a person's levels off where the drift holds it up
    level, person, falls = INITIAL, INITIAL, []
    for _ in range(1000):
        after = rate("partnership", [level] * 4, [1, 1], steady=[True] * 4)[0]
        falls.append(after.sigma < level.sigma)
        level = after
        person = rate("partnership", [person] * 4, [1, 1])[0]
    assert all(falls)
    assert level.sigma < 0.9 < 1.2 < person.sigma


def test_a_tie_for_first_is_not_shared_with_the_side_below_it():
    after = rate("individual", [INITIAL] * 4, places("individual", [100, 300, 300, 50], [1, 2]))
    assert after[1].mu == after[2].mu > INITIAL.mu > after[0].mu > after[3].mu


def test_places_rank_the_winner_first_then_by_score():
    assert places("partnership", [520, 300], [0, 2]) == [1, 2]
    assert places("partnership", [480, 510], [0, 2]) == [1, 2]  # a win by the other rule (a loss threshold)
    assert places("individual", [100, 300, 300, 50], [1, 2]) == [3, 1, 1, 4]


def test_a_new_player_shows_1500_and_the_shown_rating_orders_as_the_ordinal():
    assert display(INITIAL) == 1500 and ordinal(INITIAL) == 0
    assert display(Rating(30, 2)) > display(Rating(31, 4))
