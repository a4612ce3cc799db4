"""The log the API writes from the engine's events is, byte for byte, the log that comparing
each move's states before and after derives (that derivation is kept here as the oracle)."""

from __future__ import annotations

import random
from typing import Any

import orjson

from services.api.games.events import event, log_entries
from services.api.games.log_retention import start_round
from services.api.games.record import GameRecord, Seat
from services.engine import Bid, GameState, Play, Rules, apply_with_events, legal_moves, make_rules, new_game, turn
from services.engine import round_started as first_deal
from services.engine.cards import codes
from services.engine.state import dealer_of, first_seat
from services.engine.views import last_trick, round_view

GAMES = 40
MAX_ROUNDS = 30


def diffed_round_started(record: GameRecord, state: GameState) -> dict[str, Any]:
    public = {"round": state.round, "dealer": dealer_of(state.round), "turn": first_seat(state.round)}
    private = {seat: {"hand": codes(state.hands[seat])} for seat in range(4)}
    entry = event(record, "round_started", public, private)
    start_round(record, entry["seq"])
    return entry


def diffed_move_events(record: GameRecord, before: GameState, after: GameState, seat: int, move: Bid | Play) -> list:
    """A move's entries told from the states before and after it."""
    if isinstance(move, Bid):
        return [event(record, "bid", {"seat": seat, "bid": move.tricks})]
    entries = [event(record, "card_played", {"seat": seat, "card": codes(1 << move.card)[0]})]
    if len(before.plays) % 4 == 3:
        trick = last_trick(after)
        entries.append(event(record, "trick_won", {"seat": trick["winner"], "trick": trick}))
    if len(after.history) > len(before.history):
        entries.append(event(record, "round_scored", round_view(len(after.history), after.history[-1], after.rules)))
        if after.phase == "game_over":
            data = {"winner": list(after.winner or ()), "scores": list(after.scores)}
            entries.append(event(record, "game_over", data))
        else:
            entries.append(diffed_round_started(record, after))
    return entries


def random_rules(rng: random.Random) -> Rules:
    """Short games of either scoring, with nil on or off and bag penalties that hit."""
    win = rng.randrange(60, 300)
    options: dict[str, Any] = {
        "win_score": win,
        "nil": rng.random() < 0.8,
        "bag_limit": rng.randrange(2, 11),
        "nil_tricks_count_for_team": rng.random() < 0.5,
        "set_penalty": rng.choice(["negative", "zero"]),
    }
    if rng.random() < 0.5:
        return make_rules("individual", bag_penalty=rng.choice([0, 50, 100]), **options)
    return make_rules("partnership", lose_score=rng.choice([None, -win // 2]), min_team_bid=0, **options)


def same_log(old: GameRecord, old_entries: list, new: GameRecord, new_entries: list) -> bool:
    """The same bytes, and the same seq and kept-log bounds left on the records."""
    same_bounds = (old.seq, old.first_seq, old.round_starts) == (new.seq, new.first_seq, new.round_starts)
    return same_bounds and orjson.dumps(old_entries) == orjson.dumps(new_entries)


def test_the_engines_events_log_exactly_what_the_diffed_states_did():
    seen: set[str] = set()
    for game in range(GAMES):
        rng = random.Random(game)
        rules = random_rules(rng)
        state = new_game(rules, seed=game)
        records = [GameRecord(f"g{game}", 1, [Seat("human")] * 4, "").with_state(state) for _ in range(2)]
        created = [[event(r, "game_created", {"seats": []})] for r in records]
        created[0].append(diffed_round_started(records[0], state))
        created[1] += log_entries(records[1], [first_deal(state)])
        assert same_log(records[0], created[0], records[1], created[1]), f"game {game}: the first deal"
        while state.phase != "game_over" and len(state.history) < MAX_ROUNDS:
            seat = turn(state)
            move = rng.choice(legal_moves(state, seat))
            after, happened = apply_with_events(state, seat, move)
            records = [r.successor() for r in records]
            diffed = diffed_move_events(records[0], state, after, seat, move)
            logged = log_entries(records[1], happened)
            assert same_log(records[0], diffed, records[1], logged), f"game {game}, round {state.round}, {move}"
            seen.update(f"{entry['type']} ({rules.scoring})" for entry in logged)
            if isinstance(move, Bid) and move.tricks == 0:
                seen.add(f"nil ({rules.scoring})")
            if len(after.history) > len(state.history) and any(after.history[-1].bag_penalties):
                seen.add("bag_penalty")
            state = after
    for scoring in ("partnership", "individual"):
        assert {f"{kind} ({scoring})" for kind in ("nil", "round_scored", "round_started", "game_over")} <= seen
    assert "bag_penalty" in seen
