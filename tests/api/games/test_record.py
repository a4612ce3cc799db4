"""The typed game (services/api/games/record.py): each part read and written by its one codec, and games stored by
another version of the service read back as they were."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import orjson

from services.api.games import clocks
from services.api.games import record as record_module
from services.api.games.record import (
    KNOWN_META,
    KNOWN_OPTIONS,
    NO_REMATCH,
    Clock,
    GameOptions,
    GameRecord,
    PlayerRef,
    Rematch,
    Seat,
)
from services.engine import make_rules, new_game


def full_record() -> GameRecord:
    """A record with every part set: a bound seat, a stand-in, options, a clock, a rematch waiting for people."""
    seats = [
        Seat.taken("h0", PlayerRef("p1", "Ana", "person")),
        Seat("ai", "hard"),
        Seat("ai", "standard", None, stand_in=True),
        Seat("open"),
    ]
    options = GameOptions("standard", hints=False, public=True, clock="fast", matched=True)
    rematch = Rematch(None, "old", (0,), (3,), (3,), 1_700_000_000_000)
    record = GameRecord("g", 3, seats, "", options, True, 7, seeded=True, creators=("c",), rematch=rematch)
    record = record.with_state(new_game(make_rules("partnership"), 5))
    record.clock = clocks.new_clock("fast")
    return record


def test_a_record_reads_back_as_it_was_written():
    record = full_record()
    again = GameRecord.from_stored("g", 3, record.meta_json(), record.state_json, record.rounds_json)
    assert (again.seats, again.options, again.clock, again.rematch) == (
        record.seats,
        record.options,
        record.clock,
        record.rematch,
    )
    assert (again.started, again.seq, again.seeded, again.creators) == (True, 7, True, ("c",))
    assert again.meta_json() == record.meta_json()


def test_a_game_stored_with_fewer_options_reads_with_their_defaults():
    """Options stored before ``public``, ``clock`` and ``matched`` existed: off, no clock, not matched."""
    meta = {"seats": [["human", None, "h"]] * 4, "options": {"ai_takeover": None, "hints": True}, "started": False}
    meta |= {"seq": 0, "log": [1]}
    record = GameRecord.from_stored("g", 1, orjson.dumps(meta), "", "[]")
    assert record.options == GameOptions(None, hints=True, public=False, clock="none", matched=False)
    assert record.clock is None and record.rematch is NO_REMATCH and not record.rematch
    assert "table" not in orjson.loads(record.meta_json())


def test_a_rematch_writes_only_the_keys_it_has():
    assert NO_REMATCH.to_json() == {}
    offered = Rematch(next_game="n")
    assert offered.to_json() == {"rematch": "n"} and offered
    by_west = Rematch(next_game="n", offered_by=1)
    assert by_west.to_json() == {"rematch": "n", "by": 1} and Rematch.from_json(by_west.to_json()) == by_west
    joined_all = Rematch(None, "old", (0, 1), (1,), (), 5)
    assert joined_all.to_json() == {"rematch_of": "old", "joined": [0, 1], "people": [1], "reserved": [], "until": 5}
    assert Rematch.from_json(joined_all.to_json()) == joined_all
    ended = Rematch(None, "old", (0,), (1,))
    assert ended.to_json() == {"rematch_of": "old", "joined": [0], "people": [1]}


def test_a_clock_writes_what_its_turn_was_given_only_when_it_was_given_some():
    clock = clocks.new_clock("fast")
    assert clock is not None and "given" not in clock.to_json(), "read as it is by a process that predates it"
    given = replace(clock, seat=1, turn_started_ms=5, deadline_ms=9_000, given_ms=3_000, given_until_ms=7_000)
    assert given.to_json()["given"] == [3_000, 7_000]
    assert Clock.from_json(given.to_json()) == given and Clock.from_json(clock.to_json()) == clock


def test_options_write_matched_only_when_set():
    assert GameOptions("basic").to_json() == {"ai_takeover": "basic", "hints": True, "public": False, "clock": "none"}
    assert GameOptions("basic", matched=True).to_json()["matched"] is True


def test_away_and_computer_only_read_the_clock():
    record = full_record()
    assert not record.away(0) and not record.computer_only
    record.clock = None
    assert not record.away(0)
    all_computers = GameRecord("c", 1, [Seat("ai", "basic")] * 4, "")
    assert all_computers.computer_only


def newer_meta(record: GameRecord) -> dict:
    """``record``'s stored meta as a newer release might write it: a key of its own at the top, an option of its own,
    and each seat's list one item longer."""
    meta = orjson.loads(record.meta_json())
    meta["stamp"] = {"release": "next", "version": record.version}
    meta["options"]["variant"] = "mirror"
    defaults = [False, None, None, None]  # stand_in, player id, name, kind: what a shorter list leaves out
    meta["seats"] = [[*seat, *defaults[len(seat) - 3 :], "newer"] for seat in meta["seats"]]
    return meta


def test_a_game_a_newer_release_wrote_reads_as_this_release_knows_it():
    """A rolling upgrade or a rollback: a game written by a release with more keys reads without an error, each
    known part as it was."""
    record = full_record()
    again = GameRecord.from_stored("g", 3, orjson.dumps(newer_meta(record)), record.state_json, record.rounds_json)
    assert again.seats == record.seats
    assert (again.options.ai_takeover, again.options.clock, again.options.matched) == ("standard", "fast", True)
    assert (again.clock, again.rematch, again.creators) == (record.clock, record.rematch, record.creators)


def test_a_newer_releases_keys_are_kept_through_this_releases_commits():
    """The game's next version, written by this release, still holds what the newer one stored (its seats' extra
    items excepted: Seat's docstring)."""
    record = full_record()
    stored = GameRecord.from_stored("g", 3, orjson.dumps(newer_meta(record)), record.state_json, record.rounds_json)
    nxt = stored.successor()
    nxt.seq += 1
    written = orjson.loads(nxt.meta_json())
    assert written["stamp"] == {"release": "next", "version": 3}
    assert written["options"]["variant"] == "mirror"
    assert written["seats"] == orjson.loads(record.meta_json())["seats"]
    assert GameRecord.from_stored("g", 4, nxt.meta_json(), nxt.state_json, nxt.rounds_json).unknown == {
        "stamp": {"release": "next", "version": 3}
    }


def test_a_game_of_this_release_writes_no_key_it_did_not_read():
    record = full_record()
    assert record.unknown == {} and record.options.unknown == ()
    assert set(orjson.loads(record.meta_json())) <= KNOWN_META
    assert set(record.options.to_json()) <= KNOWN_OPTIONS


def meta_keys(function: ast.FunctionDef) -> set[str]:
    """The keys ``function`` reads or writes: ``meta["k"]``, ``data["k"]``, ``meta.get("k")``, ``{"k": …}``."""
    found = set()
    for node in ast.walk(function):
        key = None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in ("meta", "data"):
            key = node.slice
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            owner = node.func.value
            key = node.args[0] if isinstance(owner, ast.Name) and owner.id in ("meta", "data") and node.args else None
        elif isinstance(node, ast.Dict):
            found |= {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            found.add(key.value)
    return found


def methods(class_name: str) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(Path(record_module.__file__).read_text(encoding="utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name]
    return {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}


def test_the_known_keys_are_the_keys_the_codecs_read_and_write():
    """A key added to ``from_stored`` or ``meta_json`` (or to the options' codec) without being named known would
    be read as a newer release's too, and written back stale over the field that now holds it."""
    record = methods("GameRecord")
    assert meta_keys(record["from_stored"]) | meta_keys(record["meta_json"]) == KNOWN_META
    options = methods("GameOptions")
    assert meta_keys(options["from_json"]) | meta_keys(options["to_json"]) == KNOWN_OPTIONS
