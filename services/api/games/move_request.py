"""A move request as the routes hand it to :func:`services.api.games.commands.make_move`:
the parsed body, ``If-Match`` and the ``Idempotency-Key`` fingerprint."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from services.api.problems import invalid_request
from services.engine import Bid, Play, parse_card


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A client's move as the route parsed it."""

    token: str
    move: Bid | Play
    if_match: int | None = None  # the version the client saw (If-Match)
    idempotency_key: str | None = None
    fingerprint: str | None = None  # of kind and body; set with an idempotency key


def parse_if_match(header: str | None) -> int | None:
    """``"7"``, ``W/"7"`` or ``7`` → 7; anything else is a 400."""
    if header is None:
        return None
    text = header.strip()
    if text.startswith("W/"):
        text = text[2:]
    text = text.strip('"')
    if not text.isdigit() or len(text) > 15:
        raise invalid_request([{"field": "If-Match", "message": 'must be an ETag like "7"'}])
    return int(text)


def request_fingerprint(kind: str, body: dict[str, Any]) -> str:
    """What an ``Idempotency-Key`` is bound to: the same key with another body is refused."""
    return hashlib.sha256(f"{kind}:{json.dumps(body, sort_keys=True)}".encode()).hexdigest()


def parse_move(kind: str, body: dict[str, Any]) -> Bid | Play:
    return Bid(body["bid"]) if kind == "bid" else Play(parse_card(body["card"]))
