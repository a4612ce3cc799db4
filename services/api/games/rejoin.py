"""Rejoin codes: a person takes their seat back from another device.

The seat's token asks for a code (``POST /v1/games/{id}/seats/{seat}/rejoin-code``), shown only in that answer:
the web client shows it, or its link ``/play#rejoin=<game>.<code>`` (a fragment: never sent to a server, never
in a log), to the person alone.  A new code replaces the seat's previous one; ``DELETE`` on the same path
revokes it.  Redeemed (``POST /v1/games/{id}/rejoin``, no token), it gives a NEW token for the seat: the seat's
token hash is replaced in one commit with the event ``seat_rejoined {seat}``, so the old token stops working
(and its open streams end, :mod:`services.api.live.stream`).  A code is used once.  The seat's player, if any,
goes with it, and so does the credential it was taken through (:mod:`services.api.games.seat_release`); a player who
has deleted themselves gets no new token (``403 player_deleted``, :mod:`services.api.games.seat_players`), nor does
a seat taken through a credential that is dead since (``403 credential_revoked``).

At rest a code is only its SHA-256 (with the game id), stored beside the hash of the token that asked for it:
a seat that changed hands since (left and claimed, or rejoined already) refuses the code.  Guessing: 60 random
bits per code, at most one live code a seat, and failed redeems per client address are rate-limited
(``REJOIN_RATE_LIMIT``, :mod:`services.api.http.rate_limits`): at 10 a minute for a week, an address has under
one chance in 10^13 per live code.  A code never reaches the log, a view, or another seat.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any

from services.api.games import fair_play, pipeline, seat_release
from services.api.games.auth import seat_for
from services.api.games.commands import Collaborators
from services.api.games.events import event
from services.api.games.pipeline import Change, load
from services.api.games.record import GameRecord, PlayerRef, Seat
from services.api.games.rendering import game_view
from services.api.games.seat_players import live_player
from services.api.games.seat_tokens import hash_token, new_token
from services.api.metrics import REJOINS
from services.api.problems import ApiError

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O or U to misread
LENGTH = 12  # 60 bits
GROUP = 4  # shown as XXXX-XXXX-XXXX
_MISREAD = str.maketrans({"O": "0", "I": "1", "L": "1"})
_DIGEST_HEX = 64


def new_code() -> str:
    """A fresh code, in its one spelling (:func:`normalized`)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def shown(code: str) -> str:
    """A code grouped for reading aloud or typing: ``XXXX-XXXX-XXXX``."""
    return "-".join(code[i : i + GROUP] for i in range(0, LENGTH, GROUP))


def normalized(text: str) -> str | None:
    """A code as typed (any case, dashes or spaces, O for 0, I or L for 1) in its one spelling; None if no code."""
    compact = "".join(text.split()).replace("-", "").upper().translate(_MISREAD)
    if len(compact) != LENGTH or any(char not in ALPHABET for char in compact):
        return None
    return compact


def code_digest(game_id: str, code: str) -> str:
    """What the store keeps of a (normalized) code: its SHA-256 with the game's id."""
    return hashlib.sha256(f"spades-rejoin:{game_id}:{code}".encode()).hexdigest()


def _own_seat(ctx: Collaborators, game_id: str, seat: int, token: str) -> None:
    record = load(ctx.store, game_id)
    if seat_for(record, token) != seat:
        raise ApiError(403, "forbidden", "A token may only manage its own seat's rejoin code.")
    ctx.note_seat(seat)


def create_code(ctx: Collaborators, game_id: str, seat: int, token: str) -> dict[str, Any]:
    """A new code for the token's own seat (the previous one stops working)."""
    _own_seat(ctx, game_id, seat, token)
    code = new_code()
    ctx.store.set_rejoin_code(game_id, seat, code_digest(game_id, code) + hash_token(token))
    return {"game_id": game_id, "seat": seat, "code": shown(code)}


def revoke_code(ctx: Collaborators, game_id: str, seat: int, token: str) -> None:
    _own_seat(ctx, game_id, seat, token)
    ctx.store.drop_rejoin_code(game_id, seat)


def _refused() -> ApiError:
    REJOINS.labels("refused").inc()
    return ApiError(
        403,
        "invalid_rejoin_code",
        "No seat of this game has that rejoin code: it was mistyped, used already, revoked or replaced by a newer "
        "one, or the seat changed hands since. Ask for a new code on the device that holds the seat.",
    )


def redeem(ctx: Collaborators, game_id: str, code: str, client: str | None = None) -> dict[str, Any]:
    """The seat of ``code`` with a new token; the seat's old token is revoked in the same commit.  ``client``:
    who took it (:func:`services.api.games.fair_play.seat_taken`)."""
    compact = normalized(code)
    load(ctx.store, game_id)  # 404 for a game that is gone
    taken = ctx.store.take_rejoin_code(game_id, code_digest(game_id, compact)) if compact else None
    if taken is None:
        raise _refused()
    seat, stored = taken
    try:
        return _rejoin(ctx, game_id, seat, stored[_DIGEST_HEX:], client)
    except ApiError as error:
        if error.status >= 500:  # not redeemed: the code stays good for a retry
            ctx.store.set_rejoin_code(game_id, seat, stored)
        raise
    except Exception:  # the store or the records database (the seat's player) failed: not redeemed either
        ctx.store.set_rejoin_code(game_id, seat, stored)
        raise


def _rejoin(ctx: Collaborators, game_id: str, seat: int, bound_to: str, client: str | None) -> dict[str, Any]:
    def holds(record: GameRecord) -> None:
        if record.seats[seat].token_hash != bound_to:
            raise _refused()

    answer = hand_over(ctx, game_id, seat, holds, client)
    REJOINS.labels("redeemed").inc()
    return answer


def hand_over(
    ctx: Collaborators,
    game_id: str,
    seat: int,
    check: Callable[[GameRecord], None],
    client: str | None,
    taker: PlayerRef | None = None,
) -> dict[str, Any]:
    """The seat with a new token, its old one revoked in the same commit (``seat_rejoined``), once ``check`` (which
    raises to refuse) passes on the game as read: the one change of a redeemed rejoin code and of a seat taken back
    with its player's credential (:mod:`services.api.games.take_back`: ``taker``, that request's player and
    credential; a rejoin keeps the seat's own).  ``client``: who took it
    (:func:`services.api.games.fair_play.seat_taken`)."""
    token = new_token()
    bound: list[PlayerRef | None] = [None]

    def rejoin(record: GameRecord) -> Change:
        check(record)
        player = bound[0] = taker or record.seats[seat].player
        # 403 player_deleted, credential_revoked: a deleted player's seat, or a dead credential's, gets no new token
        live_player(ctx.players, player)
        nxt = record.successor()
        nxt.seats[seat] = Seat.taken(hash_token(token), player)  # the same player, as the seat was taken
        fair_play.seat_taken(nxt, seat, client)
        # the same person with a new token: back at the table (no longer away), the turn's clock runs on
        return Change(nxt, lambda n: [event(n, "seat_rejoined", {"seat": seat})])

    done = pipeline.run(ctx, game_id, rejoin)
    assert isinstance(done, Change)
    ctx.note_seat(seat)
    seat_release.recheck(ctx, game_id, bound)  # its credential revoked meanwhile
    return {"game_id": game_id, "seat": seat, "token": token, "state": game_view(done.nxt, seat, ctx.cache)}
