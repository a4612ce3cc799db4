"""Stored ``Idempotency-Key`` entries, kept small.

A seat keeps one entry, its last accepted keyed move's (:func:`services.api.store.protocol.idempotency_key`):
the key's digest, then the response.  A response is the seat's view, and a late view is mostly ``history`` (every finished round's
hand record).  An entry stores the response without it, with the number of finished rounds, and
compressed (a view's JSON repeats its keys: ~1.5 KB becomes ~0.5 KB, for ~20 µs a move).  A replay
puts the rounds back from the current record: finished rounds are append-only, so the first ``rounds``
of them are exactly the ones the original response held, and the replay equals the original.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import orjson

from services.api.games.record import GameRecord
from services.api.games.rendering import ViewCache, finished_rounds
from services.api.store.protocol import KEY_DIGEST_BYTES

COMPRESSION_LEVEL = 1  # zlib's fastest: nearly the ratio of the default level, at a third of its cost


@dataclass(frozen=True, slots=True)
class StoredResponse:
    fingerprint: str  # what the key is bound to (services.api.games.move_request.request_fingerprint)
    rounds: int  # finished rounds the original response's history held
    response: dict[str, Any]  # the original response without its history


def pack(digest: bytes, fingerprint: str, response: dict[str, Any]) -> bytes:
    """The entry stored for a move's ``response`` (a game view) under the key of ``digest``
    (:func:`services.api.store.protocol.key_digest`): the digest first, so a lookup tells whose entry
    it is without decompressing it."""
    compact = {name: value for name, value in response.items() if name != "history"}
    entry = {"fingerprint": fingerprint, "rounds": len(response.get("history", ())), "response": compact}
    return digest + zlib.compress(orjson.dumps(entry), COMPRESSION_LEVEL)


def unpack(raw: bytes) -> StoredResponse:
    entry = orjson.loads(zlib.decompress(raw[KEY_DIGEST_BYTES:]))
    return StoredResponse(entry["fingerprint"], entry["rounds"], entry["response"])


def replay(stored: StoredResponse, record: GameRecord, cache: ViewCache | None) -> dict[str, Any] | None:
    """The original response, its history rebuilt from ``record``; None when ``record`` is older
    than the entry (a stale copy with fewer finished rounds): read the game again."""
    history = record.state.history
    if len(history) < stored.rounds:
        return None
    return {
        **stored.response,
        "history": finished_rounds(record.game_id, history[: stored.rounds], record.state.rules, cache),
    }
