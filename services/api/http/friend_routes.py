"""The friends' routes on the v1 blueprint: follow and unfollow, block and unblock, the following list (who is
online, at which public table), an invite to your table, and your notices.

Handlers parse, check and call :class:`services.api.players.friends.Friends`,
:class:`services.api.players.presence.Presence` and :class:`services.api.players.invites.Invites` (on the records
database, as the players are; the tables read from the game store).  Every route takes the player token or a
session (``Player-Token``, :mod:`services.api.http.player_auth`); an invite also the inviter's seat token.  Invites
spend their sender's budget (``INVITE_RATE_LIMIT``, :data:`services.api.http.player_budgets.INVITES`).
"""

from __future__ import annotations

from flask import Response, current_app

from services.api.http import friend_schemas, player_budgets, request_schemas
from services.api.http.player_auth import request_player
from services.api.http.routes import collaborators, json_response, load_body, required_token, v1
from services.api.players.friends import MAX_BLOCKS, MAX_FOLLOWING, Friends
from services.api.players.invites import Invites, notice_not_found
from services.api.players.presence import Presence
from services.api.players.repository import Player, player_not_found
from services.api.players.tokens import well_formed_id
from services.api.problems import ApiError
from services.api.store.protocol import now_ms


@v1.get("/players/me/following")
def list_following() -> Response:
    me = _me()
    found = _presence().whereabouts(collaborators().store, _friends().following(me.id), now_ms())
    return json_response(friend_schemas.FOLLOWING_LIST, {"following": found, "limit": MAX_FOLLOWING})


@v1.put("/players/me/following/<player_id>")
def follow(player_id: str) -> Response:
    me = _me()
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    return json_response(friend_schemas.RELATED, _friends().follow(me.id, _well_formed(player_id), now_ms()))


@v1.delete("/players/me/following/<player_id>")
def unfollow(player_id: str) -> Response:
    me = _me()
    _friends().unfollow(me.id, _well_formed(player_id))
    return Response(status=204)


@v1.get("/players/me/blocks")
def list_blocks() -> Response:
    me = _me()
    return json_response(friend_schemas.BLOCK_LIST, {"blocks": _friends().blocks(me.id), "limit": MAX_BLOCKS})


@v1.put("/players/me/blocks/<player_id>")
def block(player_id: str) -> Response:
    me = _me()
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    return json_response(friend_schemas.RELATED, _friends().block(me.id, _well_formed(player_id), now_ms()))


@v1.delete("/players/me/blocks/<player_id>")
def unblock(player_id: str) -> Response:
    me = _me()
    _friends().unblock(me.id, _well_formed(player_id))
    return Response(status=204)


@v1.post("/games/<game_id>/invites")
def invite(game_id: str) -> Response:
    token = required_token()
    me = _me()
    body = load_body(friend_schemas.INVITE_REQUEST)
    invitee = _well_formed(body["player_id"])
    spend = lambda: player_budgets.spend(player_budgets.INVITES, me.id)  # noqa: E731  (only an invite that passed every check spends the budget)
    notice = _invites().invite(collaborators().store, game_id, token, me, invitee, now_ms(), spend)
    return json_response(friend_schemas.INVITE, notice, 201)


@v1.get("/players/me/notices")
def list_notices() -> Response:
    me = _me()
    return json_response(friend_schemas.NOTICE_LIST, {"notices": _invites().notices(me.id, now_ms())})


@v1.delete("/players/me/notices/<notice_id>")
def dismiss_notice(notice_id: str) -> Response:
    me = _me()
    if not 0 < len(notice_id) <= 40:
        raise notice_not_found()
    _invites().dismiss(me.id, notice_id)
    return Response(status=204)


def _me() -> Player:
    player = request_player(required=True)
    assert player is not None
    return player


def _well_formed(player_id: str) -> str:
    if not well_formed_id(player_id):
        raise player_not_found()
    return player_id


def _extension(name: str):  # type: ignore[no-untyped-def]
    found = current_app.extensions.get(name)
    if found is None:
        raise ApiError(404, "not_found", "This server keeps no players (RECORDS_ENABLED is off).")
    return found


def _friends() -> Friends:
    return _extension("spades.friends")


def _presence() -> Presence:
    return _extension("spades.player_presence")


def _invites() -> Invites:
    return _extension("spades.invites")
