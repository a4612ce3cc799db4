"""The fair-play watch's rules: outcomes, pairing bans that escalate and decay, and the flags."""

from __future__ import annotations

import math

from services.ratings import watch
from services.ratings.watch import Outcome

HOUR = watch.HOUR_MS
NOW = 1_000 * 24 * HOUR


def document(rounds: int = 10, fair: dict | None = None, scoring: str = "partnership", win_score: int = 500) -> dict:
    base = {"counts": True, "reason": None, "forfeits": [], "timed_out": [], "aborted_by": None}
    return {
        "rules": {"scoring": scoring, "win_score": win_score},
        "rounds": [{}] * rounds,
        "fair_play": {**base, **(fair or {})},
    }


def games(outcomes: list[str], start_ms: int = NOW - 10 * HOUR, every_ms: int = 10 * watch.MINUTE_MS) -> list:
    return [Outcome(f"g{n}", start_ms + n * every_ms, each, False) for n, each in enumerate(outcomes)]


def test_each_persons_outcome_is_told_from_the_games_fair_play():
    places = [1, 2]  # seats 0 and 2 won
    assert watch.outcome(document(), 0, places) == watch.PLAYED
    assert watch.outcome(document(), 1, places) == watch.PLAYED, "a loss played out over ten rounds"
    assert watch.outcome(document(rounds=3), 1, places) == watch.LOST_FAST
    assert watch.outcome(document(rounds=3), 0, places) == watch.PLAYED, "a fast win is no loss"
    assert watch.outcome(document(fair={"aborted_by": 3, "counts": False}), 3, places) == watch.ABORTED
    assert watch.outcome(document(fair={"forfeits": [1, 3], "timed_out": [3]}), 1, places) == watch.LEFT
    assert watch.outcome(document(fair={"forfeits": [1, 3], "timed_out": [3]}), 3, places) == watch.TIMED_OUT
    assert watch.outcome({**document(), "fair_play": None}, 0, places) is None, "not made to count"


def test_fast_is_measured_against_the_games_length():
    assert watch.fast(document(rounds=6, win_score=1000))
    assert not watch.fast(document(rounds=1, win_score=100)), "a short game's losses are never fast"


def test_each_side_beats_the_sides_it_placed_above_and_partners_are_neither():
    players = ["a", "b", "c", "d"]
    assert watch.results(document(), 0, [1, 2], players) == (("b", "d"), ())
    assert watch.results(document(), 1, [1, 2], players) == ((), ("a", "c"))
    individual = document(scoring="individual")
    assert watch.results(individual, 0, [2, 4, 1, 3], players) == (("b", "d"), ("c",))


def test_a_player_dropping_a_game_now_and_then_is_never_banned():
    honest = [watch.PLAYED] * 9 + [watch.LEFT]
    recent = games(honest * 3)
    assert watch.ban_ms(recent, [], None, NOW) == 0


def test_repeated_bad_outcomes_earn_a_ban_that_escalates_within_72_hours_and_caps_at_three_days():
    quitter = games([watch.PLAYED] * 8 + [watch.LEFT, watch.PLAYED, watch.TIMED_OUT, watch.LEFT, watch.LEFT])
    assert watch.ban_ms(quitter, [], None, NOW) == watch.FIRST_BAN_MS
    earlier = [NOW - 20 * HOUR, NOW - 50 * HOUR]
    assert watch.ban_ms(quitter, earlier, None, NOW) == watch.FIRST_BAN_MS * 9
    assert watch.ban_ms(quitter, [NOW - 80 * HOUR], None, NOW) == watch.FIRST_BAN_MS, "an old ban is forgotten"
    many = [NOW - n * HOUR for n in range(1, 20)]
    assert watch.ban_ms(quitter, many, None, NOW) == watch.MAX_BAN_MS


def test_only_a_fresh_bad_outcome_after_the_last_ban_earns_another():
    quitter = games([watch.LEFT] * 5)
    assert watch.ban_ms(quitter, [], None, NOW) == 2 * watch.FIRST_BAN_MS, "a new account: twice as long"
    assert watch.ban_ms(quitter[:-1] + [Outcome("x", NOW, watch.PLAYED, False)], [], None, NOW) == 0
    last = quitter[-2].ended_ms
    assert watch.ban_ms(quitter, [last], last, NOW) == 0, "the outcomes before the ban were paid for"


def test_old_outcomes_decay():
    old = games([watch.LEFT] * 4, start_ms=NOW - 8 * 24 * HOUR)
    assert watch.ban_ms(old + games([watch.LEFT], start_ms=NOW), [], None, NOW) == 0


def test_an_honest_players_chance_of_a_ban_over_thirty_games_is_under_one_percent():
    """7 % bad outcomes (5 % left, 2 % timed out): the binomial tail the ban rule asks for."""
    p, n = 0.07, watch.KEPT_OUTCOMES
    need = max(watch.BAN_MIN_BAD, math.ceil(watch.BAN_MIN_SHARE * n))
    tail = sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(need, n + 1))
    assert tail < 0.01


def test_four_fast_losses_in_a_day_flag_a_sandbagger():
    lost = [Outcome(f"g{n}", NOW - n * HOUR, watch.LOST_FAST, True, (), ("w",)) for n in range(4)]
    assert sorted(watch.sandbagging(lost, NOW)) == ["g0", "g1", "g2", "g3"]
    assert watch.sandbagging(lost[:3], NOW) == []
    assert watch.sandbagging(lost, NOW + 48 * HOUR) == [], "spread over days: no pattern"


def test_fast_wins_over_one_opponent_or_repeated_wins_without_a_loss_flag_a_booster():
    fast_wins = [Outcome(f"g{n}", NOW - n * HOUR, watch.PLAYED, True, ("puppet", f"x{n}")) for n in range(4)]
    assert watch.boosting(fast_wins, NOW) == (("puppet",), ["g0", "g1", "g2", "g3"])
    slow = [Outcome(f"s{n}", NOW - n * HOUR, watch.PLAYED, False, ("puppet",)) for n in range(6)]
    assert watch.boosting(slow, NOW)[0] == ("puppet",)
    rival = slow[:5] + [Outcome("s9", NOW, watch.PLAYED, False, (), ("puppet",))]
    assert watch.boosting(rival, NOW) is None, "a rival who also wins is no puppet"
    assert watch.boosting(slow[:5], NOW) is None


def test_wins_spread_over_a_closed_group_flag_a_booster_and_computers_are_nobodys_puppets():
    """Eight puppets beaten in turn over five days, each a few times: no one opponent often enough for the
    repeated rule, but a closed group."""
    puppets = [f"p{n}" for n in range(8)]
    spread = [
        Outcome(f"g{n}", NOW - n * 6 * HOUR, watch.PLAYED, False, (puppets[n % 8], puppets[(n + 1) % 8]))
        for n in range(2 * watch.FLAG_GROUP_GAMES)
    ]
    opponents, games = watch.boosting(spread, NOW)
    assert len(games) >= watch.FLAG_GROUP_GAMES and set(opponents) == set(puppets)
    trading = [  # a ring trading results evenly among itself
        Outcome(
            f"t{n}", NOW - n * HOUR, watch.PLAYED, False, *((puppets[n % 4],), ()) if n % 2 else ((), (puppets[n % 4],))
        )
        for n in range(2 * watch.FLAG_GROUP_GAMES)
    ]
    assert watch.boosting(trading, NOW) is not None, "even results, but only ever each other"
    strangers = [Outcome(f"h{n}", NOW - n * HOUR, watch.PLAYED, False, (f"x{n}", f"y{n}")) for n in range(30)]
    assert watch.boosting(strangers, NOW) is None, "strangers beaten once each"
    computers = [Outcome(f"c{n}", NOW - n * HOUR, watch.PLAYED, True, ("computer-standard",)) for n in range(30)]
    assert watch.boosting(computers, NOW) is None, "a level is everyone's opponent"
