"""Records in SQLite (the embedded default): stored once per game, the newest version kept; an abandoned
game's record hidden from every read until it is shown; pages that neither skip nor repeat; filters; a
stream in batches, and an export's end and continuation; retention."""

from __future__ import annotations

import orjson

from services.api.records import repository as repository_module
from services.api.records.content import build
from services.api.records.repository import RecordFilter, RecordRepository, decode_cursor, encode_cursor

from .conftest import stored_game


def save(repository: RecordRepository, game_id: str, ended: int, over: bool = True) -> dict:
    """A record stored and shown (an abandoned game's as once its game is gone)."""
    record = stored_game(game_id, over=over)
    document = build(record)
    repository.save(document, 1, ended)
    repository.reveal([game_id])
    return document


def test_an_abandoned_games_record_is_hidden_from_every_read_until_it_is_shown(sqlite_engine):
    repository = RecordRepository(sqlite_engine)
    save(repository, "over", 100)
    abandoned = build(stored_game("gone", over=False))
    assert repository.save(abandoned, 1, 200)

    def everything() -> tuple:
        page = [row["game_id"] for row in repository.page(RecordFilter(), None, 10)[0]]
        streamed = [orjson.loads(body)["game_id"] for body in repository.stream(RecordFilter())]
        return repository.get("gone"), page, streamed, repository.export_end(RecordFilter(), None, 1)

    assert everything() == (None, ["over"], ["over"], None)
    assert repository.hidden("", 10) == ["gone"]
    assert repository.reveal(["gone", "over"]) == 1  # only hidden ones count
    outcome, _ = repository.get("gone")
    assert outcome == "abandoned" and everything()[1:] == (["gone", "over"], ["gone", "over"], (200, "gone"))
    assert repository.hidden("", 10) == []


def test_a_record_written_twice_is_stored_once_and_a_later_version_replaces_it(sqlite_engine):
    repository = RecordRepository(sqlite_engine)
    document = build(stored_game("g1"))
    assert repository.save(document, 1, 10)
    assert not repository.save(document, 1, 10)
    assert not repository.save({**document, "version": document["version"] - 1}, 1, 10)
    assert repository.save({**document, "version": document["version"] + 1}, 1, 11)
    outcome, body = repository.get("g1")
    assert outcome == "finished" and orjson.loads(body)["version"] == document["version"] + 1
    assert len(repository.page(RecordFilter(), None, 10)[0]) == 1


def test_pages_go_newest_first_and_never_skip_or_repeat(sqlite_engine):
    repository = RecordRepository(sqlite_engine)
    for n in range(7):
        save(repository, f"g{n}", 100 + n // 2)  # ties on ended_ms: the game id breaks them
    seen, cursor = [], None
    while True:
        page, cursor = repository.page(RecordFilter(), cursor, 3)
        seen += [row["game_id"] for row in page]
        if cursor is None:
            break
        save(repository, f"late{len(seen)}", 200)  # newer records arriving meanwhile don't disturb the walk
    assert seen == ["g6", "g5", "g4", "g3", "g2", "g1", "g0"]
    assert decode_cursor(encode_cursor((5, "g:x"))) == (5, "g:x")


def test_filters_by_time_player_and_result(sqlite_engine):
    repository = RecordRepository(sqlite_engine)
    finished = save(repository, "won", 100)
    save(repository, "gone", 200, over=False)
    winners = {s["level"] or "human" for s in finished["seats"] if s["won"]}
    losers = {s["level"] or "human" for s in finished["seats"] if not s["won"]}

    def ids(**where) -> list[str]:
        return [row["game_id"] for row in repository.page(RecordFilter(**where), None, 10)[0]]

    assert ids(since=150) == ["gone"] and ids(until=150) == ["won"]
    assert ids(result="abandoned") == ["gone"] and ids(result="finished") == ["won"]
    assert ids(player="hard") == ["gone", "won"] and ids(player="pro") == []
    for player in winners:
        assert ids(player=player, result="won") == ["won"]
    for player in losers - winners:
        assert ids(player=player, result="won") == []
        assert ids(player=player, result="lost") == ["won"]


def test_the_stream_reads_in_batches_newest_first(sqlite_engine, monkeypatch):
    monkeypatch.setattr(repository_module, "STREAM_BATCH", 2)
    repository = RecordRepository(sqlite_engine)
    for n in range(5):
        save(repository, f"g{n}", 100 + n)
    streamed = [orjson.loads(body)["game_id"] for body in repository.stream(RecordFilter())]
    assert streamed == ["g4", "g3", "g2", "g1", "g0"]


def test_retention_deletes_records_that_ended_before_the_bound(sqlite_engine):
    repository = RecordRepository(sqlite_engine)
    save(repository, "old", 100)
    save(repository, "new", 300)
    assert repository.purge(200) == 1
    assert repository.get("old") is None and repository.get("new") is not None


def test_an_export_stops_at_its_most_records_and_goes_on_from_there(sqlite_engine, monkeypatch):
    monkeypatch.setattr(repository_module, "STREAM_BATCH", 2)
    repository = RecordRepository(sqlite_engine)
    for n in range(7):
        save(repository, f"g{n}", 100 + n // 2)  # ties on ended_ms: the game id breaks them
    exported, after = [], None
    while True:
        end = repository.export_end(RecordFilter(), after, 3)
        part = [orjson.loads(body)["game_id"] for body in repository.stream(RecordFilter(), after, end)]
        assert len(part) == 3 or end is None
        exported += part
        if end is None:
            break
        after = decode_cursor(encode_cursor(end))
    assert exported == ["g6", "g5", "g4", "g3", "g2", "g1", "g0"]
    assert repository.export_end(RecordFilter(), None, 7) is None  # exactly all: nothing follows
    assert repository.export_end(RecordFilter(player="pro"), None, 1) is None
