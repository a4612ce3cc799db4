"""The six computer levels: seed 000's easy, standard and pro, seed 002's
basic, normal and hard.

Seed 002's levels are documented where they are implemented: basic in
:mod:`services.players.basic` (pure Python, so the API can play it as its
fallback), normal in :mod:`services.ai_worker.heuristics`, hard in
:mod:`services.ai_worker.search`.  The rest of this docstring is seed 000's.

A strategy is a function of one seat's VIEW (``services.engine.view``) and a
seed, returning a legal move: :func:`decide` ``(view, level, seed)`` gives
``{"bid": n}`` or ``{"card": "QS"}``; the same view and seed always give the
same move.  Unseen cards are drawn only from the cards the view does not show.

Interpretations of seed 000 (each one a choice the seed leaves open):

easy
    Bid: uniformly among the view's legal bids in 1..4; if none of them is
    legal, uniformly among all legal bids.  Play: a uniformly random legal card.

standard – play (one implementation: :func:`kernel.standard_choice`)
    * "Bid made": the seat's tricks ≥ its bid.  In partnership the bid is the
      team contract (the partners' non-nil bids added) and the tricks are the
      team's tricks as the engine counts them (a nil partner's tricks only when
      ``nil_tricks_count_for_team``).  A nil bidder's bid is always made: it
      tries to lose every trick.
    * "Lowest"/"highest card" across suits means by rank, ties broken by suit
      order clubs < diamonds < hearts < spades (the engine's
      ``lowest_by_rank``/``highest_by_rank``); within one suit it is the rank.
    * "No chance to take the trick": none of its legal cards beats the card
      currently winning the trick (later seats are not guessed at).
    * Bid not made, leading: leads its highest legal card.  Following suit:
      its highest card of the led suit if that beats the current winner,
      otherwise its lowest legal card.  Void in the led suit: the lowest spade
      that beats the current winner if it has one, otherwise its lowest card.
    * Bid made: leading, its lowest legal card; following, its lowest legal
      card that does not beat the current winner; when every legal card would
      beat it ("must take the trick"), its highest legal card.
    * Partnership (seed 000 has no partners; this adaptation is ours): a seat
      whose partner is winning the trick does not overtake – it plays its
      lowest legal card that does not beat the partner; if every card would
      (rare), the highest when its bid is made, else the lowest – except a
      partner whose nil is still alive: that partner is overtaken with the
      cheapest card that beats it (the lowest of the led suit, or the lowest
      winning spade when void), so standard never throws its partner's nil.

standard and pro – bid (:func:`kernel.bid_tricks`)
    * For each bid b in 0..13 the same 100 random deals of the unseen cards
      (the other three hands, 13 cards each) are played out from the first
      lead with every seat standard and this seat bidding b; seats that have
      not bid yet get a heuristic bid (:func:`kernel.estimate_bid`: high
      cards, suit lengths, spades; at least 1), seats that have bid keep it.
    * "Average tricks taken" is this seat's own tricks (in partnership too: the
      team contract drives the play, but the bid chosen is the seat's part).
    * The bid is the highest b in 1..13 whose average is strictly above b.
      If there is none, the seat bids nil (0): read literally, 0 is then the
      highest bid whose average is above it (or no bid qualifies at all when
      even nil play took no trick – nil again).
    * If that bid is not in the view's legal list (nil disabled, team minimum
      or maximum), the nearest legal bid is used, the lower one on a tie.

pro – play (:func:`kernel.pro_trick_wins`)
    * For each legal card, the chance the trick is taken when it plays that
      card and the seats after it play standard, over the same 100 sampled
      distributions of the unseen cards; only the current trick is completed.
      "Taken" means by this seat, or in partnership by either partner unless
      one of them bid nil (a nil bid is the seat's own).
    * Bid made (as in standard): the card least likely to take the trick.
      Not made: the card most likely to, if its chance is above 50%;
      otherwise the least likely card.  Ties: the lowest card (by rank, then
      suit).  A single legal card is played without simulating.
    * Partnership: when the partner's nil is alive and the partner is winning
      the trick, only the cards that overtake it are candidates (if any), so
      pro never throws its partner's nil either.

Sampling (both Monte Carlo levels): the other hands get exactly their known
sizes; voids revealed in play (a seat that did not follow the led suit) are
respected; see :func:`kernel.sample_hands`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from services.engine import Bid, apply, card_code, lowest_by_rank, make_rules, new_game, parse_card, turn, view
from services.players import HINT_LEVEL, LEVEL_NAMES, basic_move, nearest_legal

from . import heuristics, kernel, search
from .position import Position, position_of

LEVELS = LEVEL_NAMES
DEALS_PER_BID = 100
SAMPLES_PER_PLAY = 100
HARD_BID_DEALS = 300  # deals per candidate bid
HARD_PLAY_SAMPLES = 300  # deals per candidate card
HARD_PLAY_MISMATCH = 0.7  # a deal's weight per play another seat made that normal would not have (1: off)
_SEED_MASK = (1 << 64) - 1


def decide(view: dict[str, Any], level: str, seed: int) -> dict[str, Any]:
    """The move of a ``level`` player for the seat whose ``view`` this is:
    ``{"bid": n}`` while bidding, ``{"card": "QS"}`` while playing."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {list(LEVELS)}")
    _check_turn(view)
    if level == "basic":
        return basic_move(view)
    if view["phase"] not in ("bidding", "playing"):
        raise ValueError(f"no move in phase {view['phase']!r}")
    if level == "normal":
        return _normal(view)
    if level == "hard":
        return hard_analysis(view, seed)["move"]
    if view["phase"] == "bidding":
        return {"bid": _bid(view, level, seed)}
    return {"card": card_code(_card(view, level, seed))}


def _check_turn(view: dict[str, Any]) -> None:
    """A decision needs a seat's view on that seat's turn, with legal moves."""
    if view.get("you") is None or view.get("turn") != view["you"] or not view.get("legal"):
        raise ValueError("it is not this seat's turn")


def _bid(view: dict[str, Any], level: str, seed: int) -> int:
    legal: list[int] = view["legal"]
    if level == "easy":
        rng = random.Random(seed)
        low = [b for b in legal if 1 <= b <= 4]
        return rng.choice(low or legal)
    averages = bid_averages(position_of(view), seed)
    return nearest_legal(choose_bid(averages), legal)


def bid_averages(position: Position, seed: int, deals: int = DEALS_PER_BID) -> np.ndarray:
    """Average tricks this seat takes for each bid 0..13 (see the module doc)."""
    p = position
    return kernel.bid_tricks(
        p.seat, p.hand, p.unseen, p.sizes, p.void_suits, p.bids, p.leader,
        p.partnership, p.must_break, p.nil_counts, deals, np.uint64(seed & _SEED_MASK),
    )  # fmt: skip


def choose_bid(averages: np.ndarray) -> int:
    """The highest bid 1..13 whose average tricks are strictly above it; 0 (nil) if none."""
    for bid in range(kernel.MAX_BID, 0, -1):
        if averages[bid] > bid:
            return bid
    return 0


def _card(view: dict[str, Any], level: str, seed: int) -> int:
    legal = [parse_card(c) for c in view["legal"]]
    if level == "easy":
        return random.Random(seed).choice(legal)
    position = position_of(view)
    if level == "standard":
        return standard_card(position)
    if len(legal) == 1:
        return legal[0]
    candidates = sum(1 << c for c in legal)
    return pro_card(position, _overtaking_nil_partner(position, candidates), seed)


def _overtaking_nil_partner(p: Position, candidates: int) -> int:
    """The candidates that overtake a partner whose nil is alive and who is
    winning the trick (all candidates when that is not the case or none can)."""
    if not kernel.partner_nil_alive(p.seat, p.bids_known(), p.won, p.partnership) or p.trick_n == 0:
        return candidates
    _, best, winner = kernel.trick_state(p.trick, p.trick_n, p.leader)
    if winner != (p.seat + 2) % 4:
        return candidates
    overtaking = candidates & int(kernel.beating_mask(best))
    return overtaking or candidates


def standard_card(position: Position) -> int:
    """The standard strategy's card for this position."""
    p = position
    return int(
        kernel.standard_card(
            p.seat, p.hand, p.trick, p.trick_n, p.leader, p.bids_known(), p.won,
            p.broken, p.partnership, p.must_break, p.nil_counts,
        )
    )  # fmt: skip


def pro_win_counts(position: Position, candidates: int, seed: int, samples: int = SAMPLES_PER_PLAY) -> np.ndarray:
    """For each card (index), in how many samples playing it takes the trick."""
    p = position
    return kernel.pro_trick_wins(
        p.seat, p.hand, candidates, p.unseen, p.sizes, p.void_suits, p.bids_known(), p.leader,
        p.trick, p.trick_n, p.won, p.broken, p.partnership, p.must_break, p.nil_counts,
        samples, np.uint64(seed & _SEED_MASK),
    )  # fmt: skip


def pro_card(position: Position, candidates: int, seed: int, samples: int = SAMPLES_PER_PLAY) -> int:
    """The pro strategy's card among ``candidates`` (the legal cards, a mask)."""
    wins = pro_win_counts(position, candidates, seed, samples)
    p = position
    made = kernel.bid_made(p.seat, p.bids_known(), p.won, p.partnership, p.nil_counts)
    cards = [c for c in range(52) if candidates >> c & 1]
    best = max(wins[c] for c in cards)
    wants_trick = not made and best * 2 > samples  # "more than 50%"
    target = best if wants_trick else min(wins[c] for c in cards)
    return lowest_by_rank(sum(1 << c for c in cards if wins[c] == target))


def _normal(view: dict[str, Any]) -> dict[str, Any]:
    p = position_of(view)
    side = p.seat % 2 if p.partnership else p.seat
    if view["phase"] == "bidding":
        partner_bid = int(p.bids[(p.seat + 2) % 4]) if p.partnership else -1
        bid = heuristics.normal_bid(
            p.hand, partner_bid, p.partnership, p.nil_allowed, int(p.bags[side]), int(p.scoring[2]), int(p.scoring[3])
        )
        return {"bid": nearest_legal(int(bid), view["legal"])}
    bags_near = heuristics.bags_near(int(p.bags[side]), int(p.scoring[2]), int(p.scoring[3]))
    card = heuristics.normal_card(
        p.seat, p.hand, p.out, p.trick, p.trick_n, p.leader, p.bids_known(), p.won, p.void_suits, p.broken,
        p.partnership, p.must_break, p.nil_counts, bool(bags_near),
    )  # fmt: skip
    return {"card": card_code(int(card))}


def hard_analysis(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """Hard's move and the figures behind it: ``{"move": ..., "candidates":
    [{"bid": n | "card": "QS", "value": v, "make_chance" | "trick_chance": p}]}``.

    ``value`` is the expected worth of the round to the seat's side (see
    :mod:`services.ai_worker.search`); ``make_chance`` the chance a bid is made
    (a nil: no trick taken), ``trick_chance`` the chance the side takes the
    current trick with that card.  A lone legal move is not searched."""
    p = position_of(view)
    legal = view["legal"]
    rng_seed = np.uint64(seed & _SEED_MASK)
    if view["phase"] == "bidding":
        if len(legal) == 1:
            return {"move": {"bid": legal[0]}, "candidates": [{"bid": legal[0]}]}
        wanted = np.zeros(kernel.MAX_BID + 1, dtype=np.bool_)
        wanted[legal] = True
        values, makes = search.bid_values(
            p.seat, p.hand, wanted, p.unseen, p.sizes, p.bids, p.leader, p.partnership, p.must_break,
            p.nil_counts, p.nil_allowed, p.scoring, p.bags, p.scores, HARD_BID_DEALS, rng_seed,
        )  # fmt: skip
        best = max(legal, key=lambda b: (round(float(values[b]), 9), -b))
        candidates = [
            {"bid": b, "value": round(float(values[b]), 2), "make_chance": round(float(makes[b]), 3)} for b in legal
        ]
        return {"move": {"bid": best}, "candidates": candidates}
    cards = [parse_card(c) for c in legal]
    if len(cards) == 1:
        return {"move": {"card": legal[0]}, "candidates": [{"card": legal[0]}]}
    values, takes = search.play_values(
        p.seat, p.hand, sum(1 << c for c in cards), p.unseen, p.sizes, p.void_suits, p.played_by, p.bids_known(),
        p.leader, p.trick, p.trick_n, p.won, p.broken, p.partnership, p.must_break, p.nil_counts, p.scoring,
        p.bags, p.scores, p.history, p.history_n, p.first_leader, HARD_PLAY_MISMATCH,
        HARD_PLAY_SAMPLES, rng_seed,
    )  # fmt: skip
    top = max(round(float(values[c]), 9) for c in cards)
    best = lowest_by_rank(sum(1 << c for c in cards if round(float(values[c]), 9) == top))
    candidates = [
        {"card": card_code(c), "value": round(float(values[c]), 2), "trick_chance": round(float(takes[c]), 3)}
        for c in cards
    ]
    return {"move": {"card": card_code(best)}, "candidates": candidates}


def analyse(view: dict[str, Any], seed: int) -> dict[str, Any]:
    """A hint for the seat whose turn ``view`` shows: the hint level's move and
    the figures behind it, one entry per candidate move (see
    :func:`hard_analysis`), with ``level`` naming who answered."""
    _check_turn(view)
    return {"level": HINT_LEVEL, **hard_analysis(view, seed)}


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel entry point, so no
    decision pays JIT cost: seed 000's kernel, then one normal and one hard
    decision of each kind through the real code paths."""
    kernel.warm_up()
    for preset in ("partnership", "individual"):
        state = new_game(make_rules(preset), seed=1)
        seat = turn(state)
        for level in ("normal", "hard"):
            decide(view(state, seat), level, 1)
        while state.phase == "bidding":
            state = apply(state, turn(state), Bid(2))
        seat = turn(state)
        for level in ("normal", "hard"):
            decide(view(state, seat), level, 1)
