"""Hard's round scoring (services.ai_worker.levels.hard_scoring) equals the
engine's (services/engine/scoring.py) over random rounds, with every
scoring rule option varied (the house rules' blind nil and blind bids, 10 for
200, Boston and the mercy rule included), and its objective follows from the
engine's points, bags and game end."""

from __future__ import annotations

import random

import numpy as np
import pytest

from services.ai_worker.levels.hard_scoring import GAME_WEIGHT, round_scores, round_value, side_points
from services.ai_worker.position import position_of
from services.ai_worker.records import house_of, rules_of
from services.engine import make_rules, new_game, view
from services.engine.rules import Rules
from services.engine.scoring import game_winner, score_round, side_round_points

ROUNDS = 3000


def random_rules(rng: random.Random) -> Rules:
    """Rules with every option that scoring reads drawn at random."""
    options = {
        "set_penalty": rng.choice(["negative", "zero"]),
        "bag_limit": rng.choice([1, 2, 3, 5, 10, 25]),
        "bag_penalty": rng.choice([0, 0, 50, 100, 250]),
        "nil": rng.random() < 0.8,
        "nil_value": rng.choice([0, 50, 100, 200]),
        "nil_tricks_count_for_team": rng.random() < 0.5,
        "win_score": rng.choice([1, 150, 300, 500]),
        "lose_score": rng.choice([None, 0, -100, -200]),
        "blind_bids": rng.random() < 0.3,
        "mercy_margin": rng.choice([None, None, 100, 300]),
    }
    if options["nil"] and rng.random() < 0.3:
        options |= {"blind_nil": True, "blind_nil_value": rng.choice([0, 200, 300])}
    if rng.random() < 0.3:
        options |= {"ten_for_200": True, "ten_for_200_value": rng.choice([0, 200, 250])}
    if rng.random() < 0.2:
        options["boston"] = True
    if rng.random() < 0.5:
        low = rng.randrange(0, 8)
        high = 13 if options.get("boston") else rng.randrange(max(low, 10 if options.get("ten_for_200") else 2), 14)
        return make_rules("partnership", min_team_bid=low, max_team_bid=high, **options)
    return make_rules("individual", **options)


def random_blind(rng: random.Random, rules: Rules, bids: list[int]) -> tuple[bool, ...]:
    """Which bids were made blind (only the kinds the rules allow)."""
    return tuple((rules.blind_nil if b == 0 else rules.blind_bids) and rng.random() < 0.4 for b in bids)


def blind_set(blind: tuple[bool, ...]) -> int:
    return sum(1 << s for s, b in enumerate(blind) if b)


def random_round(rng: random.Random, rules: Rules) -> tuple[list[int], list[int], list[int], list[int]]:
    """Bids, tricks (13 in all), and each side's bags and score before the round."""
    bids = [rng.choice([0, 0, 1, 2, 3, 4, 5, 6, 9, 13]) if rules.nil else rng.randrange(1, 14) for _ in range(4)]
    tricks = [0, 0, 0, 0]
    for _ in range(13):
        tricks[rng.choice([0, 1, 2, 3, rng.randrange(4)])] += 1
    bag_cap = rules.bag_limit if rules.bag_penalty > 0 else 40
    bags = [rng.randrange(bag_cap) for _ in range(rules.sides)]
    scores = [rng.randrange(-300, rules.win_score + 50) for _ in range(rules.sides)]
    return bids, tricks, bags, scores


def four(values: list[int]) -> np.ndarray:
    return np.array(list(values) + [0] * (4 - len(values)), dtype=np.int64)


def test_round_scoring_equals_the_engines():
    rng = random.Random(20261130)
    set_seen = game_ends = 0
    for _ in range(ROUNDS):
        rules = random_rules(rng)
        record = position_of(view(new_game(rules, seed=1), 0))[0]
        kernel_rules, house = rules_of(record), house_of(record)
        bids, tricks, bags, scores = random_round(rng, rules)
        blind = random_blind(rng, rules, bids)
        engine = score_round(rules, tuple(bids), tuple(tricks), tuple(bags), blind)
        points, gained, finals = round_scores(
            four(bids), four(tricks), kernel_rules, house, four(bags), four(scores), blind_set(blind)
        )
        for side in range(rules.sides):
            expected = side_round_points(rules, rules.seats_of(side), tuple(bids), tuple(tricks), blind)
            assert tuple(side_points(side, four(bids), four(tricks), kernel_rules, house, blind_set(blind))) == expected
            assert (points[side], gained[side]) == expected
            assert finals[side] == scores[side] + engine.points[side]
            set_seen += expected[1] == 0 and expected[0] < 0
        game_ends += game_winner(rules, tuple(int(f) for f in finals[: rules.sides])) is not None
    assert set_seen > ROUNDS // 10 and game_ends > ROUNDS // 10  # the random rounds reach sets and game ends


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_objective_is_the_engines_points_bags_and_game_end(seed):
    rng = random.Random(seed)
    for _ in range(ROUNDS // 3):
        rules = random_rules(rng)
        record = position_of(view(new_game(rules, seed=1), 0))[0]
        kernel_rules, house = rules_of(record), house_of(record)
        bids, tricks, bags, scores = random_round(rng, rules)
        blind = random_blind(rng, rules, bids)
        engine = score_round(rules, tuple(bids), tuple(tricks), tuple(bags), blind)
        charge = rules.bag_penalty / rules.bag_limit if rules.bag_penalty > 0 else 0.0
        worth = []
        for side in range(rules.sides):
            gained_points, gained_bags = side_round_points(
                rules, rules.seats_of(side), tuple(bids), tuple(tricks), blind
            )
            worth.append(gained_points - charge * gained_bags)
        winner = game_winner(rules, tuple(s + p for s, p in zip(scores, engine.points, strict=True)))
        for me in range(4):
            mine = rules.side_of(me)
            others = [w for side, w in enumerate(worth) if side != mine]
            expected = worth[mine] - sum(others) / len(others)
            if winner is not None:
                expected += GAME_WEIGHT if winner == mine else -GAME_WEIGHT
            value = round_value(
                me, four(bids), four(tricks), kernel_rules, house, four(bags), four(scores), blind_set(blind)
            )
            assert value == pytest.approx(expected, abs=1e-9)
