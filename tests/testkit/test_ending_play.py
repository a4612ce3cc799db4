"""``testkit.ending_play``: its moves finish a game to 1 / −1, where equal scores play another round."""

from __future__ import annotations

from services.api.games.move_request import parse_move
from services.engine import apply, make_rules, new_game, turn
from testkit.ending_play import ending_move

ONE_ROUND = make_rules("partnership", win_score=1, lose_score=-1)


def test_every_game_to_one_point_ends_within_a_few_rounds():
    rounds = []
    for seed in range(300):
        state = new_game(ONE_ROUND, seed=seed)
        while state.phase != "game_over" and state.round <= 5:
            state = apply(state, turn(state), parse_move(*ending_move(state)))
        assert state.phase == "game_over", f"seed {seed}: still playing after 5 rounds"
        rounds.append(state.round)
    assert max(rounds) <= 5
