"""The passkey routes on the v1 blueprint: a signed-in player's passkeys (registration's options, registering one,
the list, deleting one) and a sign-in's options; the sign-in itself is ``POST /v1/sessions`` with a ``passkey``
(:mod:`services.api.http.session_routes`).

Handlers parse, check and call :class:`services.api.players.passkeys.Passkeys` (on the records database, for the
relying party of the settings: ``WEBAUTHN_RP_ID``, ``WEBAUTHN_RP_NAME``, ``WEBAUTHN_ORIGINS``).  Every route under
``/v1/players/me`` takes the player token or a session; a sign-in's options take nothing, and are limited per
address (``PASSKEY_OPTIONS_RATE_LIMIT``, :mod:`services.api.http.session_limits`).
"""

from __future__ import annotations

import re

from flask import Response, current_app

from services.api.http import passkey_schemas, request_schemas
from services.api.http.player_auth import player_repository, request_player
from services.api.http.routes import json_response, load_body, v1
from services.api.players.passkeys import Passkeys, passkey_name, passkey_not_found
from services.api.players.repository import Player
from services.api.players.webauthn_checks import relying_party
from services.api.problems import invalid_request
from services.api.store.protocol import now_ms

_PASSKEY_ID = re.compile(r"pk_[A-Za-z0-9_-]{22}")


@v1.post("/players/me/passkey-options")
def start_passkey_registration() -> Response:
    player = _me()
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    now, lifetime = now_ms(), _lifetime_ms()
    options = passkeys().registration_options(player, now, lifetime)
    return json_response(passkey_schemas.PASSKEY_OPTIONS, {"options": options, "expires_ms": now + lifetime})


@v1.post("/players/me/passkeys")
def register_passkey() -> Response:
    player = _me()
    body = load_body(passkey_schemas.REGISTER_PASSKEY_REQUEST)
    try:
        name = passkey_name(body.get("name"))
    except ValueError as refused:
        raise invalid_request([{"field": "name", "message": str(refused)}]) from None
    made = passkeys().register(player, body["credential"], name, now_ms())
    return json_response(passkey_schemas.PASSKEY, made, 201)


@v1.get("/players/me/passkeys")
def list_my_passkeys() -> Response:
    player = _me()
    return json_response(passkey_schemas.PASSKEY_LIST, {"passkeys": passkeys().list(player.id)})


@v1.delete("/players/me/passkeys/<passkey_id>")
def delete_my_passkey(passkey_id: str) -> Response:
    player = _me()
    if _PASSKEY_ID.fullmatch(passkey_id) is None:
        raise passkey_not_found()
    passkeys().delete(player.id, passkey_id)
    return Response(status=204)


@v1.post("/sessions/passkey-options")
def start_passkey_sign_in() -> Response:
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    player_repository()  # 404 on a server that keeps no players
    now, lifetime = now_ms(), _lifetime_ms()
    options = passkeys().sign_in_options(now, lifetime)
    return json_response(passkey_schemas.PASSKEY_OPTIONS, {"options": options, "expires_ms": now + lifetime})


def passkeys() -> Passkeys:
    """The players' passkeys, for the relying party of the settings."""
    config = current_app.config
    rp = relying_party(config["WEBAUTHN_RP_ID"], config["WEBAUTHN_RP_NAME"], config["WEBAUTHN_ORIGINS"])
    return Passkeys(player_repository().engine, rp)


def _lifetime_ms() -> int:
    return int(current_app.config["PASSKEY_CHALLENGE_SECONDS"]) * 1000


def _me() -> Player:
    player = request_player(required=True)
    assert player is not None
    return player
