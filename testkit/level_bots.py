"""The computer levels' own decision functions as bots for ``spades-bot`` (``--bot testkit.level_bots:normal``):
a match of a level against itself through the API must find no difference, and against another level the
difference ``benchmarks.tournament`` finds in process."""

from __future__ import annotations

import hashlib
from typing import Any

from services.ai_worker import decide
from spades_client.models import GameView


def level_bot(level: str):
    """A bot that moves as ``level`` does, from the seat's view alone (seeded by game, version and seat)."""

    def choose(view: GameView) -> dict[str, Any]:
        digest = hashlib.sha256(f"{view.game_id}:{view.version}:{view.you}".encode()).digest()
        return decide(view.to_dict(), level, int.from_bytes(digest[:4], "big"))

    choose.__name__ = level
    return choose


easy = level_bot("easy")
basic = level_bot("basic")
normal = level_bot("normal")
hard = level_bot("hard")
expert = level_bot("expert")
