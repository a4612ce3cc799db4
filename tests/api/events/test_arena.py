"""The arena's rules (services/api/events/arena.py, docs/events.md "Arena"): points and the fire by hand-worked
examples, the standings' order against a plain sort, and the pairing: close keys together, the most even split,
the last arrivals and the stuck left waiting, and over a long simulated arena of 40 entrants in each format
nobody meets their last opponents (nor their last partner) again in their next game."""

from __future__ import annotations

import random
import statistics
from collections import defaultdict
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.api.events.arena import (
    ArenaRules,
    Entrant,
    Outcome,
    Standings,
    Table,
    on_fire,
    outcomes,
    pair_wave,
    pairing_key,
    points_for,
    record_game,
    standing_score,
)

FORMATS = ["partners", "pairs", "solo"]
RESULTS: list[Outcome] = ["win", "draw", "loss"]


def play(rules: ArenaRules, sequence: list[Outcome]) -> tuple[list[int], Entrant]:
    """Entrant a's games, partnered with b against c and d each time: what each game added, and a after."""
    entrants = {e: Entrant(e, 1500) for e in "abcd"}
    added = []
    for outcome in sequence:
        before = entrants["a"].points
        other: Outcome = {"win": "loss", "loss": "win", "draw": "draw"}[outcome]
        entrants |= record_game(rules, Table((("a", "b"), ("c", "d"))), [outcome, other], entrants)
        added.append(entrants["a"].points - before)
    return added, entrants["a"]


def reference_points(rules: ArenaRules, sequence: list[Outcome]) -> int:
    """The documented rule, spelt out: a game counts ``fire_factor`` times once the wins just before it number
    ``fire_after`` or more."""
    total = 0
    for i, outcome in enumerate(sequence):
        wins_before = 0
        while wins_before < i and sequence[i - 1 - wins_before] == "win":
            wins_before += 1
        base = {"win": rules.win, "draw": rules.draw, "loss": rules.loss}[outcome]
        total += base * (rules.fire_factor if wins_before >= rules.fire_after else 1)
    return total


def test_the_docs_example_two_wins_light_the_fire_and_a_draw_on_fire_counts_double_then_puts_it_out():
    added, after = play(ArenaRules(), ["win", "win", "win", "draw", "win", "loss", "win"])
    assert added == [2, 2, 4, 2, 2, 0, 2] and after.points == 14
    assert (after.games, after.wins, after.run) == (7, 5, 1)


def test_a_long_run_keeps_doubling_every_win_and_a_loss_on_fire_scores_nothing():
    added, after = play(ArenaRules(), ["loss", "win", "win", "win", "win", "loss", "win", "win", "win"])
    assert added == [0, 2, 2, 4, 4, 0, 2, 2, 4] and after.points == 20 and on_fire(ArenaRules(), after)


def test_the_points_and_fire_follow_the_events_rules():
    rules = ArenaRules(win=3, draw=1, loss=0, fire_after=3, fire_factor=3)
    added, _ = play(rules, ["win", "win", "win", "win", "draw", "win"])
    assert added == [3, 3, 3, 9, 3, 3]
    assert points_for(rules, Entrant("x", 1500, run=3), "loss") == 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(RESULTS), max_size=30), st.integers(1, 4), st.integers(1, 3))
def test_the_points_are_the_documented_rule_for_any_sequence(sequence, fire_after, fire_factor):
    rules = ArenaRules(fire_after=fire_after, fire_factor=fire_factor)
    _, after = play(rules, sequence)
    assert after.points == reference_points(rules, sequence)
    assert after.wins == sequence.count("win") and after.games == len(sequence)


def test_outcomes_from_final_scores():
    assert outcomes([310, 120]) == ("win", "loss")
    assert outcomes([-40, 200]) == ("loss", "win")
    assert outcomes([200, 200]) == ("draw", "draw")
    assert outcomes([100, 250, 250, 30]) == ("loss", "draw", "draw", "loss")
    assert outcomes([100, 250, 80, 30]) == ("loss", "win", "loss", "loss")


def test_a_game_records_partners_opponents_and_the_performance_total():
    entrants = {"a": Entrant("a", 1600), "b": Entrant("b", 1400), "c": Entrant("c", 1700), "d": Entrant("d", 1500)}
    after = record_game(ArenaRules(), Table((("a", "b"), ("c", "d"))), ["win", "loss"], entrants)
    assert after["a"].last_partners == {"b"} and after["a"].last_opponents == {"c", "d"}
    assert after["d"].last_partners == {"c"} and after["d"].last_opponents == {"a", "b"}
    assert (after["a"].points, after["c"].points) == (2, 0)
    assert after["a"].performance == 1600 + 400 and after["c"].performance == 1500 - 400
    with pytest.raises(ValueError):
        record_game(ArenaRules(), Table((("a", "b"), ("c", "d"))), ["win"], entrants)


def test_solo_opponents_are_the_three_others_and_pairs_have_no_partners():
    entrants = {e: Entrant(e, 1500) for e in "abcd"}
    after = record_game(ArenaRules("solo"), Table((("a",), ("b",), ("c",), ("d",))), outcomes([1, 2, 3, 4]), entrants)
    assert after["a"].last_opponents == {"b", "c", "d"} and after["a"].last_partners == frozenset()
    assert after["d"].points == 2 and after["a"].points == 0
    pairs = {"p1": Entrant("p1", 1500), "p2": Entrant("p2", 1700)}
    after = record_game(ArenaRules("pairs"), Table((("p1",), ("p2",))), ["draw", "draw"], pairs)
    assert after["p1"].last_opponents == {"p2"} and after["p1"].last_partners == frozenset()
    assert (after["p1"].points, after["p1"].performance, after["p2"].performance) == (1, 1700, 1500)


def test_standings_order_points_then_performance_then_id():
    rows = [
        Entrant("zed", 1500, points=6, games=3, performance_total=3 * 1700),
        Entrant("amy", 1500, points=6, games=3, performance_total=3 * 1700),
        Entrant("bob", 1500, points=6, games=3, performance_total=3 * 1800),
        Entrant("cat", 2400, points=4, games=2, performance_total=2 * 2500),
        Entrant("new", 1900),
    ]
    standings = Standings(rows)
    assert [e for e, _ in standings.page(0, 10)] == ["bob", "amy", "zed", "cat", "new"]
    assert standings.page(0, 1) == [("bob", 6 * 10_000 + 1800)] and standing_score(rows[4]) == 1900
    assert [standings.rank(e) for e in ("bob", "amy", "zed", "cat", "new")] == [0, 1, 2, 3, 4]
    standings.put(replace(rows[4], points=8, games=2, performance_total=2 * 1900))
    standings.remove("amy")
    assert [e for e, _ in standings.page(0, 10)] == ["new", "bob", "zed", "cat"] and len(standings) == 4
    with pytest.raises(KeyError):
        standings.rank("amy")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 40), st.integers(0, 3000)), min_size=1, max_size=60))
def test_standings_kept_incrementally_are_a_plain_sort(changes):
    standings, latest = Standings(), {}
    for who, points, rating in changes:
        entrant = Entrant(f"e{who}", rating, points=points, games=1, performance_total=rating)
        if points == 0 and f"e{who}" in latest:
            standings.remove(f"e{who}")
            del latest[f"e{who}"]
            continue
        standings.put(entrant)
        latest[entrant.id] = entrant
    expected = sorted(latest.values(), key=lambda e: (-standing_score(e), e.id))
    assert [e for e, _ in standings.page(0, len(latest))] == [e.id for e in expected]
    assert all(standings.rank(e.id) == i for i, e in enumerate(expected))
    assert standings.page(2, 3) == [(e.id, standing_score(e)) for e in expected[2:5]]


def test_a_first_wave_seats_blocks_of_close_ratings_with_the_strongest_and_weakest_as_partners():
    entrants = {f"r{r}": Entrant(f"r{r}", r) for r in range(1000, 2200, 100)}  # 12 distinct ratings
    wave = pair_wave(ArenaRules(), list(reversed(entrants)), entrants)
    assert wave.waiting == ()
    assert wave.tables == (
        Table((("r2100", "r1800"), ("r2000", "r1900"))),
        Table((("r1700", "r1400"), ("r1600", "r1500"))),
        Table((("r1300", "r1000"), ("r1200", "r1100"))),
    )


def test_points_weigh_as_rating_in_the_pairing_key():
    rules = ArenaRules(format="pairs", rating_per_point=100)
    assert pairing_key(rules, Entrant("x", 1500, points=4)) == 1900
    entrants = {
        "leader": Entrant("leader", 1300, points=8),  # 2100
        "second": Entrant("second", 1500, points=4),  # 1900
        "strong": Entrant("strong", 2000),  # 2000
        "weak": Entrant("weak", 1100),
    }
    wave = pair_wave(rules, list(entrants), entrants)
    assert wave.tables == (Table((("leader",), ("strong",))), Table((("second",), ("weak",))))


def test_the_last_arrivals_past_a_multiple_of_the_table_wait_in_their_order():
    entrants = {f"e{i}": Entrant(f"e{i}", 1500 + i) for i in range(7)}
    wave = pair_wave(ArenaRules(), ["e3", "e0", "e6", "e1", "e5", "e2", "e4"], entrants)
    assert [set(t.entrants) for t in wave.tables] == [{"e3", "e0", "e6", "e1"}]
    assert wave.waiting == ("e5", "e2", "e4")
    assert pair_wave(ArenaRules("pairs"), ["e3", "e0", "e6"], entrants).waiting == ("e6",)


@pytest.mark.parametrize("format", FORMATS)
def test_a_table_that_just_played_waits_for_others(format):
    rules = ArenaRules(format)
    entrants = {e: Entrant(e, 1500) for e in "abcd"[: rules.seats]}
    sides = {"partners": (("a", "b"), ("c", "d")), "pairs": (("a",), ("b",)), "solo": (("a",), ("b",), ("c",), ("d",))}
    table = Table(sides[format])
    entrants |= record_game(rules, table, outcomes(list(range(len(table.sides)))), entrants)
    assert pair_wave(rules, list(entrants), entrants).tables == ()
    newcomers = {f"n{i}": Entrant(f"n{i}", 1500) for i in range(rules.seats)}
    both = entrants | newcomers
    wave = pair_wave(rules, list(both), both)
    # solo: a table holds at most one of the four, so three newcomers and one of them; the rest wait
    assert len(wave.tables) == {"partners": 2, "pairs": 2, "solo": 1}[format]
    assert all(valid(both, t) for t in wave.tables)


def test_last_opponents_may_be_partners_next_and_last_partners_opponents():
    entrants = {e: Entrant(e, 1500) for e in "abcd"} | {"e": Entrant("e", 1500), "f": Entrant("f", 1500)}
    entrants |= record_game(ArenaRules(), Table((("a", "b"), ("c", "d"))), ["win", "loss"], entrants)
    wave = pair_wave(ArenaRules(), ["a", "c", "e", "f"], entrants)
    assert [sorted(map(sorted, t.sides)) for t in wave.tables] == [[["a", "c"], ["e", "f"]]]
    wave = pair_wave(ArenaRules(), ["a", "b", "e", "f"], entrants)
    assert len(wave.tables) == 1 and {"a", "b"} not in [set(side) for side in wave.tables[0].sides]


def valid(entrants: dict[str, Entrant], table: Table) -> bool:
    """Nobody at the table meets a last opponent across it or a last partner beside them."""
    for side in table.sides:
        for e in side:
            across = set(table.entrants) - set(side)
            if across & entrants[e].last_opponents or (set(side) - {e}) & entrants[e].last_partners:
                return False
    return True


@st.composite
def pools(draw):
    """A pool after some play: entrants with points and ratings, their last tables as a random earlier wave
    (all of it in ``format``), and who waits now in a random arrival order."""
    format = draw(st.sampled_from(FORMATS))
    rules = ArenaRules(format, window=draw(st.integers(ArenaRules(format).seats - 1, 10)))
    count = draw(st.integers(0, 40))
    entrants = {
        f"e{i}": Entrant(f"e{i}", draw(st.integers(1000, 2200)), points=draw(st.integers(0, 12))) for i in range(count)
    }
    earlier = draw(st.permutations(list(entrants)))
    size = rules.seats
    for start in range(0, len(earlier) - size + 1, size):
        group = earlier[start : start + size]
        sides = (tuple(group[:2]), tuple(group[2:])) if format == "partners" else tuple((e,) for e in group)
        entrants |= record_game(rules, Table(sides), outcomes([0] * len(sides)), entrants)
    waiting = draw(st.permutations(list(entrants)))[: draw(st.integers(0, count))]
    return rules, entrants, waiting


def rules_sides(format: str) -> tuple[int, ...]:
    return {"partners": (2, 2), "pairs": (1, 1), "solo": (1, 1, 1, 1)}[format]


@settings(max_examples=300, deadline=None)
@given(pools())
def test_a_wave_seats_each_waiting_entrant_at_most_once_in_a_valid_table(pool):
    rules, entrants, waiting = pool
    wave = pair_wave(rules, waiting, entrants)
    seated = [e for t in wave.tables for e in t.entrants]
    assert sorted(seated + list(wave.waiting)) == sorted(waiting)
    assert list(wave.waiting) == [e for e in waiting if e in set(wave.waiting)]  # arrival order kept
    assert len(wave.waiting) >= len(waiting) % rules.seats
    for table in wave.tables:
        assert tuple(len(side) for side in table.sides) == rules_sides(rules.format)
        assert valid(entrants, table)


def simulate(rules: ArenaRules, players: int, waves: int, seed: int, finish: float = 0.4) -> dict:
    """An arena of ``players`` entrants: after each wave, each table in play finishes with a chance of
    ``finish`` with random scores, its entrants back in the pool in a random order.  Returns what each entrant met and
    scored game by game, the pools' rank spreads, and the final entrants and standings."""
    rng = random.Random(seed)
    entrants = {f"e{i:02d}": Entrant(f"e{i:02d}", rng.randint(1000, 2200)) for i in range(players)}
    standings = Standings(entrants.values())
    waiting = list(entrants)
    rng.shuffle(waiting)
    playing: list[Table] = []
    met: dict[str, list[tuple[frozenset, frozenset]]] = defaultdict(list)
    results: dict[str, list[Outcome]] = defaultdict(list)
    spreads, at_random = [], []
    for _ in range(waves):
        wave = pair_wave(rules, waiting, entrants)
        place = {e: standings.rank(e) for e in waiting}
        pool_ranks = [place[e] for e in waiting]
        for table in wave.tables:
            spreads.append(max(place[e] for e in table.entrants) - min(place[e] for e in table.entrants))
            sample = rng.sample(pool_ranks, rules.seats)  # the yardstick: a table drawn from the same pool
            at_random.append(max(sample) - min(sample))
            for side in table.sides:
                for e in side:
                    met[e].append((frozenset(table.entrants) - set(side), frozenset(side) - {e}))
        playing += wave.tables
        waiting = list(wave.waiting)
        finished = [t for t in playing if rng.random() < finish]
        playing = [t for t in playing if t not in finished]
        for table in finished:
            table_results = outcomes([rng.choice([0, 100, 200, 300]) for _ in table.sides])
            entrants |= record_game(rules, table, table_results, entrants)
            for side, outcome in zip(table.sides, table_results, strict=True):
                for e in side:
                    results[e].append(outcome)
                    standings.put(entrants[e])
            back = list(table.entrants)
            rng.shuffle(back)
            waiting += back
    return {
        "entrants": entrants,
        "met": met,
        "results": results,
        "standings": standings,
        "spreads": spreads,
        "at_random": at_random,
    }


@pytest.mark.parametrize("format", FORMATS)
def test_a_long_arena_of_40_never_repeats_last_opponents_or_partners_and_scores_by_the_rules(format):
    rules = ArenaRules(format)
    players = 40
    run = simulate(rules, players, waves=400, seed=FORMATS.index(format))
    repeats = [
        (e, i)
        for e, games in run["met"].items()
        for i in range(1, len(games))
        if games[i][0] & games[i - 1][0] or games[i][1] & games[i - 1][1]
    ]
    assert repeats == []
    games = [len(run["met"][e]) for e in run["entrants"]]
    assert min(games) >= 40  # nobody starves in the pool
    entrants = run["entrants"]
    assert all(entrants[e].points == reference_points(rules, run["results"][e]) for e in entrants)
    assert all(entrants[e].games == len(run["results"][e]) for e in entrants)
    expected = sorted(entrants.values(), key=lambda e: (-standing_score(e), e.id))
    assert [e for e, _ in run["standings"].page(0, players)] == [e.id for e in expected]


@pytest.mark.parametrize("format", FORMATS)
def test_tables_are_formed_of_close_ranks(format):
    """A table's spread of standings ranks (highest less lowest, at the wave) against a table drawn at random
    from the same pool: with everyone back in the pool at once, a third of it at most; in a pool of the few
    tables just done, still well under (the ones who just met sit close in the standings and must part)."""
    together = simulate(ArenaRules(format), 200, waves=30, seed=7, finish=1.0)
    assert statistics.mean(together["spreads"]) < statistics.mean(together["at_random"]) / 3
    a_few = simulate(ArenaRules(format), 40, waves=300, seed=7)
    assert statistics.mean(a_few["spreads"]) < statistics.mean(a_few["at_random"]) * 3 / 4


def test_rules_refuse_an_unknown_format_and_a_window_too_small_for_a_table():
    with pytest.raises(ValueError):
        ArenaRules("teams")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ArenaRules("partners", window=2)
