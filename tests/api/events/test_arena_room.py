"""An arena run by the events room on the in-memory store: players join, waves pair them into ordinary games,
finished games score them by the arena's rules and put them back in the pool, nobody meets the same opponents in
two games running, and the arena stops pairing at its end and finishes with its last game."""

from __future__ import annotations

import random

import pytest

from services.api.events import arena_room, arena_views
from services.api.events.arena import ArenaRules, Entrant, Table, outcomes, record_game
from services.api.events.arena_room import ArenaRoom
from services.api.events.model import Settings
from services.api.events.service import Events
from services.api.events.storage import EventStorage
from services.api.games import commands, take_back
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest
from services.api.games.record import GameRecord, PlayerRef
from services.api.problems import ApiError
from services.api.store.arena_rooms import MemoryArenaRooms
from services.api.store.event_docs import MemoryEventDocs
from services.api.store.memory_store import MemoryStore
from services.engine import legal_moves, turn

from .test_service import settings

PLAYERS = [PlayerRef(f"p{i:02}", f"Player {i}", "bot" if i % 3 == 0 else "person") for i in range(12)]
MINUTE = 60_000


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


def arena_settings(**changes) -> Settings:
    base = {"name": "Friday arena", "format": "arena", "rounds": 1, "minutes": 10, "clock": "relaxed"}
    return settings(**{**base, **changes})


def service(clock: Clock) -> Events:
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    ratings = {p.id: 1500 + 10 * i for i, p in enumerate(PLAYERS)}
    room = ArenaRoom(ctx, MemoryArenaRooms(), lambda player, board: ratings[player.id], clock=clock)
    return Events(ctx, EventStorage(MemoryEventDocs()), clock=clock, arena=room)


def code(call) -> str:
    with pytest.raises(ApiError) as refused:
        call()
    return refused.value.code


def join(events: Events, event_id: str, player: PlayerRef) -> None:
    """As the route does: the player in, then the arena read (which pairs) as that player."""
    events.arena.join(events.load(event_id), player)
    events.advance(events.load(event_id), player.id)


def play_out(events: Events, game_id: str, rng: random.Random) -> GameRecord:
    """The game played to its end by random legal moves, each seat taken by its player."""
    ctx = events.ctx
    record = ctx.store.load(game_id)
    tokens = {
        seat: take_back.take_seat(ctx, game_id, seat, held.player)["token"] for seat, held in enumerate(record.seats)
    }
    while not record.finished:
        seat = turn(record.state)
        commands.make_move(ctx, game_id, MoveRequest(tokens[seat], move=rng.choice(legal_moves(record.state, seat))))
        record = ctx.store.load(game_id)
    return record


def games_in_play(events: Events, event_id: str) -> dict[str, tuple[str, ...]]:
    return {gid: tuple(e.standing.id for e in entries) for gid, entries in _by_game(events, event_id).items()}


def _by_game(events: Events, event_id: str) -> dict:
    room = events.arena
    found: dict[str, list] = {}
    for player in PLAYERS:
        entry = room.entry(event_id, player.id)
        if entry is not None and entry.game_id is not None:
            found.setdefault(entry.game_id, [None] * 4)[entry.seat] = entry
    return found


def test_an_arena_pairs_scores_and_repairs_until_its_end_with_no_opponent_twice_running():
    clock, rng = Clock(), random.Random(5)
    events = service(clock)
    event = events.create(PLAYERS[0], arena_settings(seating="partners"))
    for player in PLAYERS[:8]:
        join(events, event.event_id, player)
    assert events.arena.counts(event.event_id) == {"entrants": 8, "waiting": 8, "games_in_play": 0}, "open: no pairing"
    event = events.start(event.event_id, PLAYERS[0])
    event = events.advance(event)
    assert events.arena.counts(event.event_id)["games_in_play"] == 2

    rules = ArenaRules(format="partners")
    expected = {p.id: Entrant(p.id, 1500 + 10 * i) for i, p in enumerate(PLAYERS[:8])}
    last_met: dict[str, set[str]] = {}
    played = 0
    while event.status == "running":
        for game_id, seats in games_in_play(events, event.event_id).items():
            record = play_out(events, game_id, rng)
            a, c, b, d = seats  # partners sit opposite: seats 0 and 2 one side, 1 and 3 the other
            table = Table(((a, b), (c, d)))
            for side, others in (((a, b), {c, d}), ((c, d), {a, b})):
                for entrant in side:
                    assert not (others & last_met.get(entrant, set())), "the same opponent in two games running"
                    last_met[entrant] = others
            expected |= record_game(rules, table, outcomes(record.state.scores), expected)
            played += 1
        clock.now += MINUTE
        event = events.advance(events.load(event.event_id))
    assert played >= 10
    assert event.status == "finished" and events.arena.counts(event.event_id)["games_in_play"] == 0
    shown = arena_views.standings_page(event, events.arena, 0, 20)
    assert [(s["player_id"], s["points"], s["games"], s["run"]) for s in shown] == [
        (e.id, e.points, e.games, e.run)
        for e in sorted(expected.values(), key=lambda e: (-e.points * 10_000 - e.performance, e.id))
    ]
    scores = [e.points * 10_000 + e.performance for e in expected.values()]
    assert [s["rank"] for s in shown] == [1 + sum(o > mine for o in scores) for mine in sorted(scores, reverse=True)]


def test_a_withdrawn_player_is_paired_no_more_and_comes_back_with_its_standing():
    clock = Clock()
    events = service(clock)
    event = events.create(PLAYERS[0], arena_settings(seating="solo"))
    events.start(event.event_id, PLAYERS[0])
    for player in PLAYERS[:3]:
        join(events, event.event_id, player)
    events.arena.withdraw(events.load(event.event_id), PLAYERS[1].id)
    join(events, event.event_id, PLAYERS[3])
    assert events.arena.counts(event.event_id) == {"entrants": 4, "waiting": 3, "games_in_play": 0}
    assert events.arena.entry(event.event_id, PLAYERS[1].id).withdrawn
    join(events, event.event_id, PLAYERS[1])  # back: paired at once with the three waiting
    (seats,) = games_in_play(events, event.event_id).values()
    assert sorted(seats) == sorted(p.id for p in PLAYERS[:4])
    record = events.ctx.store.load(next(iter(games_in_play(events, event.event_id))))
    assert record.state.rules.scoring == "individual", "solo: an individual game"
    assert [s.player.id for s in record.seats] == list(seats), "each seat bound to its entrant's player"


def test_the_refusals_have_their_codes():
    clock = Clock()
    events = service(clock)
    arena = events.create(PLAYERS[0], arena_settings(max_players=4))
    duplicate = events.create(PLAYERS[0], arena_settings(format="duplicate_pairs"))
    assert code(lambda: events.create(PLAYERS[0], arena_settings(clock="none"))) == "arena_needs_clock"
    assert code(lambda: events.join(arena.event_id, PLAYERS[0], PLAYERS[1].id)) == "wrong_event_format"
    assert code(lambda: join(events, duplicate.event_id, PLAYERS[0])) == "wrong_event_format"
    assert code(lambda: events.arena.withdraw(events.load(arena.event_id), PLAYERS[0].id)) == "entrant_not_found"
    for player in PLAYERS[:4]:
        join(events, arena.event_id, player)
    assert code(lambda: join(events, arena.event_id, PLAYERS[5])) == "event_full"
    people_only = events.create(PLAYERS[0], arena_settings(bots_allowed=False))
    assert code(lambda: join(events, people_only.event_id, PLAYERS[0])) == "bots_not_allowed"
    events.start(arena.event_id, PLAYERS[0])
    clock.now += 11 * MINUTE
    for game_id in games_in_play(events, arena.event_id):
        play_out(events, game_id, random.Random(1))
    assert events.advance(events.load(arena.event_id)).status == "finished"
    assert code(lambda: join(events, arena.event_id, PLAYERS[6])) == "event_finished"


def test_tied_entrants_share_a_place_on_every_page_of_the_standings():
    clock = Clock()
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    ratings = dict(zip((p.id for p in PLAYERS[:5]), (1500, 1500, 1600, 1500, 1400), strict=True))
    room = ArenaRoom(ctx, MemoryArenaRooms(), lambda player, board: ratings[player.id], clock=clock)
    events = Events(ctx, EventStorage(MemoryEventDocs()), clock=clock, arena=room)
    event = events.create(PLAYERS[0], arena_settings(seating="solo"))
    for player in PLAYERS[:5]:
        room.join(events.load(event.event_id), player)  # nobody paired: each stands on its rating
    whole = [(place, entry.standing.id) for place, entry in room.standings(event.event_id, 0, 10)]
    assert whole == [(0, "p02"), (1, "p00"), (1, "p01"), (1, "p03"), (4, "p04")]
    assert [place for place, _ in room.standings(event.event_id, 2, 3)] == [1, 1, 4], "a page starting mid-tie"
    assert [room.rank(event.event_id, p) for p in ("p03", "p04", "nobody")] == [1, 4, None]


def test_a_big_waves_games_are_made_by_many_reads_the_readers_own_first(monkeypatch):
    monkeypatch.setattr(arena_room, "GAMES_MADE_PER_READ", 1)
    clock = Clock()
    events = service(clock)
    event = events.create(PLAYERS[0], arena_settings(seating="partners"))
    for player in PLAYERS[:12]:
        events.arena.join(events.load(event.event_id), player)  # in, nobody paired: the arena is open
    event = events.start(event.event_id, PLAYERS[0])
    store, room = events.ctx.store, events.arena

    def made() -> dict[str, bool]:
        entries = {p.id: room.entry(event.event_id, p.id) for p in PLAYERS[:12]}
        return {p: store.load(e.game_id) is not None for p, e in entries.items() if e.game_id}

    events.advance(event, PLAYERS[7].id)  # an entrant's read pairs the wave: 3 tables, its own game made
    assert len(made()) == 12 and made()[PLAYERS[7].id] and sum(made().values()) == 4, "one game of the three"
    waiting = next(p for p, done in made().items() if not done)
    events.advance(events.load(event.event_id), waiting)  # a seated entrant's read makes its own game
    assert made()[waiting] and sum(made().values()) == 8
    events.advance(events.load(event.event_id))  # an event's read makes those it looks at
    assert all(made().values())
