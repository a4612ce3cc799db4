"""What a move reports: ``apply_with_events`` and ``round_started``."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.engine import (
    Bid,
    BidMade,
    CardPlayed,
    EngineError,
    Event,
    GameOver,
    GameState,
    Play,
    RoundScored,
    RoundStarted,
    TrickWon,
    apply,
    apply_with_events,
    legal_moves,
    make_rules,
    new_game,
    round_started,
    turn,
)
from services.engine.state import deal
from tests.engine.builders import cards, hand, playing_state
from tests.engine.test_properties import MAX_ROUNDS, SETTINGS, rules_strategy

PARTNERSHIP = make_rules("partnership")
INDIVIDUAL = make_rules("individual")
KS, H2, HA, H3 = cards("KS", "2H", "AH", "3H")


def last_trick_to_play(rules, bids, scores) -> GameState:
    """Round 1 with twelve tricks played (three to each seat): seat 1 leads 2H, then AH, 3H, and
    seat 0 trumps with KS, the round's last card."""
    final = (hand("KS"), hand("2H"), hand("AH"), hand("3H"))
    rest = tuple(c for c in range(52) if c not in (KS, H2, HA, H3))
    state = playing_state(final, rules=rules, bids=bids, plays=rest, leader=1)
    return replace(state, tricks_won=(3, 3, 3, 3), scores=scores, bags=(0,) * rules.sides)


def test_a_bid_reports_who_bid_what():
    state = new_game(PARTNERSHIP, seed=3)
    seat = turn(state)
    after, events = apply_with_events(state, seat, Bid(0))
    assert events == (BidMade(seat, 0),)
    assert after == apply(state, seat, Bid(0))


def test_a_card_inside_a_trick_reports_only_itself():
    state = last_trick_to_play(PARTNERSHIP, (3, 3, 3, 3), (0, 0))
    after, events = apply_with_events(state, 1, Play(H2))
    assert events == (CardPlayed(1, H2),)
    assert after == apply(state, 1, Play(H2))


def test_a_tricks_last_card_reports_the_trick_and_its_winner():
    state = playing_state((hand("2C", "AH"), hand("KC", "2H"), hand("5C", "QH"), hand("9C", "3H")), leader=1)
    for seat, card in ((1, "KC"), (2, "5C"), (3, "9C")):
        state = apply(state, seat, Play(cards(card)[0]))
    after, events = apply_with_events(state, 0, Play(cards("2C")[0]))
    assert events == (CardPlayed(0, cards("2C")[0]), TrickWon(1, cards("KC", "5C", "9C", "2C"), 1))
    assert after.leader == 1 and after.tricks_won == (0, 1, 0, 0)


@pytest.mark.parametrize(
    ("rules", "bids", "scores", "points"),
    [
        (PARTNERSHIP, (3, 3, 3, 3), (0, 0), (61, 60)),  # team 0 took 7 on 6
        (INDIVIDUAL, (3, 3, 3, 4), (0, 0, 0, 0), (31, 30, 30, 0)),  # seat 3 set: zero
    ],
)
def test_a_rounds_last_card_scores_it_and_deals_the_next(rules, bids, scores, points):
    state = last_trick_to_play(rules, bids, scores)
    for seat, card in ((1, H2), (2, HA), (3, H3)):
        state = apply(state, seat, Play(card))
    after, events = apply_with_events(state, 0, Play(KS))
    assert after == apply(state, 0, Play(KS))
    record = after.history[-1]
    assert events == (
        CardPlayed(0, KS),
        TrickWon(1, (H2, HA, H3, KS), 0),
        RoundScored(1, (4, 3, 3, 3), record),
        RoundStarted(2, 1, 2, after.hands),
    )
    assert record.points == points and record.scores == after.scores
    assert after.hands == deal(after.seed, 2)


def test_a_failed_nil_is_scored_in_the_round_scored():
    state = last_trick_to_play(PARTNERSHIP, (3, 3, 3, 0), (0, 0))
    for seat, card in ((1, H2), (2, HA), (3, H3)):
        state = apply(state, seat, Play(card))
    _, events = apply_with_events(state, 0, Play(KS))
    scored = events[2]
    assert isinstance(scored, RoundScored)
    # team 1: seat 1 bid 3 took 3 (+ seat 3's 3 tricks: 3 bags), seat 3's nil failed
    assert scored.record.points == (61, 33 - 100) and scored.record.bags == (1, 3)


@pytest.mark.parametrize(
    ("rules", "scores", "winner", "final"),
    [
        (PARTNERSHIP, (480, 0), (0, 2), (541, 60)),
        (INDIVIDUAL, (480, 0, 0, 0), (0,), (511, 30, 30, 0)),
    ],
)
def test_the_games_last_card_reports_game_over_and_deals_nothing(rules, scores, winner, final):
    bids = (3, 3, 3, 3) if rules.partnership else (3, 3, 3, 4)
    state = last_trick_to_play(rules, bids, scores)
    for seat, card in ((1, H2), (2, HA), (3, H3)):
        state = apply(state, seat, Play(card))
    after, events = apply_with_events(state, 0, Play(KS))
    assert after.phase == "game_over" and after == apply(state, 0, Play(KS))
    assert [type(e) for e in events] == [CardPlayed, TrickWon, RoundScored, GameOver]
    assert events[-1] == GameOver(winner, final)
    assert after.winner == winner and after.scores == final


def test_a_refused_move_raises_as_apply_does():
    state = new_game(PARTNERSHIP, seed=3)
    seat = (turn(state) + 1) % 4
    with pytest.raises(EngineError) as err:
        apply_with_events(state, seat, Bid(3))
    assert err.value.code == "not_your_turn"


def test_round_started_reports_a_new_games_deal():
    state = new_game(PARTNERSHIP, seed=5)
    assert round_started(state) == RoundStarted(1, 0, 1, state.hands)


def test_round_started_is_the_deal_at_any_point_of_the_round():
    rng = random.Random(4)
    state = new_game(INDIVIDUAL, seed=9)
    while state.phase == "bidding" or len(state.plays) < 30:
        seat = turn(state)
        state = apply(state, seat, rng.choice(legal_moves(state, seat)))
    assert round_started(state) == RoundStarted(1, 0, 1, deal(9, 1))


@dataclass
class Story:
    """What the events alone tell about a game: the facts a reader of the log can rebuild."""

    round: int = 0
    hands: list[int] = field(default_factory=list)
    bids: list[int | None] = field(default_factory=list)
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) of the trick in progress
    tricks_won: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    bags: list[int] = field(default_factory=list)
    winner: tuple[int, ...] | None = None

    def tell(self, event: Event) -> None:
        match event:
            case RoundStarted(round=number, hands=hands):
                assert number == self.round + 1
                self.round, self.hands, self.bids, self.tricks_won = number, list(hands), [None] * 4, [0] * 4
            case BidMade(seat=seat, tricks=tricks):
                assert self.bids[seat] is None
                self.bids[seat] = tricks
            case CardPlayed(seat=seat, card=card):
                assert self.hands[seat] >> card & 1
                self.hands[seat] &= ~(1 << card)
                self.trick.append((seat, card))
            case TrickWon(leader=leader, cards=played, winner=winner):
                assert self.trick[0][0] == leader and tuple(c for _, c in self.trick) == played
                self.tricks_won[winner] += 1
                self.trick = []
            case RoundScored(round=number, tricks_won=won, record=record):
                assert number == self.round and list(won) == self.tricks_won and list(record.bids) == self.bids
                self.scores = [s + p for s, p in zip(self.scores, record.points, strict=True)]
                assert list(record.scores) == self.scores
                self.bags = list(record.bags)
            case GameOver(winner=winner, scores=scores):
                assert list(scores) == self.scores
                self.winner = winner

    def matches(self, state: GameState) -> bool:
        return (
            self.round == state.round
            and tuple(self.hands) == state.hands
            and tuple(self.bids) == state.bids
            and tuple(self.tricks_won) == state.tricks_won
            and tuple(self.scores) == state.scores
            and tuple(self.bags) == state.bags
            and self.winner == state.winner
        )


@SETTINGS
@given(rules_strategy, st.integers(0, 2**63 - 1), st.integers(0, 2**32))
def test_the_events_retell_the_game_move_by_move(rules, seed, move_seed):
    """Starting from the first deal, the events of every move rebuild the state's hands, bids,
    tricks, scores, bags and winner, and apply_with_events moves exactly as apply does."""
    rng = random.Random(move_seed)
    state = new_game(rules, seed=seed)
    story = Story(scores=[0] * rules.sides, bags=[0] * rules.sides)
    story.tell(round_started(state))
    while state.phase != "game_over" and len(state.history) < MAX_ROUNDS:
        seat = turn(state)
        move = rng.choice(legal_moves(state, seat))
        after, events = apply_with_events(state, seat, move)
        assert after == apply(state, seat, move)
        for event in events:
            story.tell(event)
        assert story.matches(after)
        state = after
