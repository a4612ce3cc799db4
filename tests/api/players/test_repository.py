"""Players in the records database, on SQLite and PostgreSQL: made with a unique name (ignoring case and
look-alike characters, also when two requests race for it), found by id and by token, renamed, given a new
token (the old one stops), the computer levels made on demand, and a deletion that anonymises everything the
player left behind in one go."""

from __future__ import annotations

import threading

import orjson
import pytest
from sqlalchemy import Engine, insert, select

from services.api.games.record import PlayerRef, Seat
from services.api.players.names import display_name, name_key, shape_key
from services.api.players.repository import PlayerRepository
from services.api.problems import ApiError
from services.api.ratings.standing import standing
from services.api.records.content import build
from services.api.records.repository import RecordFilter, RecordRepository
from services.api.records.schema import (
    game_records,
    player_games,
    player_ratings,
    player_stats,
    players,
    rating_buckets,
    record_seats,
)
from services.ratings.buckets import bucket_of
from services.ratings.model import Rating, display
from services.ratings.provisional import provisional

from ..records.conftest import stored_game


def make(repository: PlayerRepository, name: str, kind: str = "person"):
    return repository.create(display_name(name), kind)


def code_of(call) -> str:
    with pytest.raises(ApiError) as refused:
        call()
    return refused.value.code


def test_a_player_is_found_by_id_and_by_token_and_shows_no_rating_yet(engine: Engine):
    repository = PlayerRepository(engine)
    player, token = make(repository, "  Ada   Lovelace ", "bot")
    assert player.name == "Ada Lovelace" and player.kind == "bot" and player.id.startswith("p_")
    assert repository.get(player.id) == player == repository.by_token(token)
    assert repository.by_token(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert repository.get("p_" + "x" * 22) is None
    with engine.connect() as connection:
        profile = standing(connection, player.id)
    assert profile["ratings"] == {} and profile["stats"]["games"] == 0 and profile["stats"]["bags_per_round"] == 0.0
    with engine.connect() as connection:  # the token is kept only as its hash
        stored = connection.execute(select(players.c.token_hash, players.c.name_key, players.c.shape_key)).one()
    assert token not in stored.token_hash and len(stored.token_hash) == 64
    assert (stored.name_key, stored.shape_key) == (name_key("Ada Lovelace"), shape_key("Ada Lovelace"))


def test_names_are_unique_ignoring_case_and_a_rename_frees_the_old_one(engine: Engine):
    repository = PlayerRepository(engine)
    ada, _ = make(repository, "Ada")
    assert code_of(lambda: make(repository, "ADA")) == "name_taken"
    assert code_of(lambda: make(repository, "Ａｄａ")) == "name_taken"
    bob, _ = make(repository, "Bob")
    assert code_of(lambda: repository.rename(bob, display_name("ada"))) == "name_taken"
    assert repository.rename(ada, display_name("ADA")).name == "ADA"  # its own name, in other case
    renamed = repository.rename(ada, display_name("Countess"))
    assert repository.get(ada.id) == renamed
    assert make(repository, "ada")[0].name == "ada"  # free again


def test_two_players_racing_for_one_name_one_gets_it(engine: Engine):
    repository = PlayerRepository(engine)
    start = threading.Barrier(4)
    outcomes: list[str] = []

    def race() -> None:
        start.wait()
        try:
            make(repository, "Racer")
            outcomes.append("made")
        except ApiError as refused:
            outcomes.append(refused.code)

    threads = [threading.Thread(target=race) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["made", "name_taken", "name_taken", "name_taken"]


def test_a_look_alike_of_a_name_is_taken_in_either_case(engine: Engine):
    repository = PlayerRepository(engine)
    heat, _ = make(repository, "HEAT")
    farmer, _ = make(repository, "Farmer")
    for look_alike in ("\u041d\u0415\u0410\u0422", "heat", "ＨＥＡＴ"):  # Cyrillic capitals; case; full-width
        assert code_of(lambda name=look_alike: make(repository, name)) == "name_taken"
    assert code_of(lambda: make(repository, "FARRNER")) == "name_taken"  # rn drawn as m, in another case
    assert code_of(lambda: repository.rename(farmer, display_name("hEAT"))) == "name_taken"
    assert repository.rename(heat, display_name("Heat")).name == "Heat"  # its own name, drawn otherwise
    assert make(repository, "\u041d\u0415\u0410\u0422")[0].name == "НЕАТ"  # not drawn as "Heat"


def test_the_database_refuses_a_look_alike_that_the_look_up_missed(engine: Engine, monkeypatch):
    """Each key's unique index holds on its own: two requests racing with "HEAT" and "НЕАТ" both pass the
    look-up, and the shape key's index refuses the second."""
    repository = PlayerRepository(engine)
    make(repository, "HEAT")
    monkeypatch.setattr(PlayerRepository, "_check_free", staticmethod(lambda *_: None))
    assert code_of(lambda: make(repository, "\u041d\u0415\u0410\u0422")) == "name_taken"  # the shape key
    assert code_of(lambda: make(repository, "heat")) == "name_taken"  # the name key


def test_a_new_token_replaces_the_old_one_and_a_rotation_with_a_stale_token_is_refused(engine: Engine):
    repository = PlayerRepository(engine)
    player, token = make(repository, "Rotor")
    fresh = repository.rotate(player, token)
    assert fresh != token and repository.by_token(token) is None and repository.by_token(fresh) == player
    assert code_of(lambda: repository.rotate(player, token)) == "player_token_invalid"


def test_a_seats_player_is_looked_up_as_it_is_now_and_not_at_all_once_deleted(engine: Engine):
    repository = PlayerRepository(engine)
    player, _ = make(repository, "Ada", "bot")
    bound = player.ref  # as a seat was bound to it
    assert repository.current(bound) == bound
    repository.rename(player, display_name("Countess"))
    assert repository.current(bound) == PlayerRef(player.id, "Countess", "bot")
    assert repository.delete(player)
    assert repository.current(bound) is None
    assert repository.current(PlayerRef("p_" + "x" * 22, "Nobody", "person")) is None


def test_a_computer_level_is_a_player_made_on_first_read(engine: Engine):
    repository = PlayerRepository(engine)
    hard = repository.get("computer-hard")
    assert hard is not None and (hard.id, hard.kind, hard.name) == ("computer-hard", "computer", "hard")
    assert repository.get("computer-hard") == hard  # made once
    assert repository.get("computer-nosuch") is None
    assert not PlayerRepository(engine).delete(hard)  # a level is never deleted


def test_the_standing_shows_each_boards_rating_and_the_stats(engine: Engine):
    repository = PlayerRepository(engine)
    player, _ = make(repository, "Rated")
    with engine.begin() as connection:
        connection.execute(insert(player_ratings).values(_rating(player.id, "partnership", 30.0, 2.0)))
        connection.execute(insert(player_stats).values(_stats(player.id, rounds=8, bags=6)))
    with engine.connect() as connection:
        profile = standing(connection, player.id)
    expected = {"rating": display(Rating(30.0, 2.0)), "mu": 30.0, "sigma": 2.0, "games": 3}
    assert list(profile["ratings"]) == ["partnership"]
    assert {key: profile["ratings"]["partnership"][key] for key in expected} == expected
    assert profile["stats"]["rounds"] == 8 and profile["stats"]["bags_per_round"] == 0.75


def bound_game(game_id: str, player: PlayerRef, seat: int = 0) -> dict:
    """A finished game's record document with ``player`` at ``seat``."""
    record = stored_game(game_id)
    record.seats[seat] = Seat.taken(f"hash-{seat}", player)
    return build(record)


def test_a_deletion_anonymises_the_players_records_and_drops_its_standing(engine: Engine):
    repository, records = PlayerRepository(engine), RecordRepository(engine)
    gone, token = make(repository, "Gone Soon")
    stays, _ = make(repository, "Stays")
    for game_id in ("g-both", "g-gone"):
        records.save(bound_game(game_id, gone.ref), 1, 10)
    records.save(bound_game("g-both2", stays.ref, seat=2), 1, 11)
    both = bound_game("g-old", gone.ref)  # a record found only through player_games (its seat row has no id)
    records.save(both, 1, 12)
    with engine.begin() as connection:
        connection.execute(record_seats.update().where(record_seats.c.game_id == "g-old").values(player_id=None))
        for player in (gone, stays):
            connection.execute(insert(player_ratings).values(_rating(player.id, "partnership", 12.5, 3.0, games=40)))
            connection.execute(insert(player_stats).values(_stats(player.id)))
            for game_id in ("g-gone", "g-old"):
                connection.execute(insert(player_games).values(_game(player.id, game_id)))
        bucket = {"board": "partnership", "kind": "person", "bucket": bucket_of(3.5), "players": 2}  # both: 3.5
        connection.execute(insert(rating_buckets).values(bucket))
        # on the individual board only the one who stays is counted: the other is provisional (3 games)
        connection.execute(insert(player_ratings).values(_rating(stays.id, "individual", 12.5, 3.0, games=40)))
        connection.execute(insert(player_ratings).values(_rating(gone.id, "individual", 12.5, 3.0)))
        connection.execute(insert(rating_buckets).values({**bucket, "board": "individual", "players": 1}))
    assert [row["game_id"] for row in records.page(RecordFilter(player_id=gone.id), None, 10)[0]] == [
        "g-gone",
        "g-both",
    ]

    assert repository.delete(gone) and not repository.delete(gone)

    assert repository.get(gone.id) is None and repository.by_token(token) is None
    assert make(repository, "gone soon")[0].name == "gone soon"  # the name is free
    with engine.connect() as connection:
        row = connection.execute(select(players).where(players.c.id == gone.id)).one()
        assert (row.name, row.name_key, row.shape_key, row.token_hash) == (None,) * 4 and row.deleted_ms is not None
        for table in (player_ratings, player_stats, player_games):
            owners = set(connection.execute(select(table.c.player_id)).scalars())
            assert owners == {stays.id}, table.name
        buckets = dict(connection.execute(select(rating_buckets.c.board, rating_buckets.c.players)).all())
        assert buckets == {"partnership": 1, "individual": 1}  # only a counted rating leaves its bucket
        assert (
            connection.execute(select(record_seats.c.player_id).where(record_seats.c.player_id == gone.id)).all() == []
        )
        bodies = dict(connection.execute(select(game_records.c.game_id, game_records.c.body)).all())
    assert all(gone.id not in body for body in bodies.values())
    assert orjson.loads(bodies["g-gone"])["seats"][0]["player_id"] is None
    assert orjson.loads(bodies["g-both2"])["seats"][2]["player_id"] == stays.id  # others keep theirs
    assert records.page(RecordFilter(player_id=gone.id), None, 10)[0] == []


def test_a_record_stored_after_its_player_deleted_themselves_does_not_name_them(engine: Engine):
    repository, records = PlayerRepository(engine), RecordRepository(engine)
    gone, _ = make(repository, "Left Early")
    repository.delete(gone)
    assert records.save(bound_game("g-late", gone.ref), 1, 10)
    _, body = records.get("g-late")
    assert gone.id.encode() not in body and orjson.loads(body)["seats"][1]["player_id"] == "computer-hard"


def _rating(player_id: str, board: str, mu: float, sigma: float, games: int = 3) -> dict:
    return {"player_id": player_id, "board": board, "kind": "person", "mu": mu, "sigma": sigma,
            "score": mu - 3 * sigma, "games": games, "updated_ms": 1,
            "provisional": provisional(Rating(mu, sigma), games)}  # fmt: skip


def _stats(player_id: str, rounds: int = 4, bags: int = 2) -> dict:
    counts = dict.fromkeys(("games", "wins", "contracts_bid", "contracts_made", "sets", "nils_bid", "nils_made"), 1)
    return {"player_id": player_id, **counts, "rounds": rounds, "bags": bags, "updated_ms": 1}


def _game(player_id: str, game_id: str) -> dict:
    return {"player_id": player_id, "game_id": game_id, "seat": 0, "ended_ms": 10, "won": True,
            "board": "partnership", "rated": False}  # fmt: skip
