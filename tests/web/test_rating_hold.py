"""A player held by the fair-play watch, on their profile on the real stack (gunicorn with its own records
database): a dozen rated games in, a flag raised, the profile shows no rating, no rating chart and no rating in
the recent games, only why (anyone else only that they are not shown), and the leaderboards' own line says why too — in English and Indonesian, at 1280×720 and 375×667, shot to var/screenshots/
(rating-hold-*)."""

from __future__ import annotations

import json

import pytest
import requests
from playwright.sync_api import expect

from services.api.ratings.watch import raise_flag
from services.api.records.database import SQLITE_FILE, make_engine
from services.api.records.schema import player_games, player_ratings
from services.api.store.protocol import now_ms
from services.ratings.model import Rating, ordinal
from services.ratings.watch import BOOSTING

from .driver import outside

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]
HELD = Rating(33.0, 4.5)  # what a ring's booster took in a dozen games
HIDDEN = {"en": "Ratings not shown for now.", "id": "Rating tidak ditampilkan untuk saat ini."}  # to anyone else
HELD_GAME = {"en": "rated · held", "id": "dinilai · ditahan"}  # a rated game whose change is not shown
WORDS = {
    "en": ("en-US", "Ratings held for a fair-play review"),
    "id": ("id-ID", "Rating ditahan untuk peninjauan fair play"),
}


@pytest.fixture
def held_player(gunicorn_factory, private_redis_url, tmp_path) -> tuple[str, dict]:
    """A server of its own, and a player of it with a dozen rated games whose boosting flag is open."""
    base = gunicorn_factory({"DATA_DIR": str(tmp_path), "PLAYER_CREATE_RATE_LIMIT": ""}, redis=private_redis_url)
    made = requests.post(f"{base}/v1/players", json={"name": "Quick Climber"}, timeout=30).json()
    player_id, at = made["player"]["id"], now_ms()
    engine = make_engine(f"sqlite:///{tmp_path}/{SQLITE_FILE}")
    with engine.begin() as connection:
        connection.execute(
            player_ratings.insert().values(
                player_id=player_id, board="partnership", kind="person", mu=HELD.mu, sigma=HELD.sigma,
                score=ordinal(HELD), games=12, updated_ms=at, provisional=True,
            )
        )  # fmt: skip
        connection.execute(
            player_games.insert().values(
                player_id=player_id, game_id="g_thrown", seat=0, ended_ms=at, won=True, board="partnership",
                rated=True, mu_before=30.0, sigma_before=4.8, mu_after=HELD.mu, sigma_after=HELD.sigma, games_after=12,
            )
        )  # fmt: skip
        raise_flag(connection, player_id, BOOSTING, ["g_thrown"], {"games": 12}, at)
    engine.dispose()
    return base, {**made["player"], "token": made["token"]}


@pytest.mark.parametrize("language", ["en", "id"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["laptop", "phone"])
def test_a_held_players_profile_shows_no_rating_only_why(new_page, held_player, screenshots, width, height, language):
    base, player = held_player
    mine = {"Player-Token": player["token"]}
    shown = requests.get(f"{base}/v1/players/{player['id']}", headers=mine, timeout=30).json()
    assert (shown["rating_hold"], shown["ratings"]) == ("review", {})
    assert requests.get(f"{base}/v1/players/{player['id']}", timeout=30).json()["rating_hold"] == "hidden"
    locale, why = WORDS[language]
    page = new_page(width, height, base=base, locale=locale)
    stored = {key: player[key] for key in ("id", "name", "kind", "token")}
    page.add_init_script(f"localStorage.setItem('spades.player', {json.dumps(json.dumps(stored))})")
    page.goto(f"/play?pace=0#/players/{player['id']}")
    hold = page.locator("[data-testid=rating-hold]")
    expect(hold).to_contain_text(why)
    expect(page.locator("[data-testid=rating-partnership]")).to_have_count(0)
    expect(page.locator("[data-testid=no-chart]")).to_be_visible()
    expect(page.locator("[data-testid=games] li").first).to_be_visible()
    expect(page.locator("[data-testid=games] .game-after")).to_have_count(0)
    expect(page.locator("[data-testid=games] .game-unrated").first).to_have_text(HELD_GAME[language])
    assert outside(page, "[data-testid=rating-hold]") == [], "why is on the first screen"
    page.screenshot(path=str(screenshots / f"rating-hold-{language}-{width}x{height}.png"))
    other = new_page(width, height, base=base, locale=locale)  # anyone else: not shown, and no word of a review
    other.goto(f"/play?pace=0#/players/{player['id']}")
    expect(other.locator("[data-testid=rating-hold]")).to_have_text(HIDDEN[language])
    other.context.close()
    page.click(".crumbs a >> nth=1")  # the leaderboards: off the board, and its own line says why
    expect(page.locator("[data-testid=lb-me]")).to_contain_text(why)
    expect(page.locator(f"[data-testid=leaderboard] tr[data-player='{player['id']}']")).to_have_count(0)
    assert page.js_errors == []
