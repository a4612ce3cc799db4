"""The device routes on the v1 blueprint: a player's sessions (list, revoke one, sign out everywhere else), the
codes that sign a device in (a link code with its QR code, :mod:`services.api.http.link_qr`; a set of recovery
codes) and the sign-in that redeems one, or a passkey's answer (:mod:`services.api.http.passkey_routes`).

Handlers parse, check and call :class:`services.api.players.sessions.Sessions` and
:class:`services.api.players.device_codes.DeviceCodes` (on the records database, as the players are).  Every route
under ``/v1/players/me`` takes the player token or a session (:mod:`services.api.http.player_auth`); the sign-in
takes neither: its code, or its passkey's signature, is its credential.  Limits: :mod:`services.api.http.session_limits`.
A revocation releases the seats the revoked sessions took, after its commit and without failing for it
(:func:`services.api.games.seat_release.settle_quietly`).
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request

from services.api.games.seat_release import settle_quietly
from services.api.http import request_schemas, session_schemas
from services.api.http.link_qr import absolute_link, qr_svg
from services.api.http.passkey_routes import passkeys
from services.api.http.player_auth import player_repository, request_player, request_session
from services.api.http.player_budgets import LINK_CODES, spend
from services.api.http.player_routes import profile
from services.api.http.routes import collaborators, json_response, load_body, v1
from services.api.players.credentials import shown, well_formed_session_id
from services.api.players.device_codes import DeviceCodes
from services.api.players.repository import Player
from services.api.players.sessions import Session, Sessions, device_name, session_not_found
from services.api.problems import invalid_request
from services.api.store.protocol import now_ms


@v1.get("/players/me/sessions")
def list_my_sessions() -> Response:
    player = _me()
    return json_response(session_schemas.SESSION_LIST, _listed(player))


@v1.delete("/players/me/sessions")
def revoke_my_sessions() -> Response:
    """Sign out everywhere: every session but the asking one (a player token keeps none)."""
    player = _me()
    current = request_session()
    _sessions().revoke_all(player.id, None if current is None else current.id, now_ms())
    settle_quietly(collaborators(), player.id)  # the seats the revoked sessions took: released
    return json_response(session_schemas.SESSION_LIST, _listed(player))


@v1.delete("/players/me/sessions/<session_id>")
def revoke_my_session(session_id: str) -> Response:
    player = _me()
    if not well_formed_session_id(session_id):
        raise session_not_found()
    _sessions().revoke(player.id, session_id, now_ms())
    settle_quietly(collaborators(), player.id)  # the seats it took: released
    return Response(status=204)


@v1.post("/players/me/link-codes")
def create_link_code() -> Response:
    player = _me()
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    spend(LINK_CODES, player.id)
    lifetime_ms = int(current_app.config["LINK_CODE_SECONDS"]) * 1000
    code, expires_ms = _codes().new_link_code(player.id, now_ms(), lifetime_ms)
    link = f"/play#link={code}"
    body = {
        "code": shown(code),
        "link": link,
        "qr_svg": qr_svg(absolute_link(request.host_url, link)),
        "expires_ms": expires_ms,
    }
    return json_response(session_schemas.LINK_CODE, body, 201)


@v1.post("/players/me/recovery-codes")
def create_recovery_codes() -> Response:
    player = _me()
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    made = now_ms()
    codes = _codes().new_recovery_codes(player.id, made)
    return json_response(session_schemas.RECOVERY_CODES, {"codes": [shown(c) for c in codes], "created_ms": made}, 201)


@v1.post("/sessions")
def sign_in() -> Response:
    body = load_body(session_schemas.SIGN_IN_REQUEST)
    try:
        name = device_name(body.get("device_name"))
    except ValueError as refused:
        raise invalid_request([{"field": "device_name", "message": str(refused)}]) from None
    if "link_code" in body:
        player, session, credential = _codes().sign_in_with_link_code(body["link_code"], name, now_ms())
    elif "recovery_code" in body:
        player, session, credential = _codes().sign_in_with_recovery_code(body["recovery_code"], name, now_ms())
    else:
        player, session, credential = passkeys().sign_in(body["passkey"], name, now_ms())
    answer = {
        "session": _shown(session, session.id),
        "token": credential,
        "player": profile(player_repository(), player),
    }
    return json_response(session_schemas.CREATED_SESSION, answer, 201)


def _listed(player: Player) -> dict[str, Any]:
    current = request_session()
    mine = None if current is None else current.id
    return {"sessions": [_shown(session, mine) for session in _sessions().list(player.id)]}


def _shown(session: Session, current: str | None) -> dict[str, Any]:
    return {
        "id": session.id,
        "name": session.name,
        "via": session.via,
        "created_ms": session.created_ms,
        "last_seen_ms": session.last_seen_ms,
        "current": session.id == current,
    }


def _me() -> Player:
    player = request_player(required=True)
    assert player is not None
    return player


def _sessions() -> Sessions:
    return Sessions(player_repository().engine)


def _codes() -> DeviceCodes:
    return DeviceCodes(player_repository().engine)
