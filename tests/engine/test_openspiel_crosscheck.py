"""Our engine against an independent one: DeepMind OpenSpiel's ``spades``.

Seeded deals are given card for card to both engines (card indexes are the
same in both: ``suit * 13 + rank``, suits C, D, H, S, rank 0 the deuce), and
both are driven in lockstep by random legal moves taken from ours.  At every
step the seat to move and the legal bids or cards must agree, every trick
must go to the same seat, and every round must score the same per team.
Whole games are played to the end the same way.

OpenSpiel plays one round per state, with player 0 left of the dealer: it
bids first and leads the first trick, as our ``first_seat`` does, so our
seat ``s`` is OpenSpiel's player ``(s - first_seat) % 4`` and our team ``t``
its partnership ``(t - first_seat) % 2``.  The rule sets differ; the test
sets options where one exists and otherwise maps each difference exactly:

* Minimum team bid: ours refuses a second partner's bid that leaves the team
  below ``min_team_bid`` (4) unless a partner bids nil; OpenSpiel has no
  minimum.  Played both ways: with ``min_team_bid=0`` the bid sets must be
  equal, with the preset's 4 ours must be OpenSpiel's minus exactly those
  bids.  The 13-trick team maximum is the same in both.
* Breaking spades: OpenSpiel never marks spades broken (``is_spades_broken_``
  is never set), so it refuses every spade lead from a hand that holds
  another suit.  docs/rules.md lets spades be led once one has been played
  on an earlier trick, so after that ours must offer OpenSpiel's leads plus
  exactly the hand's spades.  (OpenSpiel's ``ApplyAction`` does not check
  legality, so it plays such a lead like any card.)
* Bags: OpenSpiel reads a team's bags as its score modulo 10 with C++'s
  remainder, which is right for a score of 0 or more (ours keeps bags apart,
  and the test checks they equal the score modulo 10) but reads a negative
  score that is not a multiple of 10 as 10 bags too few.  Such a team gets
  one 10-bag penalty fewer from OpenSpiel in a round where ours gives one;
  the test expects exactly that, and in whole games expects OpenSpiel's
  running total to stay that many hundreds above ours.
* End of the game: OpenSpiel judges ``win_threshold`` and ``mercy_threshold``
  on the round's score, not the running total (and ignores
  ``use_mercy_rule``: only ``mercy_threshold=0`` turns the mercy rule off),
  and knows no losing score, so its ``is_game_over`` can't describe a game
  to 500 or -200.  The test turns both off (``mercy_threshold=0``, a
  ``win_threshold`` above any round's score, ``win_or_loss_bonus=0`` so its
  returns are the round's points), carries OpenSpiel's running totals from
  round to round itself (``get_current_scores`` into the next round's
  ``set_current_scores``), and checks that our game ends exactly when
  docs/rules.md's rule, applied to those totals less the mapped bag
  penalties, says so, with the same winner.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace

import pyspiel  # open_spiel, pinned in pyproject's test extra
import pytest

from services.engine.cards import SPADE_MASK, bit, cards_in
from services.engine.events import TrickWon
from services.engine.game import Bid, Play, apply_with_events, legal_moves
from services.engine.rules import Rules, make_rules
from services.engine.state import SEATS, GameState, first_seat, new_game, replay_tricks, start_round, turn

BID_BASE = 52  # OpenSpiel's action for bid b is 52 + b; cards are 0..51, as ours
OSP_PARAMS = {"mercy_threshold": 0, "win_threshold": 10_000, "win_or_loss_bonus": 0}
OSP_GAME = pyspiel.load_game("spades", OSP_PARAMS)
TRICKS_TAKEN = re.compile(r"Tricks taken:\s*North East\s+South\s+West\s*\n\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)")


@dataclass
class Seen:
    """What the lockstep runs exercised, so the test knows its comparisons were not vacuous."""

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n


def osp_player(seat: int, first: int) -> int:
    return (seat - first) % SEATS


def osp_partnership(team: int, first: int) -> int:
    return (team - first) % 2


def osp_round(state: GameState, totals: tuple[int, int]) -> pyspiel.State:
    """An OpenSpiel round dealt our round's hands, player 0 being our first seat, with ``totals`` (ours, per team)."""
    first = first_seat(state.round)
    osp = OSP_GAME.new_initial_state()
    hands = [list(cards_in(state.hands[(first + p) % SEATS])) for p in range(SEATS)]
    for i in range(4 * 13):
        osp.apply_action(hands[i % SEATS][i // SEATS])  # OpenSpiel's i-th card goes to player i % 4
    osp.set_current_scores([totals[(p + first) % 2] for p in range(2)])
    return osp


# Weights of random bids 0 (nil), 1, 2, ... 13: mostly low so that contracts are often made and bags pile
# up.  With random card play most games end at -200; pick_bid's "hand" style lets some reach 500.
BID_WEIGHTS = {
    "mixed": (2, 4, 4, 4, 4, 1.5, 1.5, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3),
    "cautious": (0.5, 4, 4, 2, 0.5, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1),
}


def pick_bid(rng: random.Random, bids: list[int], style: str, hand: int) -> int:
    """A random legal bid, weighted by ``style``; "hand" bids near the hand's aces, kings and long spades."""
    if style == "hand":
        spades = (hand & SPADE_MASK).bit_count()
        high = sum(hand >> (suit * 13 + rank) & 1 for suit in range(4) for rank in (11, 12))
        target = high + max(0, spades - 3) + rng.choice((-1, 0, 0, 1))
        return min(bids, key=lambda b: (abs(b - target), b))
    return rng.choices(bids, [BID_WEIGHTS[style][b] for b in bids])[0]


def expected_osp_bids(rules: Rules, state: GameState, seat: int, osp_bids: set[int]) -> set[int]:
    """OpenSpiel's legal bids mapped to ours: the minimum team bid removes the second partner's
    non-nil bids that leave the team short while the first partner did not bid nil."""
    partner = state.bids[(seat + 2) % SEATS]
    if partner is None or partner == 0:
        return osp_bids
    return {b for b in osp_bids if b == 0 or partner + b >= rules.min_team_bid}


def osp_tricks(osp: pyspiel.State) -> tuple[int, ...]:
    found = TRICKS_TAKEN.search(str(osp))
    assert found, str(osp)
    return tuple(int(n) for n in found.groups())


def expected_osp_hits(osp_before: int, our_hits: int) -> int:
    """How many 10-bag penalties OpenSpiel gives where ours gives ``our_hits``: it reads the bags as
    ``score % 10`` with C++'s remainder, 10 too few for a negative score not a multiple of 10."""
    if osp_before < 0 and osp_before % 10:
        return max(0, our_hits - 1)
    return our_hits


def play_round(
    rng: random.Random, state: GameState, osp: pyspiel.State, seen: Seen, style: str = "mixed"
) -> tuple[GameState, list[int], tuple[int, int]]:
    """Play our round and OpenSpiel's in lockstep, comparing every step; return our state after the
    round, OpenSpiel's round points per our team, and OpenSpiel's running totals per our team."""
    rules = state.rules
    first = first_seat(state.round)
    rounds_before = len(state.history)
    played_spade = False  # a spade was played on a completed trick: spades are broken for us
    for step in range(4 + 52):
        seat = turn(state)
        assert seat is not None
        assert osp.current_player() == osp_player(seat, first), (step, seat)
        ours = legal_moves(state, seat)
        osp_legal = set(osp.legal_actions())
        if step < 4:
            our_bids = {m.tricks for m in ours}
            osp_bids = {a - BID_BASE for a in osp_legal}
            assert our_bids == expected_osp_bids(rules, state, seat, osp_bids), (state.bids, seat)
            if our_bids != osp_bids:
                seen.add("min team bid mapped")
            bid = pick_bid(rng, sorted(our_bids), style, state.hands[seat])
            seen.add("nil bid" if bid == 0 else "bid")
            move, action = Bid(bid), BID_BASE + bid
        else:
            our_cards = {m.card for m in ours}
            leading = len(state.plays) % SEATS == 0
            hand = state.hands[seat]
            expected = set(osp_legal)
            if leading and played_spade and hand & ~SPADE_MASK:
                expected |= set(cards_in(hand & SPADE_MASK))  # OpenSpiel never breaks spades
                if expected != osp_legal:
                    seen.add("spade lead mapped")
            assert our_cards == expected, (state.plays, seat)
            card = rng.choice(sorted(our_cards))
            move, action = Play(card), card
        state, events = apply_with_events(state, seat, move)
        osp.apply_action(action)
        for event in events:
            if isinstance(event, TrickWon):
                played_spade = played_spade or any(bit(c) & SPADE_MASK for c in event.cards)
                if not osp.is_terminal():
                    assert osp.current_player() == osp_player(event.winner, first), event
    assert osp.is_terminal()
    assert not osp.is_game_over()  # its own end-of-game rule is turned off (OSP_PARAMS)
    record = state.history[-1]
    assert len(state.history) == rounds_before + 1
    # Tricks per seat (the last trick's winner among them).
    won = osp_tricks(osp)
    our_won = [0] * SEATS
    for _, _, winner in replay_tricks(first, record.plays):
        assert winner is not None
        our_won[winner] += 1
    assert tuple(won[osp_player(s, first)] for s in range(SEATS)) == tuple(our_won)
    returns = osp.returns()
    osp_points = [int(returns[osp_partnership(t, first)]) for t in range(2)]
    totals = osp.get_current_scores()
    osp_totals = (totals[osp_partnership(0, first)], totals[osp_partnership(1, first)])
    for team in range(2):
        seats = (team, team + 2)
        if any(record.bids[s] == 0 for s in seats):
            seen.add("nil made" if all(our_won[s] == 0 for s in seats if record.bids[s] == 0) else "nil set")
        contract = sum(record.bids[s] for s in seats)
        seen.add("contract set" if sum(our_won[s] for s in seats) < contract else "contract made")
        if record.bag_penalties[team]:
            seen.add("bag penalty")
    return state, osp_points, osp_totals


def check_round_points(osp_before: tuple[int, int], state: GameState, osp_points: list[int], seen: Seen) -> list[int]:
    """OpenSpiel's round points equal ours, but for the mapped bag penalty; return the difference per team."""
    record = state.history[-1]
    drift = []
    for team in range(2):
        our_hits = record.bag_penalties[team]
        osp_hits = expected_osp_hits(osp_before[team], our_hits)
        if osp_hits != our_hits:
            seen.add("negative-score bags mapped")
        expected = record.points[team] + (our_hits - osp_hits) * state.rules.bag_penalty
        assert osp_points[team] == expected, (team, osp_before, record)
        drift.append(expected - record.points[team])
    return drift


@pytest.mark.parametrize("min_team_bid", [0, 4])
def test_rounds_agree_move_by_move(min_team_bid):
    """Rounds dealt by every seat in turn, from random running scores (bags = score modulo 10)."""
    rules = make_rules("partnership", min_team_bid=min_team_bid)
    rng = random.Random(f"openspiel:{min_team_bid}")
    seen = Seen()
    for seed in range(300):
        before = (rng.randrange(-190, 490), rng.randrange(-190, 490))
        base = replace(new_game(rules, seed=seed), scores=before, bags=tuple(s % 10 for s in before))
        state = start_round(base, 1 + seed % 4)  # dealer seed % 4
        osp = osp_round(state, before)
        state, osp_points, osp_totals = play_round(rng, state, osp, seen)
        drift = check_round_points(before, state, osp_points, seen)
        record = state.history[-1]
        assert osp_totals == tuple(s + d for s, d in zip(record.scores, drift, strict=True))
        assert record.bags == tuple(s % 10 for s in record.scores)
        check_game_end(state, tuple(t - d for t, d in zip(osp_totals, drift, strict=True)), seen)
    expected = {"nil bid", "nil made", "nil set", "contract made", "contract set", "bag penalty", "spade lead mapped"}
    expected |= {"negative-score bags mapped", "game won at 500", "game lost at -200"}
    if min_team_bid:
        expected.add("min team bid mapped")
    assert expected <= set(seen.counts), seen.counts
    if not min_team_bid:
        assert "min team bid mapped" not in seen.counts


def docs_game_winner(totals: tuple[int, int]) -> int | None:
    """docs/rules.md, partnership "End": after a round with a team at 500 or more, or -200 or less,
    the higher score wins; equal scores play another round."""
    if max(totals) < 500 and min(totals) > -200:
        return None
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


GAMES = 60


def check_game_end(state: GameState, totals: tuple[int, ...], seen: Seen) -> None:
    """Our game is over, with the right winner, exactly when docs_game_winner says so on ``totals``."""
    winner = docs_game_winner(totals)
    if winner is None:
        assert state.phase == "bidding", (state.round, totals)
        return
    assert state.phase == "game_over", totals
    assert state.winner == state.rules.seats_of(winner)
    seen.add("game won at 500" if max(totals) >= 500 else "game lost at -200")


def test_whole_games_agree():
    """Games of the ``partnership`` preset to the end; OpenSpiel carries its own running totals."""
    rules = make_rules("partnership")
    rng = random.Random("openspiel:games")
    seen = Seen()
    for seed in range(GAMES):
        style = ("mixed", "cautious", "hand")[seed % 3]
        state = new_game(rules, seed=1000 + seed)
        osp_totals = (0, 0)
        drift = [0, 0]  # OpenSpiel's running total minus ours, from the mapped bag penalties
        while state.phase != "game_over":
            osp = osp_round(state, osp_totals)
            state, osp_points, new_totals = play_round(rng, state, osp, seen, style)
            gained = check_round_points(osp_totals, state, osp_points, seen)
            drift = [d + g for d, g in zip(drift, gained, strict=True)]
            assert new_totals == tuple(o + p for o, p in zip(osp_totals, osp_points, strict=True))
            osp_totals = new_totals
            assert osp_totals == tuple(s + d for s, d in zip(state.scores, drift, strict=True))
            assert state.bags == tuple(s % 10 for s in state.scores)
            check_game_end(state, tuple(t - d for t, d in zip(osp_totals, drift, strict=True)), seen)
    assert seen.counts["game won at 500"] + seen.counts["game lost at -200"] == GAMES, seen.counts
    assert {"bag penalty", "negative-score bags mapped"} <= set(seen.counts), seen.counts
