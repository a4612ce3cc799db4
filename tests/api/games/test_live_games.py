"""Each player's games in play (services.api.games.live_games), on the memory store: the index the commits that bind
or free a player's seat keep, and its reading, which shows only what the games' records say now."""

from __future__ import annotations

from services.api.games import commands, live_games, take_back
from services.api.games import record as record_module
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord, PlayerRef
from services.api.games.rendering import ViewCache
from services.api.http import request_schemas
from services.api.store.memory_store import MemoryStore

from .test_rematch import finished_game

ADA = PlayerRef("p_" + "a" * 22, "Ada", "person")
BEA = PlayerRef("p_" + "b" * 22, "Bea", "person")


def new_ctx() -> Collaborators:
    return Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(64))


def create(ctx: Collaborators, seats: list[dict], player: PlayerRef | None = ADA, **options) -> tuple[str, list]:
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats, "options": options})
    created = commands.create_game(ctx, body, player=player)
    return created["game_id"], [s.get("token") for s in created["seats"]]


def listed(ctx: Collaborators, player: PlayerRef) -> list[tuple[str, int]]:
    return [(g["game_id"], g["seat"]) for g in live_games.live_games(ctx.store, player.id)]


MINE = {"type": "human", "player": True}
OPEN, HUMAN, AI = {"type": "open"}, {"type": "human"}, {"type": "ai", "level": "basic"}


def test_a_game_is_listed_for_the_player_of_each_seat_bound_at_creation_or_by_a_claim():
    ctx = new_ctx()
    game_id, _ = create(ctx, [MINE, OPEN, AI, AI])
    assert listed(ctx, ADA) == [(game_id, 0)] and listed(ctx, BEA) == []
    commands.claim_seat(ctx, game_id, 1, BEA)
    assert listed(ctx, BEA) == [(game_id, 1)]
    entry = live_games.live_games(ctx.store, ADA.id)[0]
    assert entry["phase"] == "bidding" and entry["turn"] in range(4) and entry["round"] == 1
    assert [s["player"] for s in entry["seats"]][:2] == [
        {"id": ADA.id, "name": "Ada", "kind": "person"},
        {"id": BEA.id, "name": "Bea", "kind": "person"},
    ]
    assert "token" not in str(entry) and not entry["stand_in"]


def test_the_waiting_phase_and_no_turn_while_a_seat_is_open():
    ctx = new_ctx()
    create(ctx, [MINE, OPEN, AI, AI])
    entry = live_games.live_games(ctx.store, ADA.id)[0]
    assert (entry["phase"], entry["turn"]) == ("waiting", None)


def test_the_most_lately_changed_game_comes_first(monkeypatch):
    ticks = iter(range(1_000_000, 2_000_000, 1000))  # each version a second after the one before
    monkeypatch.setattr(record_module, "now_ms", lambda: next(ticks))
    monkeypatch.setattr(commands, "now_ms", lambda: next(ticks))
    ctx = new_ctx()
    first, _ = create(ctx, [MINE, OPEN, AI, AI])
    second, _ = create(ctx, [MINE, OPEN, AI, AI])
    commands.claim_seat(ctx, first, 1)  # the first game changes last
    assert [g for g, _ in listed(ctx, ADA)] == [first, second]


def test_a_leave_to_an_open_seat_forgets_the_game_and_a_stand_in_keeps_it_listed():
    ctx = new_ctx()
    freed, tokens = create(ctx, [MINE, HUMAN, AI, AI], ai_takeover=None)
    commands.leave_seat(ctx, freed, 0, tokens[0])
    assert listed(ctx, ADA) == [] and ctx.store.player_games(ADA.id) == []
    kept, tokens = create(ctx, [MINE, HUMAN, AI, AI], ai_takeover="basic")
    commands.leave_seat(ctx, kept, 0, tokens[0])
    entry = live_games.live_games(ctx.store, ADA.id)[0]
    assert (entry["game_id"], entry["stand_in"]) == (kept, True)


def test_a_finished_game_is_forgotten_and_a_gone_one_pruned_on_read():
    ctx = new_ctx()
    over, _ = finished_game(ctx, player=ADA)
    assert ctx.store.player_games(ADA.id) == [] and listed(ctx, ADA) == []
    game_id, _ = create(ctx, [MINE, OPEN, AI, AI])
    ctx.store.note_player_game(ADA.id, "gone-game", 1)  # a game that expired: its entry is a stale hint
    ctx.store.note_player_game(ADA.id, over, 2)
    assert listed(ctx, ADA) == [(game_id, 0)]
    assert ctx.store.player_games(ADA.id) == [game_id]


def test_a_seat_no_longer_the_players_is_not_listed():
    ctx = new_ctx()
    game_id, _ = create(ctx, [HUMAN, OPEN, AI, AI], player=None)
    ctx.store.note_player_game(ADA.id, game_id, 1)  # a forgetting that failed: the record is the truth
    assert listed(ctx, ADA) == []


def test_a_take_keeps_the_game_listed_and_ordinary_moves_never_touch_the_index():
    ctx = new_ctx()
    game_id, _ = create(ctx, [MINE, AI, AI, AI])
    take_back.take_seat(ctx, game_id, 0, ADA)
    assert listed(ctx, ADA) == [(game_id, 0)]
    noted = []
    ctx.store.note_player_game = lambda *args: noted.append(args)  # type: ignore[method-assign]
    record = ctx.store.load(game_id)
    assert not live_games.bound_players(record) - {ADA.id}
    live_games.after_commit(ctx.store, record, record.successor())  # a move: the same players bound
    assert noted == []


def test_a_change_noted_before_its_write_is_noted_again_after_it():
    """A reader that loads the game before its creation is written forgets the game; the note after the write
    puts it back."""
    ctx = new_ctx()
    game_id, _ = create(ctx, [MINE, OPEN, AI, AI])
    record = ctx.store.load(game_id)
    ctx.store.forget_player_games(ADA.id, [game_id])
    live_games.after_commit(ctx.store, None, record)
    assert listed(ctx, ADA) == [(game_id, 0)]
