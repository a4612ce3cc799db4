"""examples/bot.py (on the spades_client runner), run as a third party would: a subprocess talking HTTP
to real gunicorn, with a real Celery worker playing the three computer seats."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from testkit.http_clients import EventFollower
from tests.api.contract import ContractSession

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "examples" / "bot.py"
RULES = {"preset": "partnership", "win_score": 100, "lose_score": -100}


def test_bot_claims_the_open_seat_and_plays_it_to_game_over(api_server, ai_worker):
    session = ContractSession(api_server)
    seats = [
        {"type": "ai", "level": "easy"},
        {"type": "open"},
        {"type": "ai", "level": "easy"},
        {"type": "ai", "level": "easy"},
    ]
    created = session.post("/v1/games", json={"rules": RULES, "seats": seats})
    assert created.status_code == 201
    game_id = created.json()["game_id"]
    follower = EventFollower(api_server, game_id)  # the log keeps only the last rounds: read as it goes
    follower.start()  # nothing moves before the bot claims its seat

    bot = subprocess.run(
        [sys.executable, str(BOT), "--api", api_server, "--game", game_id],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert bot.returncode == 0, bot.stderr[-3000:]
    assert f"claimed seat 1 of game {game_id}" in bot.stderr

    final = session.get(f"/v1/games/{game_id}").json()
    assert final["phase"] == "game_over"
    assert final["seats"][1]["type"] == "human", "the bot holds the seat it claimed"
    events = follower.finish()
    assert [e["data"]["seat"] for e in events if e["type"] == "seat_claimed"] == [1]
    rounds = sum(e["type"] == "round_started" for e in events)
    bot_bids = [e for e in events if e["type"] == "bid" and e["data"]["seat"] == 1]
    bot_cards = [e for e in events if e["type"] == "card_played" and e["data"]["seat"] == 1]
    assert len(bot_bids) == rounds, "the bot bid once in every round"
    assert len(bot_cards) == 13 * rounds, "the bot played every card of every hand it was dealt"
    assert events[-1]["type"] == "game_over" and rounds >= 1
