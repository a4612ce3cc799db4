"""Seats bound to players (on the memory store): a seat taken with a player keeps the player's id, name and
kind through every change that keeps its person (a rejoin, a rematch), loses it with a leave, shows it in views
and events, and is stored so that seats stored before players existed read back unchanged.  Deletion is final:
a player who deleted themselves gets no seat from their old seat token, neither a rematch's nor a rejoin's."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import orjson
import pytest

from services.api.games import commands, rejoin, rematch
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord, PlayerRef, Seat
from services.api.games.rendering import ViewCache
from services.api.games.seat_players import AS_BOUND, live_player
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.records.content import build
from services.api.store.memory_store import MemoryStore

from .test_rematch import finished_game

ADA = PlayerRef("p_" + "a" * 22, "Ada", "person")
BOT = PlayerRef("p_" + "b" * 22, "Deep Spade", "bot")
ADA_SEEN = {"id": ADA.id, "name": "Ada", "kind": "person"}


class Directory:
    """The players as the records database has them (:class:`services.api.games.seat_players.Players`): a rename
    or a deletion shows at the next look-up."""

    def __init__(self, *players: PlayerRef) -> None:
        self.players = {player.id: player for player in players}
        self.looked_up: list[str] = []
        self.dead: set[str] = set()  # credentials revoked (sessions' ids, old player tokens' marks)

    def current(self, player: PlayerRef) -> PlayerRef | None:
        self.looked_up.append(player.id)
        found = self.players.get(player.id)
        return None if found is None else PlayerRef(found.id, found.name, found.kind, player.credential)

    def lapsed(self, player_id: str, credentials: Collection[str]) -> frozenset[str]:
        if player_id not in self.players:
            return frozenset(credentials)
        return frozenset(credentials) & self.dead

    def delete(self, player: PlayerRef) -> None:
        del self.players[player.id]


def code_of(call: Any) -> str:
    with pytest.raises(ApiError) as error:
        call()
    return error.value.code


def create(ctx: Collaborators, seats: list[dict], player: PlayerRef | None) -> tuple[str, list[str | None]]:
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats})
    created = commands.create_game(ctx, body, player=player)
    return created["game_id"], [seat.get("token") for seat in created["seats"]]


def test_the_seat_marked_player_is_the_players_and_views_and_events_show_it():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(64))
    seats = [{"type": "human", "player": True}, {"type": "open"}, {"type": "ai", "level": "hard"}, {"type": "human"}]
    game_id, _ = create(ctx, seats, ADA)
    record = ctx.store.load(game_id)
    assert record.seats[0].player == ADA and record.seats[3].player is None
    shown = commands.game_view(record, None)["seats"]
    assert [seat["player"] for seat in shown] == [
        ADA_SEEN,
        None,
        {"id": "computer-hard", "name": "hard", "kind": "computer"},
        None,
    ]
    created = ctx.store.events_after(game_id, 0, 10)[0]
    assert created["type"] == "game_created" and created["data"]["seats"][0]["player"] == ADA_SEEN


def test_a_claim_with_a_player_binds_the_seat_and_one_player_holds_one_seat_of_a_game():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    game_id, _ = create(ctx, [{"type": "human", "player": True}] + [{"type": "open"}] * 3, ADA)
    assert code_of(lambda: commands.claim_seat(ctx, game_id, 1, ADA)) == "player_seated"
    claimed = commands.claim_seat(ctx, game_id, 1, BOT)
    assert claimed["state"]["seats"][1]["player"] == {"id": BOT.id, "name": "Deep Spade", "kind": "bot"}
    commands.claim_seat(ctx, game_id, 2)  # without a player: a person all the same
    assert ctx.store.load(game_id).seats[2].player is None


def test_a_stand_in_plays_for_the_player_who_left_until_someone_claims_the_seat():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    game_id, tokens = create(ctx, [{"type": "human", "player": True}] + [{"type": "human"}] * 3, ADA)
    left = commands.leave_seat(ctx, game_id, 0, tokens[0])
    assert left["seats"][0]["player"] == {"id": "computer-standard", "name": "standard", "kind": "computer"}
    # the record gives the result to the player who left: leaving is no way out of a loss
    assert build(ctx.store.load(game_id))["seats"][0]["player_id"] == ADA.id
    assert code_of(lambda: commands.claim_seat(ctx, game_id, 1, ADA)) == "seat_taken"
    commands.leave_seat(ctx, game_id, 2, tokens[2])
    assert code_of(lambda: commands.claim_seat(ctx, game_id, 2, ADA)) == "player_seated"  # her stand-in plays on
    back = commands.claim_seat(ctx, game_id, 0, ADA)  # her own seat back
    assert ctx.store.load(game_id).seats[0].player == ADA
    commands.leave_seat(ctx, game_id, 0, back["token"])
    commands.claim_seat(ctx, game_id, 0, BOT)  # someone else takes it: the seat is theirs from now on
    assert build(ctx.store.load(game_id))["seats"][0]["player_id"] == BOT.id
    commands.leave_seat(ctx, game_id, 1, tokens[1])  # a person without a player: the stand-in is nobody's
    assert build(ctx.store.load(game_id))["seats"][1]["player_id"] is None


def test_a_rejoin_keeps_the_seats_player():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    game_id, tokens = create(ctx, [{"type": "human", "player": True}] + [{"type": "human"}] * 3, ADA)
    code = rejoin.create_code(ctx, game_id, 0, tokens[0])["code"]
    rejoin.redeem(ctx, game_id, code)
    assert ctx.store.load(game_id).seats[0].player == ADA


def test_a_rematch_seat_is_the_player_of_the_seat_it_comes_from_or_of_the_token_sent():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    game_id, tokens = finished_game(ctx)
    old = ctx.store.load(game_id)
    nxt = old.successor()
    nxt.seats[0] = Seat.taken(old.seats[0].token_hash, ADA)  # as if seat 0 had been taken with Ada's token
    assert ctx.store.commit(nxt, old, [])
    joined = rematch.opt_in(ctx, game_id, tokens[0])
    assert joined["state"]["seats"][0]["player"] == ADA_SEEN
    again = rematch.opt_in(ctx, game_id, tokens[1], player=BOT)
    assert ctx.store.load(again["game_id"]).seats[1].player == BOT


def finished_as(ctx: Collaborators, player: PlayerRef) -> tuple[str, list[str]]:
    """A finished game of two people and two computers whose seat 0 was taken as ``player``."""
    game_id, tokens = finished_game(ctx)
    old = ctx.store.load(game_id)
    nxt = old.successor()
    nxt.seats[0] = Seat.taken(old.seats[0].token_hash, player)
    assert ctx.store.commit(nxt, old, [])
    return game_id, tokens


def test_a_deleted_players_old_seat_token_is_refused_a_rematch_and_the_others_play_on_without_them():
    players = Directory(ADA, BOT)
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), players=players)
    game_id, tokens = finished_as(ctx, ADA)
    players.delete(ADA)
    assert code_of(lambda: rematch.opt_in(ctx, game_id, tokens[0])) == "player_deleted"
    assert not ctx.store.load(game_id).rematch, "nothing offered in her name"
    joined = rematch.opt_in(ctx, game_id, tokens[1])  # the other person: a person without a player
    assert code_of(lambda: rematch.opt_in(ctx, game_id, tokens[0])) == "player_deleted"
    nxt = ctx.store.load(joined["game_id"])
    assert (nxt.seats[0].type, nxt.seats[0].player) == ("open", None) and nxt.rematch.reserved == (0,)
    again = rematch.opt_in(ctx, game_id, tokens[0], player=BOT)  # a live player's token sent with it
    assert ctx.store.load(again["game_id"]).seats[0].player == BOT


def test_a_rematch_seat_is_bound_to_the_player_as_it_is_now_and_never_looks_up_a_player_sent():
    renamed = PlayerRef(ADA.id, "Countess", "person")
    players = Directory(renamed, BOT)
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), players=players)
    game_id, tokens = finished_as(ctx, ADA)
    joined = rematch.opt_in(ctx, game_id, tokens[0])
    assert joined["state"]["seats"][0]["player"] == {"id": ADA.id, "name": "Countess", "kind": "person"}
    rematch.opt_in(ctx, game_id, tokens[1], player=BOT)  # the request's own player: checked at the edge
    assert players.looked_up == [ADA.id]


def test_a_deleted_players_seat_gets_no_new_token_from_a_rejoin_code_and_its_own_token_plays_on():
    players = Directory(ADA)
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), players=players)
    game_id, tokens = create(ctx, [{"type": "human", "player": True}] + [{"type": "human"}] * 3, ADA)
    code = rejoin.create_code(ctx, game_id, 0, tokens[0])["code"]
    players.delete(ADA)
    before = ctx.store.load(game_id)
    assert code_of(lambda: rejoin.redeem(ctx, game_id, code)) == "player_deleted"
    assert ctx.store.load(game_id).version == before.version
    assert code_of(lambda: rejoin.redeem(ctx, game_id, code)) == "invalid_rejoin_code", "the code was used up"
    rejoin.create_code(ctx, game_id, 0, tokens[0])  # the seat's token still holds it


def test_a_rejoin_whose_player_look_up_fails_leaves_the_code_good_for_a_retry():
    class Down:
        def current(self, player: PlayerRef) -> PlayerRef | None:
            raise ConnectionError("the records database is down")

    ctx = Collaborators(MemoryStore(GameRecord.from_stored), players=Down())
    game_id, tokens = create(ctx, [{"type": "human", "player": True}] + [{"type": "human"}] * 3, ADA)
    code = rejoin.create_code(ctx, game_id, 0, tokens[0])["code"]
    with pytest.raises(ConnectionError):
        rejoin.redeem(ctx, game_id, code)
    back = rejoin.redeem(Collaborators(ctx.store, players=Directory(ADA)), game_id, code)
    assert back["seat"] == 0 and ctx.store.load(game_id).seats[0].player == ADA


def test_a_live_player_is_its_current_self_and_nobody_stays_nobody():
    players = Directory(PlayerRef(ADA.id, "Countess", "person"))
    assert live_player(players, ADA) == PlayerRef(ADA.id, "Countess", "person")
    assert live_player(players, None) is None and players.looked_up == [ADA.id]
    assert code_of(lambda: live_player(players, BOT)) == "player_deleted"
    assert live_player(AS_BOUND, BOT) == BOT  # a process that keeps no players: as bound


def test_seats_stored_before_players_read_back_unchanged_and_a_bound_seat_round_trips():
    old = GameRecord.from_stored("g", 3, orjson.dumps(_meta([["human", None, "h0"], ["ai", "easy", None, True],
                                                              ["open", None, None], ["ai", "hard", None]])), "", "[]")  # fmt: skip
    assert old.seats == [Seat("human", None, "h0"), Seat("ai", "easy", None, True), Seat("open"), Seat("ai", "hard")]
    assert [seat.to_json() for seat in old.seats] == [
        ["human", None, "h0"],
        ["ai", "easy", None, True],
        ["open", None, None],
        ["ai", "hard", None],
    ]
    bound = Seat.taken("h1", BOT)
    assert bound.to_json() == ["human", None, "h1", False, BOT.id, "Deep Spade", "bot"]
    again = GameRecord.from_stored("g", 3, orjson.dumps(_meta([bound.to_json()] * 4)), "", "[]")
    assert again.seats == [bound] * 4 and again.seats[0].player == BOT


def test_a_record_names_each_seats_player_by_id_and_each_computer_by_its_level():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    seats = [{"type": "human", "player": True}, {"type": "human"}, {"type": "ai", "level": "pro"}, {"type": "open"}]
    game_id, _ = create(ctx, seats, ADA)
    document = build(ctx.store.load(game_id))
    assert [seat["player_id"] for seat in document["seats"]] == [ADA.id, None, "computer-pro", None]
    assert "Ada" not in orjson.dumps(document).decode()  # names are looked up when read, never recorded


def _meta(seats: list) -> dict:
    return {"seats": seats, "options": {}, "started": True, "seq": 0, "log": [1]}
