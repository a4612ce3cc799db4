"""The test release's stored field and event type (``testkit/release``: copied into its tree as
``services/api/games/stamps.py``; the overlay calls :func:`stamped` from the pipeline's commit).

Every commit of this release writes ``meta.stamp`` (``{"release", "version"}``: the release that made the
game's version and that version), and every move it commits appends a ``stamped`` entry to the game's log,
which reads the stamp the version before had: ``since`` is the version of the last stamp, so a move right after
an older release's commit says ``handover``.  An older release meets both: it serves the entry and keeps the
stamp through its own commits (a stale one, whose version is behind the game's).
"""

from __future__ import annotations

from typing import Any

from services.api.games.clocks import MOVES
from services.api.games.events import event
from services.api.games.record import GameRecord
from services.engine import turn

RELEASE = "next"
FIELD = "stamp"
EVENT = "stamped"


def stamped(nxt: GameRecord, before: GameRecord | None, by: str) -> list[dict[str, Any]]:
    """``nxt`` stamped (a new dict: a record's ``unknown`` is shared with the version it was copied from), and
    for a move its ``stamped`` entry."""
    last = before.unknown.get(FIELD) if before is not None else None
    nxt.unknown = {**nxt.unknown, FIELD: {"release": RELEASE, "version": nxt.version}}
    if before is None or by not in MOVES:
        return []
    since = last["version"] if isinstance(last, dict) else None
    data = {"seat": turn(before.state), "release": RELEASE, "since": since, "handover": since != before.version}
    return [event(nxt, EVENT, data)]
