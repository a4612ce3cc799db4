"""A seat released when the player credential that took it dies (services.api.games.seat_release), on the memory
store: each seat remembers the credential that bound it, a settling releases the seats of the dead ones in one
commit per game (``seat_released``: the old token is dead, the seat stays its player's, who takes it back), leaves
a deleted player's, and touches nothing else; a binding that raced the revocation releases itself.  A quick-match
request whose credential died while it waited: tests/api/lobby/test_matchmaker.py."""

from __future__ import annotations

from dataclasses import replace

import orjson
import pytest

from services.api.games import commands, rejoin, rematch, seat_release, take_back
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord, PlayerRef, Seat
from services.api.games.rendering import ViewCache
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore

from .test_seat_players import Directory, code_of, finished_as

PHONE, LAPTOP = "ses_" + "p" * 22, "ses_" + "l" * 22  # two devices' sessions
ADA = PlayerRef("p_" + "a" * 22, "Ada", "person")
BEA = PlayerRef("p_" + "b" * 22, "Bea", "person")
ON_PHONE, ON_LAPTOP = replace(ADA, credential=PHONE), replace(ADA, credential=LAPTOP)
FOUR = [{"type": "human", "player": True}] + [{"type": "human"}] * 3


def process(players: Directory | None = None) -> Collaborators:
    return Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(64), players=players or Directory(ADA, BEA))


def create(ctx: Collaborators, player: PlayerRef, seats=FOUR, options=None) -> tuple[str, list[str | None]]:
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats, "options": options or {"clock": "none"}})
    created = commands.create_game(ctx, body, player=player)
    return created["game_id"], [seat.get("token") for seat in created["seats"]]


def revoke(ctx: Collaborators, credential: str) -> None:
    ctx.players.dead.add(credential)  # type: ignore[attr-defined]


def told(ctx: Collaborators, game_id: str, since: int) -> list[tuple[str, dict]]:
    return [(e["type"], e["data"]) for e in ctx.store.events_after(game_id, since, 20)]


def unauthorized(call) -> bool:
    with pytest.raises(ApiError) as error:
        call()
    return error.value.status == 401


def test_a_seat_remembers_the_credential_that_took_it_beside_the_seats_list():
    ctx = process()
    game_id, _ = create(ctx, ON_PHONE)
    record = ctx.store.load(game_id)
    assert record.seats[0].credential == PHONE and record.seats[0].player == ON_PHONE
    meta = orjson.loads(record.meta_json())
    assert meta["cred"] == [PHONE, None, None, None]
    assert meta["seats"][0] == ["human", None, record.seats[0].token_hash, False, ADA.id, "Ada", "person"]
    plain, _ = create(ctx, ADA)  # no credential named: nothing more is stored
    assert "cred" not in orjson.loads(ctx.store.load(plain).meta_json())


def test_revoking_the_session_releases_its_seat_which_stays_its_players_and_the_old_token_dies():
    ctx = process()
    game_id, tokens = create(ctx, ON_PHONE)
    before = ctx.store.load(game_id)
    revoke(ctx, PHONE)
    assert seat_release.settle(ctx, ADA.id) == 1
    after = ctx.store.load(game_id)
    assert after.version == before.version + 1
    assert after.seats[0] == Seat("human", None, None, False, ADA.id, "Ada", "person")
    assert told(ctx, game_id, before.seq) == [("seat_released", {"seat": 0})]
    assert unauthorized(lambda: commands.leave_seat(ctx, game_id, 0, tokens[0]))
    assert after.seats[1:] == before.seats[1:], "the other seats are untouched"
    assert seat_release.settle(ctx, ADA.id) == 0 and ctx.store.load(game_id).version == after.version  # idempotent


def test_the_player_takes_the_released_seat_back_with_a_live_credential_and_only_with_one():
    ctx = process()
    game_id, _ = create(ctx, ON_PHONE)
    revoke(ctx, PHONE)
    seat_release.settle(ctx, ADA.id)
    assert code_of(lambda: take_back.take_seat(ctx, game_id, 0, BEA)) == "seat_not_yours"
    assert code_of(lambda: commands.claim_seat(ctx, game_id, 0, ADA)) == "seat_taken"  # nobody claims it
    released = ctx.store.load(game_id)
    taken = take_back.take_seat(ctx, game_id, 0, ON_LAPTOP)
    seat = ctx.store.load(game_id).seats[0]
    assert (seat.player, taken["state"]["you"]) == (ON_LAPTOP, 0) and seat.token_hash is not None
    assert told(ctx, game_id, released.seq) == [("seat_rejoined", {"seat": 0})]
    commands.leave_seat(ctx, game_id, 0, taken["token"])  # the new token holds it


def test_seats_taken_through_live_credentials_others_and_unnamed_ones_are_untouched():
    ctx = process()
    on_laptop, _ = create(ctx, ON_LAPTOP)
    unnamed, _ = create(ctx, ADA)  # a seat that names no credential is never released
    beas, _ = create(ctx, replace(BEA, credential=PHONE))  # another player's (the fake shares the id)
    phone, _ = create(ctx, ON_PHONE)
    versions = {g: ctx.store.load(g).version for g in (on_laptop, unnamed, beas)}
    revoke(ctx, PHONE)
    assert seat_release.settle(ctx, ADA.id) == 1
    assert ctx.store.load(phone).seats[0].token_hash is None
    assert {g: ctx.store.load(g).version for g in versions} == versions


def test_a_rotated_player_tokens_seats_are_released_by_its_mark():
    ctx = process()
    old_mark = "spt:" + "0" * 16
    game_id, _ = create(ctx, replace(ADA, credential=old_mark))
    revoke(ctx, old_mark)
    assert seat_release.settle(ctx, ADA.id) == 1 and ctx.store.load(game_id).seats[0].token_hash is None


def test_a_deleted_players_seats_are_left_to_the_stand_in_or_opened():
    directory = Directory(ADA, BEA)
    ctx = process(directory)
    kept, _ = create(ctx, ON_PHONE, options={"clock": "none", "ai_takeover": "basic"})
    opened, _ = create(ctx, ON_LAPTOP, options={"clock": "none", "ai_takeover": None})
    released, _ = create(
        ctx, replace(ADA, credential="spt:" + "0" * 16), options={"clock": "none", "ai_takeover": None}
    )
    unnamed, _ = create(ctx, ADA)
    revoke(ctx, "spt:" + "0" * 16)
    seat_release.settle(ctx, ADA.id)  # released before: no device holds it
    since = {g: ctx.store.load(g).seq for g in (kept, opened)}
    directory.delete(ADA)
    assert seat_release.settle(ctx, ADA.id, gone=True) == 3
    assert ctx.store.load(released).seats[0] == Seat("open"), "nobody can take it back now"
    assert ctx.store.load(unnamed).seats[0].token_hash is not None, "a seat naming no credential plays on"
    stand_in = ctx.store.load(kept).seats[0]
    assert (stand_in.type, stand_in.level, stand_in.stand_in, stand_in.player_id) == ("ai", "basic", True, ADA.id)
    assert told(ctx, kept, since[kept]) == [("seat_left", {"seat": 0, "ai_takeover": "basic"})]
    assert ctx.store.load(opened).seats[0] == Seat("open")
    assert told(ctx, opened, since[opened]) == [("seat_left", {"seat": 0, "ai_takeover": None})]


def test_a_finished_games_seats_are_not_released():
    ctx = process(Directory(ADA))
    game_id, _ = finished_as(ctx, ON_PHONE)
    version = ctx.store.load(game_id).version
    revoke(ctx, PHONE)
    assert seat_release.settle(ctx, ADA.id) == 0 and ctx.store.load(game_id).version == version


def test_a_claim_that_raced_the_revocation_releases_its_own_seat_after_its_commit():
    """The session was live when the request checked it and revoked before the claim committed: the revocation's
    settling may have read the game before the claim, so the claim looks its credential up again."""
    ctx = process()
    game_id, _ = create(ctx, BEA, seats=[{"type": "human", "player": True}, *[{"type": "open"}] * 3])
    before = ctx.store.load(game_id)
    revoke(ctx, PHONE)
    claimed = commands.claim_seat(ctx, game_id, 1, ON_PHONE)
    assert told(ctx, game_id, before.seq) == [("seat_claimed", {"seat": 1}), ("seat_released", {"seat": 1})]
    assert unauthorized(lambda: commands.leave_seat(ctx, game_id, 1, claimed["token"]))
    assert ctx.store.load(game_id).seats[1].player_id == ADA.id


def test_a_dead_credentials_seat_token_gets_no_rematch_seat_nor_a_rejoin():
    ctx = process(Directory(ADA))
    game_id, tokens = finished_as(ctx, ON_PHONE)
    revoke(ctx, PHONE)
    assert code_of(lambda: rematch.opt_in(ctx, game_id, tokens[0])) == "credential_revoked"
    joined = rematch.opt_in(ctx, game_id, tokens[0], player=ON_LAPTOP)  # a live Player-Token sent with it
    assert ctx.store.load(joined["game_id"]).seats[0].credential == LAPTOP

    ctx = process()
    game_id, tokens = create(ctx, ON_PHONE)
    code = rejoin.create_code(ctx, game_id, 0, tokens[0])["code"]
    revoke(ctx, PHONE)  # not settled yet: the code's redemption checks the credential itself
    assert code_of(lambda: rejoin.redeem(ctx, game_id, code)) == "credential_revoked"


def test_a_rejoin_carries_the_seats_credential_so_a_revocation_still_releases_the_seat_it_was_handed_to():
    ctx = process()
    game_id, tokens = create(ctx, ON_PHONE)
    code = rejoin.create_code(ctx, game_id, 0, tokens[0])["code"]
    rejoined = rejoin.redeem(ctx, game_id, code)
    assert ctx.store.load(game_id).seats[0].credential == PHONE
    revoke(ctx, PHONE)
    seat_release.settle(ctx, ADA.id)
    assert unauthorized(lambda: commands.leave_seat(ctx, game_id, 0, rejoined["token"]))


def test_a_settling_that_finds_the_store_down_raises_and_the_quiet_one_answers_none():
    ctx = process()
    create(ctx, ON_PHONE)
    revoke(ctx, PHONE)

    def down(player_id: str) -> list[str]:
        raise ConnectionError("the store is down")

    ctx.store.player_games = down  # type: ignore[method-assign]
    with pytest.raises(ConnectionError):
        seat_release.settle(ctx, ADA.id)
    assert seat_release.settle_quietly(ctx, ADA.id) is None
