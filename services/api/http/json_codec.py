"""Flask's JSON provider on orjson, the API's hottest serialisation path.

A move answers with the mover's whole view (up to ~10 KB late in a game);
encoding it with the standard library was the largest single cost of a move
in profiles.  orjson produces the same compact JSON several times faster.
Parsing tries orjson first and falls back to the standard library for what
orjson refuses but JSON allows (integers beyond 64 bits), so request bodies
mean exactly what they meant before: the schemas judge them, not the parser.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider


def loads(text: str | bytes) -> Any:
    """orjson, or the standard library for what orjson refuses (integers
    beyond 64 bits, and the errors for malformed text)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


class OrjsonProvider(DefaultJSONProvider):
    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:  # an option orjson doesn't mirror (indent, sort_keys, default…): the standard path
            return super().dumps(obj, **kwargs)
        return orjson.dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s) if not kwargs else super().loads(s, **kwargs)
