"""Fair share at creation: how many games one creator keeps in play.

A *creator* is the client address a ``POST /v1/games`` comes from (after the trusted proxies,
``PROXY_FIX_HOPS``) and, when the request carries ``Authorization: Bearer <seat token>``, that token
too: each is its own creator, hashed before it is stored (:func:`creator_ids`; never an address or a
token in clear).  A new game is held by each of its creators until it ends (game over, released by
the commit that ends it) or until its expiry at creation (``GAME_TTL_SECONDS``: a game abandoned
unfinished frees its place when it would have expired unplayed), and refused with a ``429`` when one
of them already holds ``MAX_GAMES_IN_PLAY`` games, or — for a computer-only game —
``MAX_COMPUTER_GAMES`` computer-only games.  The creators' ids go into the game's record
(``GameRecord.creators``), so the commit that ends it can release them; nothing else reads them.

The rate of creation per address is a flask-limiter limit (``CREATE_RATE_LIMIT``,
:mod:`services.api.http.rate_limits`); the store's side is :mod:`services.api.store.fair_share`.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from services.api.games.record import GameRecord
from services.api.metrics import QUOTA_REFUSALS
from services.api.problems import ApiError
from services.api.store.fair_share import GAMES
from services.api.store.protocol import GameStore

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 60  # a game in play ends when its players finish it: ask again in a minute
_ID_HEX = 32  # 128 bits of SHA-256: a creator's id


@dataclass(frozen=True, slots=True)
class Quotas:
    """The per-creator limits (0: none), and how long a hold lasts at most (the game's expiry at creation)."""

    games_in_play: int = 0  # MAX_GAMES_IN_PLAY
    computer_games: int = 0  # MAX_COMPUTER_GAMES
    hold_seconds: int = 7 * 24 * 3600  # GAME_TTL_SECONDS
    clock: Callable[[], float] = field(default=time.time, compare=False)  # when holds start and end

    @property
    def active(self) -> bool:
        return bool(self.games_in_play or self.computer_games)


NO_QUOTAS = Quotas()


def _digest(kind: str, value: str) -> str:
    return hashlib.sha256(f"spades-creator:{kind}:{value}".encode("utf-8", "surrogatepass")).hexdigest()[:_ID_HEX]


def address_id(address: str | None) -> str | None:
    """A client address as the store keeps it (hashed: a pseudonym): a creator id, and who took a seat
    (:mod:`services.api.games.fair_play`)."""
    return f"a{_digest('address', address)}" if address else None


def creator_ids(address: str | None, token: str | None) -> tuple[str, ...]:
    """The creators a create request counts for: its address, and its seat token when it holds one (hashed).

    The hash keeps addresses and tokens out of the store in clear; an IPv4 address is a small space, so
    for an address it is a pseudonym, not a secret (the rate-limit counters name addresses anyway)."""
    held = address_id(address)
    ids = [held] if held else []
    if token:
        ids.append(f"t{_digest('token', token)}")
    return tuple(ids)


def refusal(code: str, quotas: Quotas) -> ApiError:
    if code == GAMES:
        limit, what, name = quotas.games_in_play, "games in play", "too_many_games"
    else:
        limit, what, name = quotas.computer_games, "computer-only games in play", "too_many_computer_games"
    QUOTA_REFUSALS.labels(name).inc()
    detail = (
        f"You already have {limit} {what}, the most one client keeps at once. Finish one (or let it expire), "
        "then create another; Retry-After says when to ask again."
    )
    return ApiError(429, name, detail, retry_after=RETRY_AFTER_SECONDS, limit=limit)


def hold(store: GameStore, quotas: Quotas, record: GameRecord) -> None:
    """Hold ``record`` (a game about to be created) for each of its creators, or raise the ``429`` of the
    first quota it would break (holding nothing then)."""
    if not quotas.active or not record.creators:
        return
    now = quotas.clock()
    limits = (quotas.games_in_play, quotas.computer_games)
    held: list[str] = []
    for creator in record.creators:
        refused = store.hold_game(creator, record.game_id, record.computer_only, limits, now, now + quotas.hold_seconds)
        if refused is not None:
            if held:
                store.release_game(held, record.game_id)
            raise refusal(refused, quotas)
        held.append(creator)


def release(store: GameStore, record: GameRecord) -> None:
    """The game no longer counts for its creators (it ended, or was never created).  Never raises: the
    change that ended it is committed, and a hold left behind ends at its expiry anyway."""
    if not record.creators:
        return
    try:
        store.release_game(record.creators, record.game_id)
    except Exception:
        log.warning("could not release a finished game's holds", extra={"game_id": record.game_id}, exc_info=True)
