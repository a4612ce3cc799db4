"""The API's last resort when no worker answers an AI turn: basic's move, never a careless nil.

Unit tests, no Redis: the fallback over many random bidding views, and the
driver's overdue-turn path on the in-memory store with a dispatcher whose
sends were never answered.
"""

from __future__ import annotations

import random
from typing import Any

from services.api.ai_seats.driver import AiDriver, fallback_move
from services.api.games.commands import Collaborators
from services.api.games.record import GameOptions, GameRecord, Seat
from services.api.store.memory_store import MemoryStore
from services.computers import basic_move
from services.engine import Bid, apply, legal_moves, make_rules, new_game, turn, view
from services.engine.state import GameState

AI_SEATS = [Seat("ai", "hard")] * 4


def record_of(state: GameState, version: int = 1) -> GameRecord:
    return GameRecord("g", version, list(AI_SEATS), "", GameOptions("standard")).with_state(state)


def random_bidding_state(rng: random.Random) -> GameState:
    """A game in bidding with 0 to 3 bids made, on random rules: both presets,
    nil on or off, team minimums and maximums that bite, partners' bids low
    (the minimum then forces this seat up), nil or high."""
    if rng.random() < 0.5:
        rules = make_rules("individual", nil=rng.random() < 0.7)
    else:
        minimum = rng.choice([0, 2, 4, 6, 8])
        maximum = rng.choice([max(minimum, 2), 10, 13, 13])  # (nil off with a maximum of 1 leaves no bid: see report)
        rules = make_rules("partnership", nil=rng.random() < 0.7, min_team_bid=minimum, max_team_bid=maximum)
    state = new_game(rules, rng.randrange(2**32))
    for _ in range(rng.randrange(4)):
        seat = turn(state)
        legal = view(state, seat)["legal"]
        low = [b for b in legal if b <= 2]  # low partner bids make the team minimum bite
        bid = rng.choice(low) if low and rng.random() < 0.6 else rng.choice(legal)
        state = apply(state, seat, Bid(bid))
    return state


def test_the_fallback_never_bids_nil_unless_nil_is_the_only_legal_bid():
    rng = random.Random(10)
    seen = {"nil allowed": 0, "minimum bites": 0, "nil only": 0}
    for _ in range(3000):
        state = random_bidding_state(rng)
        seat = turn(state)
        legal = view(state, seat)["legal"]
        move = fallback_move(record_of(state), seat)
        assert move["bid"] in legal
        assert move["bid"] != 0 or legal == [0], (legal, move, state.rules)
        assert move == basic_move(view(state, seat, history=False))
        seen["nil allowed"] += 0 in legal and len(legal) > 1
        seen["minimum bites"] += min(b for b in legal if b) > 1 if any(legal) else 0
        seen["nil only"] += legal == [0]
    assert all(seen.values()), seen  # every case the property speaks of was drawn


def test_the_fallback_bids_nil_when_nothing_else_is_legal():
    state = new_game(make_rules("partnership", max_team_bid=13), 5)
    first = turn(state)
    state = apply(state, first, Bid(13))  # leaves the partner no legal bid but nil
    state = apply(state, turn(state), Bid(1))
    seat = turn(state)
    assert seat == (first + 2) % 4
    assert view(state, seat)["legal"] == [0]
    assert fallback_move(record_of(state), seat) == {"bid": 0}


def test_the_fallback_plays_basics_card():
    rng, state = random.Random(4), new_game(make_rules("partnership"), 4)
    for _ in range(4 + 19):  # the bids, then into the fifth trick
        state = apply(state, turn(state), rng.choice(legal_moves(state, turn(state))))
    assert state.phase == "playing"
    seat = turn(state)
    assert fallback_move(record_of(state), seat) == basic_move(view(state, seat))


# ---- the driver's overdue-turn path --------------------------------------------


class NeverAnswered:
    """A dispatcher whose sends of this turn all went unanswered."""

    def __init__(self, version: int, seat: int, attempts: int) -> None:
        self._pending = {
            "task_id": "t",
            "version": version,
            "seat": seat,
            "level": "hard",
            "sent_at": 0.0,
            "attempts": attempts,
        }
        self.sent: list[tuple[int, int]] = []

    def pending(self, game_id: str) -> dict[str, Any]:
        return self._pending

    def stored_result(self, task_id: str, game_id: str | None = None) -> None:
        return None

    def node_for(self, game_id: str) -> int:
        return 0

    def dispatch(self, record: GameRecord, seat: int, attempts: int = 1) -> None:
        self.sent.append((seat, attempts))


def driver_for(record: GameRecord, dispatcher: NeverAnswered, max_attempts: int) -> tuple[MemoryStore, AiDriver]:
    store = MemoryStore(GameRecord.from_stored)
    assert store.commit(record, None, [])
    driver = AiDriver(Collaborators(store), dispatcher, None, max_attempts, sweep_interval=1.0)  # type: ignore[arg-type]
    return store, driver


def test_after_max_attempts_the_driver_plays_basics_bid_not_the_lowest_legal_one():
    state = new_game(make_rules("partnership", nil=True), 21)
    seat = turn(state)
    assert view(state, seat)["legal"][0] == 0, "the old fallback, the lowest legal move, would bid nil here"
    dispatcher = NeverAnswered(version=3, seat=seat, attempts=5)
    store, driver = driver_for(record_of(state, version=3), dispatcher, max_attempts=5)
    driver.recover("g")
    assert dispatcher.sent == [], "no sixth send: the API moved itself"
    committed = store.load("g")
    assert committed is not None and committed.version == 4
    expected = basic_move(view(state, seat, history=False))["bid"]
    assert committed.state.bids[seat] == expected >= 1


def test_before_max_attempts_the_driver_sends_the_turn_again():
    state = new_game(make_rules("partnership"), 22)
    seat = turn(state)
    dispatcher = NeverAnswered(version=3, seat=seat, attempts=2)
    store, driver = driver_for(record_of(state, version=3), dispatcher, max_attempts=5)
    driver.recover("g")
    assert dispatcher.sent == [(seat, 3)]
    assert store.load("g").version == 3 and store.commits == 1  # only the setup's commit
