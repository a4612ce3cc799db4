"""``benchmarks.ratings``: a short run rates every player and counts every game; the schedule is balanced;
the tournaments of docs/ai.md are read and compared as the module says."""

from __future__ import annotations

import json

import pytest

from benchmarks import ratings as r
from services.engine import make_rules
from services.ratings.model import INITIAL, Rating
from spades_client.models import GameView

PLAYER_FIGURES = {"id", "kind", "mu", "sigma", "interval95", "display", "games", "wins", "win_share"}


def test_a_short_run_rates_every_player_and_counts_every_game(capsys):
    report = r.main(["--games", "8", "--workers", "1", "--win-score", "100", "--seed", "3"])
    assert json.loads(capsys.readouterr().out) == report
    assert report["games"] == 8 and report["board"] == "partnership" and report["win_score"] == 100
    assert set(report["players"]) == set(r.RATED_LEVELS) | {"example-bot"} == set(report["order"])
    assert report["players"]["example-bot"]["kind"] == "bot"
    assert report["players"]["hard"]["id"] == "computer-hard"
    assert sum(p["games"] for p in report["players"].values()) == 4 * 8  # four distinct players a game
    for figures in report["players"].values():
        assert set(figures) == PLAYER_FIGURES
        low, high = figures["interval95"]
        assert low < figures["mu"] < high
        assert 0 <= figures["wins"] <= figures["games"]
        if figures["games"] == 0:
            assert (figures["mu"], figures["sigma"]) == (INITIAL.mu, INITIAL.sigma)
    displays = [report["players"][p]["display"] for p in report["order"]]
    assert displays == sorted(displays, reverse=True)
    assert report["rounds_per_game"]["min"] >= 1 and report["round_cap_hit"] == 0
    check = report["tournament_check"]
    assert len(check["pairs"]) == 10 and set(check["agrees"]) == {"plain", "bag_adjusted"}
    opposed = sum(m["games"] for row in report["head_to_head"].values() for m in row.values())
    assert opposed == 8 * 8  # each game: four ordered pairs of opponents on each side
    for player, fall in report["sigma_falls"].items():  # nobody is past the provisional line after 8 games
        played = report["players"][player]["games"]
        assert fall["established_after"] is None
        assert set(fall["after"]) == ({"1"} if played else set())
        assert not played or report["players"][player]["sigma"] <= fall["after"]["1"] < INITIAL.sigma


def test_a_recorded_run_rates_the_same(tmp_path, capsys):
    games = tmp_path / "games.jsonl"
    common = ["--games", "4", "--win-score", "100", "--seed", "2"]
    played = r.main([*common, "--workers", "1", "--games-out", str(games)])
    again = r.main([*common, "--from-games", str(games)])
    capsys.readouterr()
    assert again["players"] == played["players"] and again["head_to_head"] == played["head_to_head"]
    with pytest.raises(SystemExit):
        r.main(["--games", "4", "--seed", "3", "--from-games", str(games)])


def test_sigma_falls_with_each_players_games_until_it_is_no_longer_provisional():
    games = [{"seating": list(seating), "scores": [500, 100], "winner": [0, 2]} for seating, _ in
             r.schedule(r.PLAYERS, 700, seed=1)]  # fmt: skip
    falls = r.sigma_falls("partnership", games)
    rated = r.rate_games("partnership", games)
    for player, fall in falls.items():
        sigmas = [fall["after"][str(n)] for n in r.SIGMA_STEPS if str(n) in fall["after"]]
        assert sigmas == sorted(sigmas, reverse=True) and len(sigmas) == 9  # 1 to 200 of its 400 games
        assert fall["after"]["1"] < INITIAL.sigma and rated[player].sigma <= fall["after"]["200"]
        assert fall["established_after"] is not None and fall["established_after"] >= 30


def test_every_matchup_once_a_cycle_and_every_pair_meets_equally():
    every = r.matchups(r.PLAYERS)
    assert len(every) == len({frozenset(map(frozenset, m)) for m in every}) == 105
    cycle = r.schedule(r.PLAYERS, 210, seed=1)
    assert len({game_seed for _, game_seed in cycle}) == 105  # a pair of games per matchup, one seed
    assert all(len(set(seating)) == 4 for seating, _ in cycle)
    assert r.pair_counts([s for s, _ in cycle]) == {
        "partnered": {"min": 20, "max": 20},  # 10 matchups × 2 games
        "opposed": {"min": 40, "max": 40},
    }
    assert r.schedule(r.PLAYERS, 57, seed=1) == cycle[:57]  # a shorter run plays a longer one's first games
    first, second = cycle[0][0], cycle[1][0]
    assert second == (first[1], first[0], first[3], first[2])  # the pair's second game: teams swapped


def test_the_bot_reads_the_view_the_runner_would_give_it():
    seat_view = {
        "phase": "bidding", "round": 1, "dealer": 3, "turn": 0, "you": 0,
        "hand": ["AS", "KS", "QS", "JS", "AH", "KH", "2C", "3C", "4C", "5D", "6D", "7D", "8D"],
        "hand_sizes": [13] * 4, "legal": list(range(14)), "bids": [None] * 4, "tricks_won": [0] * 4,
        "leader": None, "trick": [], "tricks": [], "last_trick": None, "spades_broken": False,
        "scores": [0, 0], "bags": [0, 0], "history": [], "winner": None,
    }  # fmt: skip
    seat_view["rules"] = make_rules("partnership").to_dict()
    data = r.api_view(seat_view, ("example-bot", "hard", "easy", "normal"), 5)
    view = GameView.from_dict(data)
    assert view.my_turn and view.seats[0].type == "human" and view.seats[1].level == "hard"
    assert r.decision_of(r.bot_of(r.DEFAULT_BOT)(view)) == {"bid": 5}  # A, K, A, K, one spade past the third
    assert r.decision_of("QS") == {"card": "QS"}
    assert r.decision_of("look") == {"look": True}
    assert r.decision_of({"bid": 0, "blind": True}) == {"bid": 0, "blind": True}
    assert r.decision_of(["AS", "KS"]) == {"pass": ["AS", "KS"]}


def test_the_tournament_rows_are_read_from_docs_ai():
    rows = r.tournament_rows(r.DOCS_AI.read_text())
    pairs = {(row["a"], row["b"]) for row in rows}
    assert ("hard", "pro") in pairs and ("normal", "basic") in pairs and len(rows) == 10
    hard_pro = next(row for row in rows if (row["a"], row["b"]) == ("hard", "pro"))
    low, high = hard_pro["plain"]["ci95"]
    assert low < hard_pro["plain"]["difference"] < high and low > 0


@pytest.mark.parametrize(
    ("a", "b", "agrees"),
    [
        (Rating(30, 1), Rating(20, 1), True),  # ordered as the tournament, apart
        (Rating(21, 1), Rating(20, 1), False),  # ordered, but the intervals overlap
        (Rating(20, 1), Rating(30, 1), False),  # the other way round
    ],
)
def test_a_separated_tournament_pair_needs_ordered_and_apart_ratings(a, b, agrees):
    row = {
        "a": "hard", "b": "pro",
        "plain": {"difference": 34.0, "ci95": [32.0, 36.0]},
        "bag_adjusted": {"difference": 1.0, "ci95": [-1.0, 3.0]},  # even: anything agrees
    }  # fmt: skip
    ratings = dict.fromkeys(r.PLAYERS, INITIAL) | {"hard": a, "pro": b}
    meetings = r.head_to_head([{"seating": ["hard", "pro", "easy", "basic"], "winner": [0, 2]}] * 30)
    check = r.tournament_check(ratings, [row], meetings)
    assert check["agrees"] == {"plain": agrees, "bag_adjusted": True}
    assert check["head_to_head_agrees"] == {"plain": True, "bag_adjusted": True}  # hard won all 30 against pro
    assert check["pairs"][0]["head_to_head"]["games"] == 30


def test_ratings_follow_the_results_in_order():
    games = [
        {"seating": ["hard", "easy", "normal", "basic"], "scores": [300, 10], "winner": [0, 2]}
        for _ in range(20)
    ]  # fmt: skip
    ratings = r.rate_games("partnership", games)
    assert ratings["hard"].mu > INITIAL.mu > ratings["easy"].mu
    assert ratings["pro"] == INITIAL  # never played
    assert r.order_of(ratings)[:2] in (["hard", "normal"], ["normal", "hard"])
    met = r.head_to_head(games)
    assert met["hard"]["easy"]["share"] == 1.0 and met["easy"]["hard"]["share"] == 0.0
    assert met["hard"]["basic"]["games"] == 20 and met["hard"]["basic"]["wilson95"][0] > 0.5
    assert met["hard"]["normal"] == {"games": 0, "won": 0, "share": None, "wilson95": [0.0, 1.0]}  # partners
