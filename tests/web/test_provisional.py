"""A provisional rating in the browser, on the real stack: a player with a dozen rated games sees its
rating with a "?" on its profile (a title that says why, "provisional" for screen readers, the sentence
under it) and in its games, and the leaderboard lists a seasoned player but not it, its own place saying it
is provisional. In English and in Indonesian (no English word on the Indonesian pages); each page at
1280×720 and 375×667 without sideways scrolling and axe-core clean, shot to var/screenshots/
(provisional-*). The ratings are written into the records database the server reads (a dozen games and
sixty are a long way to play in a browser test); the flags and the buckets are counted by the server's own
recount."""

from __future__ import annotations

import json
import secrets

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import text

from services.ratings.model import Rating, display
from services.ratings.provisional import PROVISIONAL_GAMES

from .axe import assert_no_violations
from .driver import LONG
from .players_api import make_player, records_engine, season
from .test_players import no_sideways_scroll
from .test_players_i18n import allowed_names, no_english

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]
MINE = Rating(31.0, 4.6)  # a dozen games in: sure of little yet
WORDS = {
    "en": {
        "locale": "en-US",
        "why": f"Provisional: fewer than {PROVISIONAL_GAMES} rated games, or the rating is not sure enough yet.",
        "label": "(provisional)",
        "me": "is provisional: you join the board after",
        "boards": "Leaderboards",
    },
    "id": {
        "locale": "id-ID",
        "why": f"Sementara: kurang dari {PROVISIONAL_GAMES} permainan yang dinilai, atau ratingnya belum cukup pasti.",
        "label": "(sementara)",
        "me": "masih sementara: Anda masuk papan setelah",
        "boards": "Papan peringkat",
    },
}


def a_dozen_games_in(player_id: str) -> None:
    """The player's partnership rating and stats after 12 rated games, its last game among them (a provisional
    rating)."""
    engine = records_engine()
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO player_games (player_id, game_id, seat, ended_ms, won, board, rated, mu_before,"
                    " sigma_before, mu_after, sigma_after, games_after)"
                    " VALUES (:id, :game, 0, 1796000000000, true, 'partnership', true, 30.0, 4.8, :mu, :sigma, 12)"
                ),
                {"id": player_id, "game": f"g-{secrets.token_hex(4)}", "mu": MINE.mu, "sigma": MINE.sigma},
            )
            connection.execute(
                text(
                    "INSERT INTO player_ratings (player_id, board, kind, mu, sigma, score, games, updated_ms,"
                    " provisional) VALUES (:id, 'partnership', 'person', :mu, :sigma, :score, 12, 0, true)"
                ),
                {"id": player_id, "mu": MINE.mu, "sigma": MINE.sigma, "score": MINE.mu - 3 * MINE.sigma},
            )
            connection.execute(
                text(
                    "INSERT INTO player_stats (player_id, games, wins, rounds, contracts_bid, contracts_made, sets,"
                    " nils_bid, nils_made, bags, updated_ms) VALUES (:id, 12, 7, 94, 90, 71, 19, 6, 4, 130, 0)"
                ),
                {"id": player_id},
            )
    finally:
        engine.dispose()


def at_each_size(page: Page, what: str, ready: str, shot: str, screenshots) -> None:
    """At 1280×720 and 375×667 (read again, as a page opened there): fits the width, passes axe, is shot."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        expect(page.locator(ready).first).to_be_visible(timeout=LONG)
        no_sideways_scroll(page, f"{what} at {width}×{height}")
        assert_no_violations(page, f"{what} at {width}×{height}")
        page.screenshot(path=str(screenshots / f"{shot}-{width}x{height}.png"))
    page.set_viewport_size({"width": 1280, "height": 720})


@pytest.mark.parametrize("language", ["en", "id"])
def test_a_provisional_rating_shows_a_question_mark_and_stays_off_the_leaderboard(
    new_page, web, screenshots, language: str
):
    words = WORDS[language]
    made = make_player(web, f"Pat {secrets.token_hex(3)}")
    me = {**made["player"], "token": made["token"]}
    rival = make_player(web, f"Sam {secrets.token_hex(3)}")["player"]
    a_dozen_games_in(me["id"])
    season([rival["id"]], games=64, sigma=1.9)  # the flags and the buckets counted as a server's start does
    shown = str(display(MINE))
    page = new_page(1280, 720, bypass_csp=True, locale=words["locale"])
    page.add_init_script(f"localStorage.setItem('spades.player', {json.dumps(json.dumps(me))})")
    prefix = "provisional" if language == "en" else "provisional-id"

    # the profile: the rating card, the sentence under it, the game in the list
    page.goto(f"/play?pace=0#/players/{me['id']}")
    card = page.locator("[data-testid=rating-partnership]")
    expect(card).to_be_visible(timeout=LONG)
    mark = card.locator(".rating-value [data-provisional=true]")
    expect(mark).to_have_text(f"{shown}? {words['label']}")  # the last words only for screen readers
    expect(mark.locator(".provisional-mark")).to_have_attribute("aria-hidden", "true")
    assert mark.get_attribute("title").startswith(words["why"])
    expect(card.locator("[data-testid=provisional-partnership]")).to_contain_text(words["why"])
    expect(card).not_to_contain_text("#")  # no rank: it is on no board
    game = page.locator("[data-testid=games] .game-after [data-provisional=true]")
    expect(game).to_have_text(f"{shown}? {words['label']}")
    if language == "id":
        no_english(page, "[data-testid=profile]", allowed_names(me["name"]), "a provisional player's profile")
    at_each_size(
        page, "a provisional player's profile", "[data-testid=rating-partnership]", f"{prefix}-profile", screenshots
    )

    # the leaderboard: the seasoned rival on it, the player not, its own place provisional
    page.click(f".crumbs >> text={words['boards']}")
    board = page.locator("[data-testid=leaderboard]")
    expect(board.locator(f"tr[data-player='{rival['id']}']")).to_be_visible(timeout=LONG)
    expect(board.locator(f"tr[data-player='{me['id']}']")).to_have_count(0)
    place = page.locator("[data-testid=lb-me]")
    expect(place).to_contain_text(words["me"])
    expect(place.locator("[data-provisional=true]")).to_have_text(f"{shown}? {words['label']}")
    if language == "id":
        names = board.locator(".lb-name a").all_text_contents()
        no_english(page, "[data-testid=leaderboards]", allowed_names(me["name"], *names), "the leaderboard")
    at_each_size(
        page, "the leaderboard of a provisional player", "[data-testid=lb-me]", f"{prefix}-leaderboard", screenshots
    )
    assert not page.js_errors
