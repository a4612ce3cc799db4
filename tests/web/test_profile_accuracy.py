"""A player's accuracy on their profile, on the real stack (gunicorn with its own records database, three scored
rated games in it): the "Accuracy" tile beside the stats, on the first screen at 1280×720 and 375×667, shot to
var/screenshots/ (profile-accuracy-*)."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import expect

from services.api.records.database import SQLITE_FILE, make_engine
from services.api.records.schema import game_accuracy
from services.api.store.protocol import now_ms

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]


@pytest.fixture
def scored_player(gunicorn_factory, private_redis_url, tmp_path) -> tuple[str, str]:
    """A server of its own, and a player with three rated games scored: 120 decisions, 102 accurate."""
    base = gunicorn_factory({"DATA_DIR": str(tmp_path), "PLAYER_CREATE_RATE_LIMIT": ""}, redis=private_redis_url)
    player = requests.post(f"{base}/v1/players", json={"name": "Careful Carla"}, timeout=30).json()["player"]["id"]
    engine = make_engine(f"sqlite:///{tmp_path}/{SQLITE_FILE}")
    rows = [
        {"game_id": f"g{n}", "seat": 0, "player_id": player, "decisions": 40, "accurate": 34, "given_away": 92.0,
         "cards": 20, "trick_excess": 0.1, "true_cards": 12, "true_agreed": 7, "scored_ms": now_ms()}
        for n in range(3)
    ]  # fmt: skip
    with engine.begin() as connection:
        connection.execute(game_accuracy.insert(), rows)
    engine.dispose()
    return base, player


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["laptop", "phone"])
def test_a_profile_shows_the_accuracy_of_the_players_scored_rated_games(
    new_page, scored_player, screenshots, width, height
):
    base, player = scored_player
    shown = requests.get(f"{base}/v1/players/{player}", timeout=30).json()["accuracy"]
    assert (shown["games"], shown["decisions"], shown["accurate_share"]) == (3, 120, 0.85)
    page = new_page(width, height, base=base)
    page.goto(f"/play#/players/{player}")
    tile = page.locator("[data-testid=stat-accuracy]")
    expect(tile).to_contain_text("Accuracy")
    expect(tile).to_contain_text("85%")
    expect(tile).to_contain_text("2.3 points given away a move · 3 rated games")
    tile.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"profile-accuracy-{width}x{height}.png"))
    assert page.js_errors == []
