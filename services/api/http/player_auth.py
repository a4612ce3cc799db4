"""The ``Player-Token`` header: the one parser of a request's player, for the players' routes and for the
routes that bind a seat to a player (create, claim, quick match, rematch).

The header carries a player token (``spt_…``) or a device's session credential (``sps_…``,
:mod:`services.api.players.sessions`), told apart by the prefix: both name the player, so every route that takes a
player takes a session.  A header that is there is checked, never ignored: a token that names no live player
(malformed, rotated, revoked, its player deleted) is a ``401 player_token_invalid``, and a revoked session a
``401 session_revoked``, so a client that meant to play as someone learns at once that it would not.  Player tokens are never seat tokens: they go in their own header, and
``Authorization`` keeps carrying the seat's.  A seat a request binds names the credential it came with
(:func:`request_ref`).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from flask import current_app, g, request

from services.api.games.record import GameRecord, PlayerRef
from services.api.players.credentials import is_session_credential
from services.api.players.friends import blocked_at_table
from services.api.players.repository import Player, PlayerRepository, player_token_invalid
from services.api.players.sessions import Session, Sessions
from services.api.players.tokens import hash_player_token, token_mark
from services.api.problems import ApiError
from services.api.ratings.watch import CLOSED, active_ban, holds
from services.api.records.content import iso
from services.api.store.protocol import now_ms

HEADER = "Player-Token"
MAX_TOKEN_LENGTH = 256

log = logging.getLogger(__name__)


def player_repository() -> PlayerRepository:
    """The players (on the records database); 404 on a server that keeps no records."""
    found = current_app.extensions.get("spades.players")
    if found is None:
        raise ApiError(404, "not_found", "This server keeps no players (RECORDS_ENABLED is off).")
    return found


def player_token() -> str | None:
    """The request's ``Player-Token`` as sent (None without the header)."""
    token = request.headers.get(HEADER)
    return None if token is None else token.strip()


def request_player(required: bool) -> Player | None:
    """The player of the request's ``Player-Token`` (a player token or a session): None without the header (a 401
    if ``required``), a 401 ``player_token_invalid`` for a token of no live player, ``session_revoked`` for a
    revoked session.  The session, if any, is :func:`request_session`'s."""
    token = player_token()
    g.player_session = g.player_credential = None
    if token is None:
        if required:
            raise ApiError(401, "player_token_invalid", f"This request needs '{HEADER}: <player token>'.")
        return None
    if not 0 < len(token) <= MAX_TOKEN_LENGTH:
        raise player_token_invalid()
    if is_session_credential(token):
        found = Sessions(player_repository().engine).find(token, now_ms())
        if found is None:
            raise player_token_invalid()
        player, g.player_session = found
        g.player_credential = g.player_session.id
    else:
        player = player_repository().by_token(token)
        if player is None:
            raise player_token_invalid()
        g.player_credential = token_mark(hash_player_token(token))
    _seen(player.id)
    return player


def request_ref(player: Player) -> PlayerRef:
    """``player`` (the request's, :func:`request_player`) as a seat binds it: with the credential the request came
    with, a session's id or the player token's mark, which a revocation or a rotation then releases the seat by
    (:mod:`services.api.games.seat_release`)."""
    return replace(player.ref, credential=g.get("player_credential"))


def _seen(player_id: str) -> None:
    """The player was seen now (its followers' online dot, :mod:`services.api.players.presence`)."""
    presence = current_app.extensions.get("spades.player_presence")
    if presence is not None:
        presence.seen(player_id, now_ms())


def request_session() -> Session | None:
    """The session the request's ``Player-Token`` is (after :func:`request_player`), None for a player token."""
    return g.get("player_session")


def check_not_banned(player: PlayerRef | None, table: GameRecord | None = None) -> None:
    """``409 pairing_banned`` for a player the fair-play watch banned from pairing with strangers (a quick match, a
    public table), with when it ends (``ends_at``, ``Retry-After``), and ``409 rated_play_closed`` for one whose
    flag an operator confirmed (their games would count for nobody); nothing without a player.  ``table``: the game
    whose seat the player claims: only a public or matched one is closed to them."""
    if player is None or (table is not None and not (table.options.public or table.options.matched)):
        return
    now = now_ms()
    with player_repository().engine.connect() as connection:
        ends, hold = active_ban(connection, player.id, now), holds(connection, [player.id]).get(player.id)
    if hold == CLOSED:  # its games would move nobody's rating: the strangers it met would play for nothing
        raise ApiError(
            409,
            "rated_play_closed",
            "An operator confirmed a fair-play flag of yours: quick matches and public tables are closed to you. "
            "Games with friends and against the computers stay open.",
        )
    if ends is not None:
        raise ApiError(
            409,
            "pairing_banned",
            "You left or lost to the clock too many rated games lately: quick matches and public tables are "
            f"closed to you until {iso(ends)}. Games with friends and against the computers stay open.",
            retry_after=max(1, (ends - now + 999) // 1000),
            ends_at=iso(ends),
        )


def check_not_blocked_at(player: PlayerRef | None, table: GameRecord) -> None:
    """``403 blocked`` for a player claiming a seat at a table where a player sits whom they blocked or who
    blocked them (a block keeps the pair from sitting together, whoever's table it is); nothing without a player.
    A records database that does not answer lets the claim through: a table never stops for a block."""
    friends = current_app.extensions.get("spades.friends")
    seated = {
        s.player_id for s in table.seats if s.player_id is not None and s.player_id != getattr(player, "id", None)
    }
    if player is None or friends is None or not seated:
        return
    try:
        pairs = friends.blocked_pairs({player.id, *seated})
    except Exception:
        log.warning("could not read the blocks of a seat's claim", extra={"game_id": table.game_id}, exc_info=True)
        return
    if any(player.id in pair for pair in pairs):
        raise blocked_at_table()


def pairing_ban_of(player_id: str) -> str | None:
    """When ``player_id``'s ban from pairing ends (ISO time), or None."""
    ends = _ban_ends(player_id, now_ms())
    return None if ends is None else iso(ends)


def _ban_ends(player_id: str, now: int) -> int | None:
    with player_repository().engine.connect() as connection:
        return active_ban(connection, player_id, now)


def seat_player() -> PlayerRef | None:
    """The player a seat taken by this request is bound to: its ``Player-Token``'s, or None without one (a
    token sent to a server that keeps no players binds nobody: a 401 too, never ignored)."""
    if player_token() is None:
        return None
    if current_app.extensions.get("spades.players") is None:
        raise ApiError(401, "player_token_invalid", "This server keeps no players (RECORDS_ENABLED is off).")
    player = request_player(required=False)
    return None if player is None else request_ref(player)
