"""An app on the memory store with its records (and players' tables) in a SQLite file: the ratings routes'
tests fill the tables directly and read them through the routes."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import Engine

from services.api.app import create_app
from services.api.games.record import GameRecord
from services.api.store.memory_store import MemoryStore


def ratings_client(tmp_path: Any) -> tuple[FlaskClient, Engine]:
    settings = {
        "STORE": MemoryStore(GameRecord.from_stored),
        "AI_ENABLED": False,
        "RATE_LIMIT_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        "DATA_DIR": str(tmp_path),
        "RECORDS_WRITER_ENABLED": False,
        "LOBBY_SWEEPER_ENABLED": False,
    }
    app = create_app(settings)
    return app.test_client(), app.extensions["spades.records"].engine
