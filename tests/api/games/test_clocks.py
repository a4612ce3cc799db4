"""The turn clock's rules (services/api/games/clocks.py): pure functions on records, no store, no time read."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.api.games import clocks
from services.api.games.record import GameOptions, GameRecord, Seat
from services.engine import Bid, apply, legal_moves, make_rules, new_game, turn

T0 = 1_000_000  # ms
MOVE, RESERVE = 10_000, 30_000  # fast


def people(seats: list[Seat] | None = None, control: str = "fast") -> GameRecord:
    """A new game of four people (or ``seats``) with the ``control``'s clock, its first turn's clock started."""
    seats = seats or [Seat("human", None, f"t{i}") for i in range(4)]
    record = GameRecord("g", 1, seats, "", GameOptions.from_json({"ai_takeover": "standard", "clock": control}))
    record = record.with_state(new_game(make_rules("partnership"), 7))
    record.clock = clocks.after_change(clocks.new_clock(control), None, record, T0, "create")
    return record


def moved(record: GameRecord, at: int, by: str) -> GameRecord:
    """``record`` after the seat to move makes its first legal move (a bid of 3 while bidding) at ``at`` (ms), ``by``
    whom (the clock does not care what a move is)."""
    seat = turn(record.state)
    move = Bid(3) if record.state.phase == "bidding" else legal_moves(record.state, seat)[0]
    nxt = record.successor().with_state(apply(record.state, seat, move))
    nxt.clock = clocks.after_change(record.clock, record, nxt, at, by)
    return nxt


def test_the_catalogue_names_each_control_with_its_times():
    listed = {c["name"]: (c["move_seconds"], c["reserve_seconds"]) for c in clocks.catalogue()}
    assert listed == {
        "none": (0, 0),
        "fast": (10, 30),
        "normal": (25, 60),
        "relaxed": (60, 120),
        "correspondence": (86400, 0),
    }
    assert all(c["description"] for c in clocks.catalogue())


@pytest.mark.parametrize(
    ("types", "control"),
    [
        (["human"] * 4, "normal"),
        (["human", "open", "ai", "ai"], "normal"),
        (["human", "ai", "ai", "ai"], "none"),
        (["ai"] * 4, "none"),
        (["open", "ai", "ai", "ai"], "none"),
    ],
)
def test_people_get_a_clock_by_default_one_person_against_computers_none(types: list[str], control: str):
    assert clocks.default_control(types) == control


def test_a_new_clock_is_the_controls_times_scaled_and_none_has_none():
    assert clocks.new_clock("none") is None
    clock = clocks.new_clock("normal", scale=0.5)
    assert clock is not None
    assert (clock.move_ms, clock.reserve_ms, clock.seat) == (12_500, (30_000,) * 4, None)


def test_a_persons_turn_has_a_deadline_of_move_time_plus_reserve():
    record = people()
    seat = turn(record.state)
    assert record.clock.seat == seat and record.clock.turn_started_ms == T0
    assert record.clock.deadline_ms == T0 + MOVE + RESERVE
    assert clocks.deadline_seconds(record) == (T0 + MOVE + RESERVE) / 1000


def test_a_move_spends_only_the_time_past_the_move_time_from_the_reserve():
    record = people()
    first = turn(record.state)
    quick = moved(record, T0 + MOVE - 1, "move")
    assert quick.clock.reserve_ms[first] == RESERVE
    slow = moved(record, T0 + MOVE + 4_000, "move")
    assert slow.clock.reserve_ms[first] == RESERVE - 4_000
    second = turn(slow.state)
    assert slow.clock.seat == second and slow.clock.deadline_ms == T0 + MOVE + 4_000 + MOVE + RESERVE
    late = moved(record, T0 + MOVE + RESERVE + 500, "move")  # in before the timeout landed: never below zero
    assert late.clock.reserve_ms[first] == 0


def test_the_computer_plays_a_persons_turn_only_past_its_deadline():
    record = people()
    seat = turn(record.state)
    deadline = record.clock.deadline_ms
    assert clocks.computer_seat(record, deadline - 1) is None
    assert clocks.computer_seat(record, deadline) == seat
    assert clocks.reason(record, seat) == "timeout"
    assert clocks.stand_in_level(record, seat) == "standard"
    record.options = replace(record.options, ai_takeover=None)
    assert clocks.stand_in_level(record, seat) == clocks.STAND_IN_LEVEL == "basic"


def test_two_timeouts_in_a_row_make_a_seat_away_and_its_own_move_brings_it_back():
    record = people()
    seat = turn(record.state)
    for _ in range(4):  # each seat times out once: round the table, back to the first seat
        record = moved(record, record.clock.deadline_ms, "timeout")
    assert record.clock.timeouts == (1, 1, 1, 1) and record.clock.reserve_ms == (0,) * 4
    assert not any(record.clock.away) and record.clock.seat == seat
    assert record.clock.deadline_ms == record.clock.turn_started_ms + MOVE, "no reserve left"


def test_the_second_timeout_in_a_row_sets_away_the_computer_plays_at_once_and_back_resets():
    record = people()
    seat = turn(record.state)
    timeouts = [0] * 4
    timeouts[seat] = 1  # its turn timed out before
    record.clock = replace(record.clock, timeouts=tuple(timeouts))
    away = moved(record, record.clock.deadline_ms, "timeout")
    assert away.clock.away[seat] and away.clock.timeouts[seat] == 2
    # round the table to the away seat again: its turn has no clock, the computer plays it at once
    at = away
    while turn(at.state) != seat:
        at = moved(at, at.clock.turn_started_ms + 1_000, "move")
    assert at.clock.seat is None and at.clock.deadline_ms is None
    assert clocks.computer_seat(at, at.changed_ms) == seat and clocks.reason(at, seat) == "stand_in"
    back = at.successor()
    back.clock = clocks.after_change(at.clock, at, back, T0 + 99_000, "back", seat)
    assert not back.clock.away[seat] and back.clock.timeouts[seat] == 0
    assert back.clock.seat == seat and back.clock.deadline_ms == T0 + 99_000 + MOVE + 0  # no reserve left
    assert clocks.computer_seat(back, T0 + 99_000) is None
    own = moved(at, T0 + 99_000, "move")  # or the person's own move while away
    assert not own.clock.away[seat] and own.clock.timeouts[seat] == 0


def test_a_change_of_seats_elsewhere_keeps_the_running_turn_and_a_new_occupant_gets_a_fresh_seat():
    record = people()
    seat = turn(record.state)
    other = (seat + 1) % 4
    record.clock = replace(record.clock, reserve_ms=(0,) * 4, away=(True,) * 4, timeouts=(2,) * 4)
    record.clock = replace(record.clock, away=tuple(i != seat for i in range(4)))
    nxt = record.successor()
    nxt.seats[other] = Seat("ai", "basic", None, stand_in=True)  # the other seat's person left
    nxt.clock = clocks.after_change(record.clock, record, nxt, T0 + 5_000, "seat")
    assert nxt.clock.deadline_ms == record.clock.deadline_ms, "the running turn goes on"
    assert nxt.clock.reserve_ms[other] == RESERVE and not nxt.clock.away[other]
    again = nxt.successor()
    third = (seat + 2) % 4
    again.seats[third] = Seat("human", None, "a new token")  # the same person, rejoined: back, reserve kept
    again.clock = clocks.after_change(nxt.clock, nxt, again, T0 + 6_000, "seat")
    assert not again.clock.away[third] and again.clock.reserve_ms[third] == 0


def test_a_seat_released_by_its_dead_credential_keeps_its_turn_its_timeouts_and_its_away_mark():
    """No device holds it (its token hash gone): the clock plays it as a seat whose person stopped moving, and only
    a new token brings its person back."""
    record = people()
    seat = turn(record.state)
    away = [False] * 4
    away[(seat + 1) % 4] = True
    record.clock = replace(record.clock, timeouts=(1,) * 4, away=tuple(away))
    released = record.successor()
    for i in (seat, (seat + 1) % 4):
        released.seats[i] = replace(record.seats[i], token_hash=None)
    released.clock = clocks.after_change(record.clock, record, released, T0 + 5_000, "seat")
    assert released.clock.deadline_ms == record.clock.deadline_ms, "its running turn goes on"
    assert released.clock.timeouts == (1,) * 4 and released.clock.away == record.clock.away
    assert clocks.computer_seat(released, record.clock.deadline_ms) == seat  # its deadline passed: a timeout
    timed_out = moved(released, record.clock.deadline_ms, "timeout")
    assert timed_out.clock.away[seat], "the second timeout in a row: away, the computer plays it at once"
    back = released.successor()
    back.seats[seat] = Seat("human", None, "a new token")  # its player took it back on a trusted device
    back.clock = clocks.after_change(released.clock, released, back, T0 + 6_000, "seat")
    assert back.clock.timeouts[seat] == 0


def test_computer_seats_and_waiting_games_have_no_running_clock():
    seats = [Seat("human", None, "t0"), Seat("ai", "basic"), Seat("open"), Seat("ai", "basic")]
    waiting = people(seats)
    assert waiting.clock.seat is None and clocks.computer_seat(waiting, T0 + 10**9) is None
    seats[2] = Seat("human", None, "t2")
    record = people(seats)
    while seats[turn(record.state)].type == "human":  # to the first computer's turn
        record = moved(record, T0, "move")
    seat = turn(record.state)
    assert record.clock.seat is None and record.clock.deadline_ms is None
    assert clocks.computer_seat(record, T0) == seat and clocks.reason(record, seat) == "ai"
    assert clocks.stand_in_level(record, seat) == "basic"


def test_the_view_shows_the_running_turn_reserves_and_away_seats_never_the_counts():
    view = clocks.clock_view(people().clock)
    assert set(view) == {"control", "move_ms", "seat", "turn_started_ms", "deadline_ms", "reserve_ms", "away"}
    assert clocks.clock_view(None) is None


# ---- the service's outages given back (clocks.credited) -------------------------------------------------------

GRACE = 5_000
DEADLINE = T0 + MOVE + RESERVE


def outages(*spans: tuple[int, int]) -> clocks.Outages:
    return clocks.Outages(tuple(spans), GRACE)


def test_an_outage_within_a_turn_moves_its_deadline_by_its_length_and_is_never_charged_to_the_reserve():
    record = people()
    seat = turn(record.state)
    down = outages((T0 + 2_000, T0 + 22_000))  # 20 s in the middle of the turn, 18 s of it left at the end
    given = clocks.credited(record.clock, down)
    assert given.deadline_ms == DEADLINE + 20_000 and given.given_ms == 20_000
    assert given.given_until_ms == T0 + 22_000 and given.turn_started_ms == T0, "the turn's start stays"
    assert clocks.deadline_seconds(record, down) == (DEADLINE + 20_000) / 1000
    nxt = record.successor()
    nxt.state = apply(record.state, seat, Bid(3))
    # 30 s after the turn began, 20 of them the service's: 10 s taken, the move time, nothing from the reserve
    nxt.clock = clocks.after_change(record.clock, record, nxt, T0 + 30_000, "move", outages=down)
    assert nxt.clock.reserve_ms[seat] == RESERVE
    assert nxt.clock.given_ms == 0 and nxt.clock.given_until_ms is None, "the next turn starts with nothing given"
    slow = record.successor()
    slow.state = nxt.state
    slow.clock = clocks.after_change(record.clock, record, slow, T0 + 34_000, "move", outages=down)
    assert slow.clock.reserve_ms[seat] == RESERVE - 4_000, "only the person's own time past the move time"


def test_an_outage_over_the_deadline_leaves_the_time_left_then_and_at_least_the_grace_after_it():
    record = people()
    seat = turn(record.state)
    late = outages((DEADLINE - 1_000, DEADLINE + 60_000))  # one second left when the service stopped
    given = clocks.credited(record.clock, late)
    assert given.deadline_ms == DEADLINE + 60_000 + GRACE, "1 s left, less than the grace: the grace"
    assert clocks.computer_seat(record, DEADLINE + 60_000) == seat, "without them: run out"
    assert clocks.computer_seat(record, DEADLINE + 60_000, late) is None
    assert clocks.computer_seat(record, DEADLINE + 60_000 + GRACE, late) == seat
    early = outages((T0 + 1_000, T0 + 3_000))  # plenty left after it: the time lost, no more
    assert clocks.credited(record.clock, early).deadline_ms == DEADLINE + 2_000


def test_outages_before_the_turn_or_after_its_deadline_give_nothing_and_none_is_given_twice():
    record = people()
    clock = record.clock
    before = outages((T0 - 9_000, T0 - 1_000))
    assert clocks.credited(clock, before) is clock
    after = outages((DEADLINE + 10, DEADLINE + 9_000))  # it ran out while the service took moves
    assert clocks.credited(clock, after) is clock
    assert clocks.computer_seat(record, DEADLINE + 9_000, after) == turn(record.state)
    straddling = outages((T0 - 2_000, T0 + 3_000))  # only its part within the turn
    assert clocks.credited(clock, straddling).deadline_ms == DEADLINE + 3_000
    two = outages((T0 + 1_000, T0 + 2_000), (T0 + 5_000, T0 + 8_000))
    once = clocks.credited(clock, two)
    assert once.deadline_ms == DEADLINE + 4_000 and once.given_ms == 4_000 and once.given_until_ms == T0 + 8_000
    assert clocks.credited(once, two) is once, "given already"
    three = outages((T0 + 1_000, T0 + 2_000), (T0 + 5_000, T0 + 8_000), (T0 + 20_000, T0 + 21_000))
    assert clocks.credited(once, three).deadline_ms == DEADLINE + 5_000, "only the new one"


def test_a_change_of_seats_keeps_what_the_running_turn_was_given_and_a_clock_with_none_running_takes_nothing():
    record = people()
    down = outages((T0 + 1_000, T0 + 4_000))
    nxt = record.successor()
    nxt.clock = clocks.after_change(record.clock, record, nxt, T0 + 5_000, "credit", outages=down)
    assert nxt.clock.deadline_ms == DEADLINE + 3_000 and nxt.clock.given_ms == 3_000
    assert nxt.clock.turn_started_ms == T0 and nxt.clock.seat == record.clock.seat
    again = nxt.successor()
    again.clock = clocks.after_change(nxt.clock, nxt, again, T0 + 6_000, "seat", outages=down)
    assert again.clock == nxt.clock, "given once, kept"
    idle = replace(record.clock, seat=None, turn_started_ms=None, deadline_ms=None)
    assert clocks.credited(idle, down) is idle
