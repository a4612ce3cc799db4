"""``benchmarks.events``: a short run of the arena in each format pairs every wave without a repeat, keeps the
standings equal to a plain sort, and reports its figures in the documented shape (no time is asserted)."""

from __future__ import annotations

import json

import pytest

from benchmarks import events

TIMES = {"count", "p50_ms", "p99_ms", "max_ms"}


@pytest.mark.parametrize("format", ["partners", "pairs", "solo"])
def test_a_short_arena_run_pairs_without_repeats_and_its_standings_agree(capsys, format):
    report = events.main(["--players", "403", "--format", format, "--waves", "6", "--reads", "40", "--seed", "3"])
    assert json.loads(capsys.readouterr().out) == report
    arena = report["arena"]
    assert (arena["format"], arena["players"], arena["seed"]) == (format, 403, 3)
    seats = {"partners": 4, "pairs": 2, "solo": 4}[format]
    assert arena["repeats"] == 0 and arena["standings_agree"] is True
    assert arena["left_waiting"]["min"] >= 403 % seats
    assert arena["tables_per_wave"]["max"] * seats + arena["left_waiting"]["min"] <= 403
    assert arena["tables_per_wave"]["min"] * seats >= 403 * 0.9  # a wave seats nearly everyone
    assert arena["wave"]["count"] == 6 and arena["standings_read"]["count"] == 40
    assert arena["game"]["count"] >= 6 * arena["tables_per_wave"]["min"]
    for figures in (arena["wave"], arena["game"], arena["standings_read"]):
        assert set(figures) == TIMES and figures["max_ms"] >= figures["p99_ms"] >= figures["p50_ms"] > 0
    assert set(arena["wave_cpu"]) == TIMES and arena["wave_cpu"]["count"] == 6
    assert arena["goals"] == {"wave_p99_ms": 1000, "standings_read_p99_ms": 20}
    assert set(arena["meets_goals"]) == {"wave", "standings_read"}
    assert arena["warmup_waves"] == 5 and arena["leader"]["points"] > 0
    assert 0 < arena["leader"]["games"] <= 5 + 6  # a game a wave at most


@pytest.mark.integration
def test_a_short_duplicate_run_makes_every_rounds_tables_once_and_reads_the_scored_boards(capsys, private_redis_url):
    argv = ["--players", "40", "--waves", "1", "--reads", "2", "--redis-url", private_redis_url, "--store-games", "50"]
    report = events.main([*argv, "--pairs", "6", "--rounds", "2", "--sheet-reads", "8", "--seed", "4"])
    assert json.loads(capsys.readouterr().out) == report
    duplicate = report["duplicate"]
    assert (duplicate["pairs"], duplicate["rounds"], duplicate["deals_per_round"]) == (6, 2, 1)
    assert duplicate["tables_per_round"] == {"min": 3, "max": 3}
    assert duplicate["games_made"] == 2 * 3, "each round's tables are new games, each made once"
    assert duplicate["moves_per_round"]["min"] >= 3 * (4 + 52)  # every table played out: 4 bids, 52 cards
    for figures in (duplicate["round_start"], duplicate["event_read"], duplicate["scoresheet_read"]):
        assert set(figures) == TIMES and figures["max_ms"] >= figures["p99_ms"] >= figures["p50_ms"] > 0
    assert duplicate["round_start"]["count"] == 2
    assert duplicate["event_read"]["count"] + duplicate["scoresheet_read"]["count"] == 2 * 4
    assert [r["rounds_begun"] for r in duplicate["reads_by_rounds_begun"]] == [2, 3]
    assert [r["games_read"] for r in duplicate["reads_by_rounds_begun"]] == [3, 3], "the current round's tables"
    redis_cost = duplicate["round_start_redis"]
    assert redis_cost["commands_p50"] >= 3 and redis_cost["memory_bytes_p50"] > 0
    assert redis_cost["memory_after_play_bytes_p50"] > 0
    assert duplicate["event_doc_bytes"] > 0 and duplicate["standings"] == 6
    assert duplicate["boards_scored"] == 3, "the last timed round's board is scored at every table"
    assert duplicate["goal_round_start_ms"] == 5000 and isinstance(duplicate["meets_goal"], bool)
    store = report["arena_store"]  # the arena kept in Redis as the service keeps it
    assert (store["players"], store["games_scored"]) == (40, 50)
    assert store["standings_read"]["count"] == store["entrant_read"]["count"] == 2
    for figures in (store["standings_read"], store["entrant_read"], store["game_scored"]):
        assert set(figures) == TIMES and figures["max_ms"] >= figures["p99_ms"] >= figures["p50_ms"] > 0
