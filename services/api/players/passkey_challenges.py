"""WebAuthn challenges on the records database (``passkey_challenges``): random, single-use, expiring.

A challenge is 32 random bytes the server hands out with a registration's or a sign-in's options; the browser's
answer signs it (inside ``clientDataJSON``), so an answer is bound to one ceremony.  Only its SHA-256 is kept, with
its purpose (``register``, for one player; ``sign_in``, for anyone) and its expiry (at most five minutes:
:data:`MAX_CHALLENGE_MS`).  :func:`spend` marks it used by an ``UPDATE`` that holds only while it is unused and
unexpired, on the caller's transaction: the one that also stores the passkey or opens the session, so a refused
answer leaves it unspent and nothing else changed, and of two answers racing with one challenge one wins.  A
refusal says why: no such challenge (``403 passkey_challenge_invalid``), answered already
(``410 passkey_challenge_used``: a replay), expired (``410 passkey_challenge_expired``).
"""

from __future__ import annotations

import secrets

from sqlalchemy import Connection, delete, select, update

from services.api.players.credentials import digest
from services.api.problems import ApiError
from services.api.records.schema import passkey_challenges

MAX_CHALLENGE_MS = 300_000  # five minutes: the longest a challenge may live
KEEP_EXPIRED_MS = 86_400_000  # an expired challenge is told apart from a wrong one for a day, then dropped
CHALLENGE_BYTES = 32
PURPOSES = ("register", "sign_in")


def challenge_invalid() -> ApiError:
    return ApiError(
        403,
        "passkey_challenge_invalid",
        "This server gave out no such challenge (or gave it for something else): ask for new options.",
    )


def challenge_used() -> ApiError:
    return ApiError(
        410,
        "passkey_challenge_used",
        "That challenge was answered already: each one is used once. Ask for new options.",
    )


def challenge_expired() -> ApiError:
    return ApiError(410, "passkey_challenge_expired", "That challenge has expired: ask for new options and try again.")


def issue(connection: Connection, purpose: str, player_id: str | None, now_ms: int, lifetime_ms: int) -> bytes:
    """A fresh challenge for ``purpose`` (a registration's for ``player_id``), kept as its hash until it expires
    ``lifetime_ms`` from now; challenges expired for a day are dropped."""
    if purpose not in PURPOSES or (purpose == "register") != (player_id is not None):
        raise ValueError(purpose)
    if not 0 <= lifetime_ms <= MAX_CHALLENGE_MS:
        raise ValueError(lifetime_ms)
    challenge = secrets.token_bytes(CHALLENGE_BYTES)
    connection.execute(delete(passkey_challenges).where(passkey_challenges.c.expires_ms < now_ms - KEEP_EXPIRED_MS))
    connection.execute(
        passkey_challenges.insert().values(
            challenge_hash=_key(challenge),
            purpose=purpose,
            player_id=player_id,
            created_ms=now_ms,
            expires_ms=now_ms + lifetime_ms,
        )
    )
    return challenge


def spend(connection: Connection, challenge: bytes, purpose: str, player_id: str | None, now_ms: int) -> None:
    """Mark ``challenge`` used on ``connection`` (the caller's transaction), or refuse it with its reason."""
    key = _key(challenge)
    table = passkey_challenges.c
    mine = [table.challenge_hash == key, table.purpose == purpose]
    mine.append(table.player_id.is_(None) if player_id is None else table.player_id == player_id)
    taken = connection.execute(
        update(passkey_challenges)
        .where(*mine, table.used_ms.is_(None), table.expires_ms > now_ms)
        .values(used_ms=now_ms)
    ).rowcount
    if taken:
        return
    row = connection.execute(select(table.used_ms).where(*mine)).first()
    if row is None:
        raise challenge_invalid()
    raise challenge_used() if row.used_ms is not None else challenge_expired()


def _key(challenge: bytes) -> str:
    return digest("passkey_challenge", challenge.hex())
