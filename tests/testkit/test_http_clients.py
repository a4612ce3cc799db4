"""testkit's simulated players: a planned game is one whole legal game, request by request."""

from __future__ import annotations

import json

from services.engine import Bid, Play, apply, make_rules, new_game, parse_card, turn
from testkit.http_clients import planned_moves


def test_a_planned_game_is_every_move_of_one_whole_game_in_order():
    state = new_game(make_rules("partnership", win_score=150, lose_score=-150), seed=11)
    tokens = [f"token-{seat}" for seat in range(4)]
    plan = planned_moves("g1", tokens, state)
    for path, body, headers in plan:
        seat = turn(state)
        assert headers == {"Authorization": f"Bearer {tokens[seat]}"}
        data = json.loads(body)
        move = Bid(data["bid"]) if path == "/v1/games/g1/bids" else Play(parse_card(data["card"]))
        assert path.endswith("/bids") == isinstance(move, Bid)
        state = apply(state, seat, move)  # raises if the plan holds an illegal move
    assert state.phase == "game_over" and len(plan) > 56
