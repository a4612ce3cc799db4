"""A finished game applied to its players once: ratings (the model's answer), buckets, stats and player games in
one transaction behind the game's guard row; again, nothing; the buckets count a rating from the game it stops
being provisional; unrated games add stats and games only; on
PostgreSQL, the same game applied by many writers at once counts once and games sharing players never
deadlock."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import select

from services.api.ratings.apply import apply_record, combined
from services.api.records.schema import (
    game_ratings,
    player_games,
    player_ratings,
    player_stats,
    players,
    rating_buckets,
)
from services.ratings.buckets import bucket_of
from services.ratings.model import INITIAL, Rating, ordinal, rate
from services.ratings.policy import side_places
from services.ratings.provisional import PROVISIONAL_GAMES
from services.ratings.stats import seat_stats

from .conftest import NOW, STRANGERS, add_players, buckets_agree, counts, finished, rows, seasoned, snapshot


def test_one_person_against_the_computers_moves_both_ratings_and_counts_the_game_once(engine):
    add_players(engine, "p_a")
    document = finished("g1", ["p_a", "ai:hard", "ai:hard", "ai:hard"])
    assert apply_record(engine, document, NOW, NOW, computer_only=False)
    places = side_places(document)
    by_seat = rate("partnership", [INITIAL] * 4, places, steady=[False, True, True, True])  # levels: no drift
    hard = combined(INITIAL, by_seat[1:])
    [person] = rows(engine, player_ratings, player_id="p_a")
    assert (person["mu"], person["sigma"], person["games"]) == (by_seat[0].mu, by_seat[0].sigma, 1)
    assert person["score"] == ordinal(by_seat[0]) and person["kind"] == "person"
    [computer] = rows(engine, player_ratings, player_id="computer-hard")
    assert (computer["mu"], computer["sigma"], computer["kind"]) == (hard.mu, hard.sigma, "computer")
    assert rows(engine, players, id="computer-hard")[0]["name"] == "hard"
    games = {row["player_id"]: row for row in rows(engine, player_games)}
    assert games["p_a"]["seat"] == 0 and games["computer-hard"]["seat"] == 1 and games["p_a"]["rated"]
    assert (games["p_a"]["mu_before"], games["p_a"]["mu_after"]) == (INITIAL.mu, by_seat[0].mu)
    assert games["p_a"]["won"] == document["seats"][0]["won"] and games["p_a"]["ended_ms"] == NOW
    assert games["p_a"]["games_after"] == 1 and person["provisional"] is True
    [stats] = rows(engine, player_stats, player_id="p_a")
    assert {k: stats[k] for k in seat_stats(document)[0]} == seat_stats(document)[0]
    assert rows(engine, game_ratings)[0]["rated"] is True
    assert buckets_agree(engine)
    before = snapshot(engine)
    assert not apply_record(engine, document, NOW, NOW + 5, computer_only=False)
    assert snapshot(engine) == before


def test_a_players_second_game_starts_from_its_first_ones_rating(engine):
    add_players(engine, "p_a")
    first = finished("g1", ["p_a", "ai:hard", "ai:easy", "ai:hard"], seed=7)
    second = finished("g2", ["ai:easy", "p_a", "ai:hard", "ai:easy"], seed=9)
    apply_record(engine, first, NOW, NOW, computer_only=False)
    [after_first] = rows(engine, player_ratings, player_id="p_a")
    apply_record(engine, second, NOW + 1, NOW, computer_only=False)
    game = rows(engine, player_games, player_id="p_a", game_id="g2")[0]
    assert (game["mu_before"], game["sigma_before"]) == (after_first["mu"], after_first["sigma"])
    assert rows(engine, player_ratings, player_id="p_a")[0]["games"] == 2
    assert rows(engine, player_stats, player_id="computer-easy")[0]["games"] == 2
    assert buckets_agree(engine)


def test_people_at_a_public_table_with_a_clock_are_rated_on_the_individual_board(engine):
    add_players(engine, "p_a", "p_b", "p_c")
    add_players(engine, "p_bot", kind="bot")
    document = finished("g1", ["p_a", "p_b", "p_c", "p_bot"], STRANGERS, preset="individual")
    apply_record(engine, document, NOW, NOW, computer_only=False)
    new = rate("individual", [INITIAL] * 4, side_places(document))
    stored = {row["player_id"]: row for row in rows(engine, player_ratings)}
    assert {p: Rating(r["mu"], r["sigma"]) for p, r in stored.items()} == dict(
        zip(["p_a", "p_b", "p_c", "p_bot"], new, strict=True)
    )
    assert {r["board"] for r in stored.values()} == {"individual"} and stored["p_bot"]["kind"] == "bot"
    assert buckets_agree(engine)


def test_an_unrated_game_adds_its_peoples_stats_and_games_only(engine):
    add_players(engine, "p_a", "p_b")
    document = finished("g1", ["p_a", "ai:hard", "p_b", "ai:hard"])  # two people at a private table
    assert apply_record(engine, document, NOW, NOW, computer_only=False)
    assert counts(engine) == {
        "players": 2,
        "player_ratings": 0,
        "rating_buckets": 0,
        "player_stats": 2,
        "player_games": 2,
        "game_ratings": 1,
    }
    assert not any(row["rated"] or row["mu_after"] for row in rows(engine, player_games))
    assert rows(engine, game_ratings)[0]["rated"] is False


def test_a_game_of_nobody_bound_leaves_only_its_guard_row(engine):
    apply_record(engine, finished("g1", ["human", "ai:hard", "human", "ai:hard"]), NOW, NOW, computer_only=False)
    apply_record(engine, finished("g2", ["ai:hard", "ai:easy", "ai:hard", "ai:easy"]), NOW, NOW, computer_only=False)
    assert counts(engine) == {
        "players": 0,
        "player_ratings": 0,
        "rating_buckets": 0,
        "player_stats": 0,
        "player_games": 0,
        "game_ratings": 2,
    }


def test_computers_alone_are_rated_when_asked(engine):
    document = finished("g1", ["ai:hard", "ai:easy", "ai:hard", "ai:easy"])
    assert apply_record(engine, document, NOW, NOW, computer_only=True)
    new = rate("partnership", [INITIAL] * 4, side_places(document), steady=[True] * 4)
    stored = {row["player_id"]: Rating(row["mu"], row["sigma"]) for row in rows(engine, player_ratings)}
    assert stored == {"computer-hard": new[0], "computer-easy": new[1]}
    assert buckets_agree(engine)


def test_a_deleted_players_game_is_not_rated_and_skips_them(engine):
    add_players(engine, "p_a")
    with engine.begin() as connection:
        connection.execute(players.update().values(deleted_ms=NOW, name=None, name_key=None, token_hash=None))
    apply_record(engine, finished("g1", ["p_a", "ai:hard", "ai:hard", "ai:hard"]), NOW, NOW, computer_only=False)
    assert counts(engine)["player_games"] == 0 and rows(engine, game_ratings)[0]["rated"] is False


def test_a_rating_is_counted_in_the_buckets_from_the_game_it_stops_being_provisional(engine):
    seasoned(engine, "p_short", "partnership", "person", PROVISIONAL_GAMES - 2)  # two games short
    seasoned(engine, "p_next", "partnership", "person", PROVISIONAL_GAMES - 1)  # one game short
    seasoned(engine, "p_on", "partnership", "person", PROVISIONAL_GAMES + 10)  # on the board already
    for n, player in enumerate(("p_short", "p_next", "p_on")):
        apply_record(engine, finished(f"g{n}", [player, "ai:hard", "ai:easy", "ai:hard"], seed=n), NOW, NOW, False)
    flags = {row["player_id"]: row["provisional"] for row in rows(engine, player_ratings)}
    assert flags == {"p_short": True, "p_next": False, "p_on": False, "computer-hard": True, "computer-easy": True}
    assert buckets_agree(engine)
    on = rows(engine, player_ratings, player_id="p_on")[0]
    with engine.connect() as connection:
        counted = {row.bucket: row.players for row in connection.execute(select(rating_buckets)) if row.players}
    assert sum(counted.values()) == 2 and bucket_of(on["score"]) in counted  # p_on moved, p_next came in
    games = {row["player_id"]: row["games_after"] for row in rows(engine, player_games, board="partnership")}
    assert games["p_short"] == PROVISIONAL_GAMES - 1 and games["p_next"] == PROVISIONAL_GAMES


def test_many_games_keep_every_bucket_equal_to_its_players(engine):
    ids = [f"p_{n}" for n in range(6)]
    add_players(engine, *ids)
    for n, player in enumerate(ids):  # all provisional; eight games each take some past both thresholds
        seasoned(engine, player, "partnership", "person", PROVISIONAL_GAMES - 9 + n, sigma=3.0 + n / 2.5)
    for n in range(12):
        seats = [ids[n % 6], ids[(n + 1) % 6], ids[(n + 3) % 6], ids[(n + 4) % 6]]
        apply_record(engine, finished(f"g{n}", seats, STRANGERS, seed=n), NOW + n, NOW, computer_only=False)
    assert buckets_agree(engine)
    assert sum(row["games"] for row in rows(engine, player_stats)) == 12 * 4
    flags = [row["provisional"] for row in rows(engine, player_ratings)]
    assert True in flags and False in flags


@pytest.mark.integration
def test_on_postgresql_writers_at_once_apply_each_game_once_and_never_deadlock(postgres_engine):
    engine = postgres_engine
    ids = [f"p_{n}" for n in range(5)]
    add_players(engine, *ids)
    documents = [
        finished(f"g{n}", [ids[n % 5], ids[(n + 1) % 5], ids[(n + 2) % 5], ids[(n + 3) % 5]], STRANGERS, seed=n)
        for n in range(10)
    ]
    applied: list[bool] = []
    failures: list[BaseException] = []

    def writer(order: list) -> None:
        try:
            for document in order:
                applied.append(apply_record(engine, document, NOW, NOW, computer_only=False))
        except BaseException as error:  # a deadlock would surface here
            failures.append(error)

    orders = [documents, documents[::-1], documents, documents[::-1]]  # the same games at once, and crossing
    threads = [threading.Thread(target=writer, args=(order,)) for order in orders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and applied.count(True) == 10
    assert sum(row["games"] for row in rows(engine, player_stats)) == 40
    assert sum(row["games"] for row in rows(engine, player_ratings)) == 40
    assert buckets_agree(engine)
