"""The events service on the in-memory store: pairs join, the event starts, every round's tables are ordinary games
dealt the same cards, the next round starts when they finish, a no-show's seats go to computers and score 40 %."""

from __future__ import annotations

import random

import pytest

from services.api.events import views
from services.api.events.model import Event, Settings
from services.api.events.service import Events
from services.api.events.storage import EventStorage
from services.api.games import commands, take_back
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest
from services.api.games.record import GameRecord, PlayerRef
from services.api.problems import ApiError
from services.api.store.event_docs import MemoryEventDocs
from services.api.store.memory_store import MemoryStore
from services.engine import Bid, card_code, legal_moves, turn
from services.engine.game import dealt

PLAYERS = [PlayerRef(f"p{i}", f"Player {i}", "bot" if i >= 14 else "person") for i in range(16)]


def settings(**changes) -> Settings:
    base = dict(
        name="Club night",
        format="duplicate_pairs",
        max_pairs=8,
        deals_per_round=1,
        rounds=7,
        clock="none",
        rated=False,
        bots_allowed=True,
        stand_in_level="easy",
    )
    return Settings(**{**base, **changes})


def service() -> Events:
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    return Events(ctx, EventStorage(MemoryEventDocs()))


def code(events: Events, call) -> str:
    with pytest.raises(ApiError) as refused:
        call()
    return refused.value.code


def with_pairs(events: Events, pairs: int, **changes):
    event = events.create(PLAYERS[0], settings(**changes))
    ids = []
    for i in range(pairs):
        first, second = PLAYERS[2 * i], PLAYERS[2 * i + 1]
        pair = events.join(event.event_id, first, second.id)
        events.accept(event.event_id, pair.pair_id, second)
        ids.append(pair.pair_id)
    return event, ids


def play_round(events: Events, event, rng: random.Random) -> list[tuple]:
    """Every table of the current round played out by random legal moves; each table's first deal."""
    ctx = events.ctx
    deals = []
    for table in event.rounds[-1].tables:
        record = ctx.store.load(table.game_id)
        deals.append(dealt(record.state))
        tokens = {}
        for seat, held in enumerate(record.seats):
            if held.type == "human":
                tokens[seat] = take_back.take_seat(ctx, table.game_id, seat, held.player)["token"]
        record = ctx.store.load(table.game_id)
        while not record.finished:
            seat = turn(record.state)
            move = rng.choice(legal_moves(record.state, seat))
            if seat in tokens:
                commands.make_move(ctx, table.game_id, MoveRequest(tokens[seat], move=move))
            else:
                decision = {"bid": move.tricks} if isinstance(move, Bid) else {"card": card_code(move.card)}
                assert commands.apply_ai_move(ctx, table.game_id, record.version, seat, decision)
            record = ctx.store.load(table.game_id)
    return deals


def play_par(events: Events, par: GameRecord, rng: random.Random) -> GameRecord:
    """The expert table played out by random legal moves, as the AI workers would answer its turns."""
    while not par.finished:
        seat = turn(par.state)
        move = rng.choice(legal_moves(par.state, seat))
        decision = {"bid": move.tricks} if isinstance(move, Bid) else {"card": card_code(move.card)}
        assert commands.apply_ai_move(events.ctx, par.game_id, par.version, seat, decision)
        par = events.game(par.game_id)
    return par


def test_an_event_of_eight_pairs_plays_seven_rounds_with_the_same_cards_at_every_table():
    events = service()
    event, _pair_ids = with_pairs(events, 8)
    event = events.start(event.event_id, PLAYERS[0])
    assert event.status == "running" and len(event.rounds) == 1
    withdrawn = event.pairs[-1]
    events.withdraw(event.event_id, withdrawn.pair_id, PLAYERS[15])
    rng = random.Random(5)
    secrets_seen = set()
    for number in range(1, 8):
        event = events.advance(events.load(event.event_id))
        current = event.rounds[-1]
        assert current.number == number
        assert current.no_shows == (() if number == 1 else (8,))
        secrets_seen.add(current.secret)
        records = [events.game(t.game_id) for t in current.tables]
        assert all(not r.seeded and r.state.rules.deals == 1 for r in records)
        for table, record in zip(current.tables, records, strict=True):
            humans = [s.type for s in record.seats]
            if 8 in (table.ns, table.ew):  # withdrawn in round 1 (its stand-ins took over), a no-show since
                assert humans.count("ai") == 2
            else:
                assert humans == ["human"] * 4
        deals = play_round(events, event, rng)
        assert len(set(deals)) == 1, "every table of a round is dealt the same cards"
    event = events.advance(events.load(event.event_id))
    assert event.status == "finished" and len(secrets_seen) == 7
    body = views.event_view(event, events.results(event))
    assert "secret" not in str(body)
    assert sorted(s["pair"] for s in body["standings"]) == list(range(1, 9))
    for board in range(2, 8):  # pair 8 missed rounds 2 to 7: 40 % of the top, 6
        sheet = views.scoresheet(event, events.results(event), board)
        mine = next(t for t in sheet["tables"] if 8 in (t["ns"], t["ew"]))
        side = "ns" if mine["ns"] == 8 else "ew"
        assert mine["matchpoints"][side] == 2.4 and mine["no_show"] == [8]
        for row in sheet["tables"]:
            if 8 not in (row["ns"], row["ew"]):
                assert row["matchpoints"]["ns"] + row["matchpoints"]["ew"] == 6


def test_an_odd_field_is_evened_by_a_computer_pair_never_ranked():
    events = service()
    event, _ = with_pairs(events, 3, rounds=2)
    event = events.start(event.event_id, PLAYERS[0])
    assert [p.kind for p in event.pairs] == ["players"] * 3 + ["computer"]
    assert event.settings.rounds == 2
    play_round(events, event, random.Random(1))
    event = events.advance(events.load(event.event_id))
    assert event.rounds[-1].number == 2
    body = views.event_view(event, events.results(event))
    assert sorted(s["pair"] for s in body["standings"]) == [1, 2, 3]


def test_the_refusals_have_their_codes():
    events = service()
    event, _pair_ids = with_pairs(events, 2, max_pairs=3, bots_allowed=False)
    eid = event.event_id
    assert code(events, lambda: events.join(eid, PLAYERS[0], PLAYERS[5].id)) == "already_in_event"
    assert code(events, lambda: events.join(eid, PLAYERS[4], PLAYERS[4].id)) == "partner_invalid"
    assert code(events, lambda: events.join(eid, PLAYERS[14], PLAYERS[4].id)) == "bots_not_allowed"
    assert code(events, lambda: events.start(eid, PLAYERS[0])) == "too_few_pairs"
    assert code(events, lambda: events.start(eid, PLAYERS[1])) == "not_event_creator"
    pair = events.join(eid, PLAYERS[4], PLAYERS[5].id)
    assert code(events, lambda: events.accept(eid, pair.pair_id, PLAYERS[6])) == "not_invited"
    assert code(events, lambda: events.join(eid, PLAYERS[6], PLAYERS[7].id)) == "event_full"
    events.accept(eid, pair.pair_id, PLAYERS[5])
    events.start(eid, PLAYERS[0])
    assert code(events, lambda: events.join(eid, PLAYERS[8], PLAYERS[9].id)) == "event_not_open"
    assert code(events, lambda: events.load("nope")) == "event_not_found"
    assert code(events, lambda: events.create(PLAYERS[0], settings(format="arena"))) == "event_format_unsupported"
    assert code(events, lambda: events.create(PLAYERS[0], settings(rated=True))) == "event_rated_needs_clock"


def test_withdrawing_before_the_start_leaves_the_event():
    events = service()
    event, pair_ids = with_pairs(events, 4)
    after = events.withdraw(event.event_id, pair_ids[1], PLAYERS[3])
    assert [p.pair_id for p in after.pairs] == [pair_ids[0], *pair_ids[2:]]


def test_an_event_past_its_start_time_starts_on_the_next_read():
    now = [1_000]
    events = service()
    events.clock = lambda: now[0]
    event, _ = with_pairs(events, 4, start_at_ms=5_000)
    assert events.advance(events.load(event.event_id)).status == "open"
    now[0] = 5_000
    assert events.advance(events.load(event.event_id)).status == "running"


def test_the_par_is_what_four_experts_score_with_the_same_cards():
    events = service()
    event, _ = with_pairs(events, 4, rounds=1, par=True)
    event = events.start(event.event_id, PLAYERS[0])
    rnd = event.rounds[0]
    par = events.game(rnd.par_game_id)
    assert [(s.type, s.level) for s in par.seats] == [("ai", "expert")] * 4
    assert not par.seeded and par.state.rules.deals == 1
    deals = play_round(events, event, random.Random(3))
    assert dealt(par.state) == deals[0], "the expert table is dealt the round's cards"
    event = events.advance(events.load(event.event_id))
    assert event.status == "finished", "the next round (here the end) does not wait for the par"
    assert views.scoresheet(event, events.results(event), 1, events.pars(event))["par"] is None
    par = play_par(events, par, random.Random(4))
    sheet = views.scoresheet(event, events.results(event), 1, events.pars(event))
    assert sheet["par"] == {"ns": par.state.history[0].points[0], "ew": par.state.history[0].points[1]}


def test_a_finished_rounds_results_outlive_its_games():
    """A finished round keeps its tables' deals in the event: its games expire from the game store an hour after
    their records are written, and the standings and scoresheets stay as they were (and read no game)."""
    events = service()
    event, _ = with_pairs(events, 4, rounds=3, deals_per_round=2)
    event = events.start(event.event_id, PLAYERS[0])
    rng = random.Random(11)
    while event.status == "running":
        play_round(events, event, rng)
        event = events.advance(events.load(event.event_id))
    assert event.status == "finished" and all(len(r.results) == 2 * len(r.tables) for r in event.rounds)
    standings = views.event_view(event, events.results(event))["standings"]
    sheets = [views.scoresheet(event, events.results(event), board) for board in range(1, 7)]
    for rnd in event.rounds:
        for table in rnd.tables:
            assert events.ctx.store.end_game(table.game_id, events.game(table.game_id).version)
    stored = events.load(event.event_id)
    assert stored.rounds == event.rounds, "kept in the stored event"
    assert views.event_view(stored, events.results(stored))["standings"] == standings
    assert [views.scoresheet(stored, events.results(stored), board) for board in range(1, 7)] == sheets


def test_the_par_is_kept_in_its_round_once_its_table_finishes_and_outlives_its_game():
    """The expert table finishes after its round here (the next round does not wait for it): the first read that
    finds it finished keeps its points in the round, and the scoresheet shows the par after its game is gone."""
    events = service()
    event, _ = with_pairs(events, 4, rounds=2, deals_per_round=2, par=True)
    event = events.start(event.event_id, PLAYERS[0])
    play_round(events, event, random.Random(6))
    event = events.advance(events.load(event.event_id))
    assert event.rounds[-1].number == 2 and event.rounds[0].par == (), "round 2 began; round 1's par plays on"
    par = events.game(event.rounds[0].par_game_id)
    par = play_par(events, par, random.Random(7))
    points = tuple((r.points[0], r.points[1]) for r in par.state.history[:2])
    version = event.version
    event = events.advance(events.load(event.event_id))
    assert event.version == version + 1 and event.rounds[0].par == points, "kept by the read that found it finished"
    assert events.advance(events.load(event.event_id)).version == event.version, "kept once"
    assert events.ctx.store.end_game(par.game_id, par.version)
    stored = events.load(event.event_id)
    assert stored.rounds[0].par == points and events.game(par.game_id) is None
    for deal in (1, 2):
        sheet = views.scoresheet(stored, events.results(stored), deal, events.pars(stored))
        assert sheet["par"] == {"ns": points[deal - 1][0], "ew": points[deal - 1][1]}


def test_an_event_stored_without_kept_pars_reads_with_none():
    events = service()
    event, _ = with_pairs(events, 4, rounds=1, par=True)
    event = events.start(event.event_id, PLAYERS[0])
    doc = event.to_json()
    for rnd in doc["rounds"]:
        del rnd["par"]
    assert Event.from_json(doc) == event and event.rounds[0].par == ()
