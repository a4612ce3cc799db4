"""Properties of random legal games, for both presets (hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.engine import apply, from_json, legal_moves, make_rules, new_game, to_json, turn, view
from services.engine.cards import FULL_DECK, codes, mask_of
from services.engine.play import legal_plays, play_error
from services.engine.scoring import game_winner
from services.engine.serialization import to_dict
from services.engine.state import dealt_hands, first_seat, last_completed_trick, replay_tricks

rules_strategy = st.one_of(
    st.builds(lambda w: make_rules("partnership", win_score=w, lose_score=-w // 2), st.integers(60, 250)),
    st.builds(
        lambda w, b: make_rules("individual", win_score=w, bag_penalty=b),
        st.integers(60, 250),
        st.sampled_from([0, 100]),
    ),
    st.builds(lambda w: make_rules("partnership", win_score=w, nil=False, min_team_bid=0), st.integers(60, 250)),
)

# both forms of a game's seed (services/engine/dealing.py): a chosen integer, or a server's 256-bit secret
seeds = st.one_of(st.integers(0, 2**63 - 1), st.binary(min_size=32, max_size=32).map(bytes.hex))
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ROUNDS = 12


def play(rules, seed, move_seed, check_step=None):
    """A random legal game; returns the final state and the moves made."""
    rng = random.Random(move_seed)
    state = new_game(rules, seed=seed)
    moves = []
    while state.phase != "game_over" and len(state.history) < MAX_ROUNDS:
        seat = turn(state)
        move = rng.choice(legal_moves(state, seat))
        if check_step:
            check_step(state)
        state = apply(state, seat, move)
        moves.append((seat, move))
    return state, moves


@SETTINGS
@given(rules_strategy, seeds, st.integers(0, 2**32))
def test_every_round_deals_and_plays_each_card_once(rules, seed, move_seed):
    state, _ = play(rules, seed, move_seed)
    for index, record in enumerate(state.history):
        assert len(record.plays) == 52 and mask_of(record.plays) == FULL_DECK
        hands = dealt_hands(first_seat(index + 1), record.plays)
        assert all(h.bit_count() == 13 for h in hands)
        assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_DECK
        assert len(record.bids) == 4 and all(0 <= b <= 13 for b in record.bids)


@SETTINGS
@given(rules_strategy, seeds, st.integers(0, 2**32))
def test_thirteen_tricks_and_scores_add_up(rules, seed, move_seed):
    state, _ = play(rules, seed, move_seed)
    for record in view(state, None)["history"]:
        assert sum(record["tricks_won"]) == 13
    totals = [sum(r.points[side] for r in state.history) for side in range(rules.sides)]
    assert list(state.scores) == totals
    if state.history:
        assert state.history[-1].scores == state.scores


@SETTINGS
@given(rules_strategy, seeds, st.integers(0, 2**32))
def test_the_winner_satisfies_the_end_rule(rules, seed, move_seed):
    state, _ = play(rules, seed, move_seed)
    if state.phase == "game_over":
        side = rules.side_of(state.winner[0])
        assert game_winner(rules, state.scores) == side
        assert state.scores[side] == max(state.scores)
        assert sorted(state.scores).count(max(state.scores)) == 1
    for record in state.history[:-1]:
        assert game_winner(rules, record.scores) is None


@SETTINGS
@given(rules_strategy, seeds, st.integers(0, 2**32))
def test_views_never_show_unplayed_cards_of_other_seats(rules, seed, move_seed):
    def check(state):
        for seat in (None, 0, 1, 2, 3):
            v = view(state, seat)
            # Cards of this round the view shows: the seat's hand and the tricks.
            # (last_trick may come from the previous round; history holds only
            # finished rounds.)
            current = {k: v[k] for k in ("hand", "trick", "tricks")}
            if v["tricks"]:
                current["last_trick"] = v["last_trick"]
            text = json.dumps(current)
            shown = {c for c in codes(FULL_DECK) if f'"{c}"' in text}
            for other in range(4):
                if other != seat:
                    assert not shown & set(codes(state.hands[other]))
            assert len(v["history"]) == len(state.history) == state.round - 1

    play(rules, seed, move_seed, check_step=check)


@SETTINGS
@given(rules_strategy, seeds, st.integers(0, 2**32))
def test_json_round_trip_is_exact_at_every_step(rules, seed, move_seed):
    def check(state):
        text = to_json(state)
        assert from_json(text) == state
        assert text == json.dumps(to_dict(state), separators=(",", ":"))  # the hand-written encoding is plain JSON

    final, _ = play(rules, seed, move_seed, check_step=check)
    assert from_json(to_json(final)) == final


@SETTINGS
@given(rules_strategy, seeds, st.integers(0, 2**32))
def test_same_seed_and_moves_replay_identically(rules, seed, move_seed):
    final, moves = play(rules, seed, move_seed)
    replayed = new_game(rules, seed=seed)
    for seat, move in moves:
        replayed = apply(replayed, seat, move)
    assert replayed == final


@SETTINGS
@given(rules_strategy, seeds, st.integers(0, 2**32))
def test_the_last_completed_trick_is_the_replayed_one_at_every_step(rules, seed, move_seed):
    def check(state):
        completed = [t for t in replay_tricks(first_seat(state.round), state.plays) if t[2] is not None]
        assert last_completed_trick(state) == (completed[-1] if completed else None)

    final, _ = play(rules, seed, move_seed, check_step=check)
    check(final)  # game over: the round's plays are kept, the last trick's winner leads


@SETTINGS
@given(rules=rules_strategy, seed=st.integers(0, 2**31), move_seed=st.integers(0, 2**31))
def test_play_error_and_legal_cards_agree_on_every_card(rules, seed, move_seed):
    """The two statements of legality: play_error refuses exactly the cards
    that legal_cards (the mask legal moves come from) leaves out, for every
    card of the deck, at every step of random games."""
    checked = 0

    def check(state):
        nonlocal checked
        if state.phase != "playing":
            return
        seat = turn(state)
        legal = legal_plays(state, seat)
        for card in range(52):
            assert (play_error(state, seat, card) is None) == bool(legal >> card & 1)
        checked += 1

    play(rules, seed, move_seed, check_step=check)
    assert checked > 0
