"""Follows, blocks, presence and invites on SQLite and PostgreSQL (the games on the memory store): each refusal has
its own code and changes nothing; a block ends the pair's follows and invites and keeps them from following or
inviting again; the caps; who is online and at which public table (never a private one); invites replace one
another per table, expire, are capped per player and are dismissed; a deletion takes every relation with it.  The
clock is a parameter: no sleeps."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, insert, select

from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord
from services.api.http import request_schemas
from services.api.players import friends as friends_module
from services.api.players.friends import Friends
from services.api.players.invites import MAX_NOTICES, Invites, invite_refusal, open_seat
from services.api.players.names import display_name
from services.api.players.presence import ONLINE_MS, SEEN_STEP_MS, Presence, SeatedPlayers, online, table_of
from services.api.players.repository import Player, PlayerRepository
from services.api.problems import ApiError
from services.api.records.schema import blocks, follows, player_notices, player_presence
from services.api.store.memory_store import MemoryStore

T = 1_800_000_000_000
MINUTE = 60_000


def refused(call, *args) -> str:
    with pytest.raises(ApiError) as caught:
        call(*args)
    return caught.value.code


def count(engine: Engine, table) -> int:
    with engine.connect() as connection:
        return len(list(connection.execute(select(table))))


@pytest.fixture
def people(engine: Engine) -> list[Player]:
    repository = PlayerRepository(engine)
    return [repository.create(display_name(name), "person")[0] for name in ("Ada", "Bo", "Cy", "Di")]


@pytest.fixture
def friends(engine: Engine) -> Friends:
    return Friends(engine)


def test_a_follow_is_one_way_listed_by_name_and_made_once(engine, friends, people):
    ada, bo, cy, _ = people
    assert friends.follow(ada.id, cy.id, T).since_ms == T
    assert friends.follow(ada.id, bo.id, T + 1).name == "Bo"
    assert friends.follow(ada.id, bo.id, T + 2).since_ms == T + 1, "again: nothing changes"
    assert [p.name for p in friends.following(ada.id)] == ["Bo", "Cy"]
    assert friends.following(bo.id) == [] and friends.follows(ada.id, bo.id) and not friends.follows(bo.id, ada.id)
    friends.unfollow(ada.id, bo.id)
    friends.unfollow(ada.id, bo.id)
    assert [p.name for p in friends.following(ada.id)] == ["Cy"]


def test_follow_and_block_refusals_each_with_its_code_and_nothing_changed(engine, friends, people):
    ada = people[0]
    assert refused(friends.follow, ada.id, ada.id, T) == "not_yourself"
    assert refused(friends.block, ada.id, ada.id, T) == "not_yourself"
    assert refused(friends.follow, ada.id, "p_" + "x" * 22, T) == "player_not_found"
    PlayerRepository(engine).get("computer-hard")
    assert refused(friends.follow, ada.id, "computer-hard", T) == "player_not_found", "a computer level"
    PlayerRepository(engine).delete(people[3])
    assert refused(friends.block, ada.id, people[3].id, T) == "player_not_found", "a deleted player"
    assert count(engine, follows) == count(engine, blocks) == 0


def test_a_block_ends_both_follows_and_the_pairs_invites_and_keeps_them_from_following(engine, friends, people):
    ada, bo, cy, _ = people
    friends.follow(ada.id, bo.id, T)
    friends.follow(bo.id, ada.id, T)
    friends.follow(bo.id, cy.id, T)
    with engine.begin() as connection:
        row = {"kind": "invite", "game_id": "g", "seat": 1, "created_ms": T, "expires_ms": T + MINUTE}
        connection.execute(insert(player_notices).values(id="ntc_1", player_id=bo.id, from_id=ada.id, **row))
        connection.execute(insert(player_notices).values(id="ntc_2", player_id=cy.id, from_id=bo.id, **row))
    assert friends.block(bo.id, ada.id, T + 1).since_ms == T + 1
    assert friends.following(ada.id) == [] and [p.name for p in friends.following(bo.id)] == ["Cy"]
    with engine.connect() as connection:
        assert list(connection.execute(select(player_notices.c.id)).scalars()) == ["ntc_2"]
    assert refused(friends.follow, ada.id, bo.id, T + 2) == "blocked", "the blocked one"
    assert refused(friends.follow, bo.id, ada.id, T + 2) == "blocked", "the blocker too, until they unblock"
    assert friends.either_blocked(ada.id, bo.id) and friends.either_blocked(bo.id, ada.id)
    assert friends.blocked_by(bo.id) == {ada.id} and friends.blocked_by(ada.id) == set()
    assert [p.name for p in friends.blocks(bo.id)] == ["Ada"]
    assert friends.blocked_pairs([ada.id, bo.id, cy.id]) == {frozenset((ada.id, bo.id))}
    assert friends.block(bo.id, ada.id, T + 3).since_ms == T + 1, "again: nothing changes"
    friends.unblock(bo.id, ada.id)
    assert not friends.either_blocked(ada.id, bo.id) and friends.following(ada.id) == [], "no follow comes back"
    friends.follow(ada.id, bo.id, T + 4)


def test_the_lists_are_capped(engine, friends, people, monkeypatch):
    monkeypatch.setattr(friends_module, "MAX_FOLLOWING", 2)
    monkeypatch.setattr(friends_module, "MAX_BLOCKS", 1)
    ada, bo, cy, di = people
    friends.follow(ada.id, bo.id, T)
    friends.follow(ada.id, cy.id, T)
    assert refused(friends.follow, ada.id, di.id, T) == "following_limit"
    assert friends.follow(ada.id, bo.id, T + 1).since_ms == T, "one followed already: no new one"
    friends.block(ada.id, di.id, T)
    assert refused(friends.block, ada.id, bo.id, T) == "block_limit"
    assert [p.name for p in friends.following(ada.id)] == ["Bo", "Cy"] and friends.blocked_by(ada.id) == {di.id}


def test_online_is_seen_within_the_window_or_connected_at_the_public_table():
    assert online(T - ONLINE_MS, T, ONLINE_MS) and not online(T - ONLINE_MS - 1, T, ONLINE_MS)
    assert not online(None, T, ONLINE_MS) and online(None, T, ONLINE_MS, connected=True)


def test_last_seen_moves_at_most_once_a_minute(engine, people):
    presence = Presence(engine)
    ada = people[0]
    presence.seen(ada.id, T)
    presence.seen(ada.id, T + SEEN_STEP_MS - 1)
    with engine.connect() as connection:
        assert connection.execute(select(player_presence.c.seen_ms)).scalar() == T
    presence.seen(ada.id, T + SEEN_STEP_MS)
    with engine.connect() as connection:
        assert connection.execute(select(player_presence.c.seen_ms)).scalar() == T + SEEN_STEP_MS


def _game(ctx: Collaborators, owner: Player, public: bool, open_seats: int = 2) -> tuple[str, str]:
    seats = [{"type": "human", "player": True}] + [{"type": "open"}] * open_seats
    seats += [{"type": "ai", "level": "basic"}] * (3 - open_seats)
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats, "options": {"public": public}})
    created = commands.create_game(ctx, body, player=owner.ref)
    return created["game_id"], created["seats"][0]["token"]


def test_whereabouts_show_a_public_table_as_it_is_and_never_a_private_one(engine, friends, people):
    ada, bo, cy, di = people
    store = MemoryStore(GameRecord.from_stored)
    presence = Presence(engine)
    ctx = Collaborators(store, tables=SeatedPlayers(Collaborators(store).tables, presence, lambda: T))
    public, bo_token = _game(ctx, bo, public=True)
    _game(ctx, cy, public=False)
    for other in (bo, cy, di):
        friends.follow(ada.id, other.id, T)
    presence.seen(di.id, T - ONLINE_MS - 1)
    found = {w.player.name: w for w in presence.whereabouts(store, friends.following(ada.id), T + MINUTE)}
    assert (found["Bo"].online, found["Bo"].game_id, found["Bo"].seat) == (True, public, 0), "sat down: seen"
    assert (found["Cy"].online, found["Cy"].game_id) == (False, None), "a private table is never noted"
    assert (found["Di"].online, found["Di"].seen_ms) == (False, T - ONLINE_MS - 1)
    commands.leave_seat(ctx, public, 0, bo_token)
    later = presence.whereabouts(store, friends.following(ada.id), T + 2 * MINUTE)
    assert [w.game_id for w in later if w.player.id == bo.id] == [None], "left: the note is read against the game"


def test_table_of_is_a_public_game_not_over_whose_seat_is_the_players_own(engine, people):
    ada = people[0]
    store = MemoryStore(GameRecord.from_stored)
    ctx = Collaborators(store)
    public, _ = _game(ctx, ada, public=True)
    private, _ = _game(ctx, ada, public=False)
    assert table_of(store.load(public), ada.id, 0)
    assert not table_of(store.load(public), ada.id, 1) and not table_of(store.load(public), people[1].id, 0)
    assert not table_of(store.load(private), ada.id, 0) and not table_of(None, ada.id, 0)


def test_who_may_invite_whom():
    assert invite_refusal(True, False, False) is None and invite_refusal(False, True, False) is None
    assert invite_refusal(False, False, False) == "not_following"
    assert invite_refusal(True, True, True) == "blocked"


@pytest.fixture
def table(engine, people):
    """Ada at a private table with two open seats, and the invites."""
    store = MemoryStore(GameRecord.from_stored)
    ctx = Collaborators(store)
    game_id, token = _game(ctx, people[0], public=False)
    return store, ctx, game_id, token, Invites(engine, Friends(engine), 600)


def test_an_invite_reaches_the_followed_players_notices_with_an_open_seat_and_no_token(engine, friends, people, table):
    store, _, game_id, token, invites = table
    ada, bo, _, _ = people
    friends.follow(ada.id, bo.id, T)
    spent = []
    sent = invites.invite(store, game_id, token, ada, bo.id, T, lambda: spent.append(1))
    assert (sent.player_id, sent.game_id, sent.seat, sent.expires_ms, spent) == (bo.id, game_id, 1, T + 600_000, [1])
    (notice,) = invites.notices(bo.id, T + 1)
    assert (notice.from_id, notice.from_name, notice.kind, notice.seat) == (ada.id, "Ada", "invite", 1)
    assert invites.notices(ada.id, T) == []
    again = invites.invite(store, game_id, token, ada, bo.id, T + 5)
    assert [n.id for n in invites.notices(bo.id, T + 6)] == [again.id], "one notice per inviter and table"
    assert invites.notices(bo.id, T + 5 + 600_000) == [], "expired"
    assert refused(invites.dismiss, ada.id, again.id) == "notice_not_found", "only its player dismisses it"
    invites.dismiss(bo.id, again.id)
    assert invites.notices(bo.id, T + 7) == []
    assert refused(invites.dismiss, bo.id, again.id) == "notice_not_found"


def test_invite_refusals_each_with_its_code_and_nothing_kept(engine, friends, people, table):
    store, ctx, game_id, token, invites = table
    ada, bo, cy, di = people
    spent = []

    def code(player, invitee, seat_token=token, game=game_id):
        return refused(invites.invite, store, game, seat_token, player, invitee, T, lambda: spent.append(1))

    assert code(ada, bo.id) == "not_following"
    friends.follow(bo.id, ada.id, T)
    assert code(ada, cy.id) == "not_following"
    assert code(ada, ada.id) == "not_yourself"
    assert code(ada, "p_" + "q" * 22) == "player_not_found"
    assert code(bo, bo.id) == "seat_not_yours", "a seat that is not the player's"
    assert code(ada, bo.id, seat_token="x" * 43) == "unauthorized"
    assert code(ada, bo.id, game="nope") == "not_found"
    friends.follow(ada.id, cy.id, T)
    friends.block(cy.id, ada.id, T)
    assert code(ada, cy.id) == "blocked"
    claimed = commands.claim_seat(ctx, game_id, 1, di.ref)
    assert claimed["seat"] == 1
    friends.follow(ada.id, di.id, T)
    assert code(ada, di.id) == "player_seated"
    commands.claim_seat(ctx, game_id, 2)
    assert code(ada, bo.id) == "no_open_seat"
    assert spent == [] and count(engine, player_notices) == 0


def test_notices_are_capped_per_player_the_oldest_going(engine, friends, people):
    ada, bo, _, _ = people
    store = MemoryStore(GameRecord.from_stored)
    ctx = Collaborators(store)
    invites = Invites(engine, friends, 600)
    friends.follow(bo.id, ada.id, T)
    games = [_game(ctx, bo, public=False) for _ in range(MAX_NOTICES + 2)]
    for n, (game_id, token) in enumerate(games):
        invites.invite(store, game_id, token, bo, ada.id, T + n)
    shown = invites.notices(ada.id, T + 100)
    assert len(shown) == MAX_NOTICES and shown[0].game_id == games[-1][0] and shown[-1].game_id == games[2][0]


def test_open_seat_offers_an_open_seat_before_a_stand_ins():
    class S:
        def __init__(self, type_: str, stand_in: bool = False) -> None:
            self.type, self.stand_in = type_, stand_in

    assert open_seat([S("human"), S("human", True), S("open")]) == 2
    assert open_seat([S("human"), S("human", True), S("ai")]) == 1
    assert open_seat([S("human"), S("ai")]) is None


def test_a_deletion_takes_every_follow_block_notice_and_last_seen_either_way(engine, friends, people):
    ada, bo, cy, _ = people
    friends.follow(ada.id, bo.id, T)
    friends.follow(bo.id, ada.id, T)
    friends.block(cy.id, ada.id, T)
    friends.block(ada.id, cy.id, T)
    Presence(engine).seen(ada.id, T)
    with engine.begin() as connection:
        row = {"kind": "invite", "game_id": "g", "seat": 1, "created_ms": T, "expires_ms": T + MINUTE}
        connection.execute(insert(player_notices).values(id="ntc_1", player_id=bo.id, from_id=ada.id, **row))
    PlayerRepository(engine).delete(ada)
    for table in (follows, blocks, player_notices, player_presence):
        assert count(engine, table) == 0, table.name
