"""A rated game in the browser, on the real stack (the test server's RATED_MIN_WIN_SCORE is 50): you against
three computers with hints off is made to count. The form says games with hints are not rated; the table
shows "Rated" beside the round and the target, and where the hint button would be a note that there are no
hints; leaving warns that it cancels the game's rating for everyone before the first card, and that it is
your loss after it. Each moment fits 1280×720 and 375×667 without scrolling, shot to var/screenshots/
(rated-*)."""

from __future__ import annotations

import secrets

import pytest
import requests
from playwright.sync_api import expect

from .driver import BID, LONG, Player, assert_fits, create_game, seat_token

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]
LEAVE = "dialog[open][data-testid=leave]"


def fair_play(web: str, page, game_id: str) -> dict:
    auth = {"Authorization": f"Bearer {seat_token(page, game_id)['token']}"}
    return requests.get(f"{web}/v1/games/{game_id}", headers=auth, timeout=30).json()["fair_play"]


def warning_on_leave(page) -> str:
    """Open the leave dialog, read its warning's cost and stay."""
    page.click("[data-testid=leave-button]")
    expect(page.locator(LEAVE)).to_be_visible()
    cost = page.locator(f"{LEAVE} [data-testid=leave-warning]").get_attribute("data-cost")
    page.click("[data-testid=leave-stay]")
    expect(page.locator(LEAVE)).to_have_count(0)
    return cost


def test_a_rated_game_is_marked_offers_no_hint_and_warns_before_leaving(new_page, web, screenshots):
    page = new_page(*SIZES[0])
    page.goto("/play?pace=0")
    expect(page.locator("#hints-help")).to_have_text("Games with hints are not rated.")
    expect(page.locator("#hints")).to_have_attribute("aria-describedby", "hints-help")
    game_id = create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"], hints=False)
    assert fair_play(web, page, game_id) == {
        "counts": True,
        "reason": None,
        "forfeits": [],
        "timed_out": [],
        "aborted_by": None,
    }

    player = Player(page)
    assert player.state() == "bid"
    mark = page.locator("[data-testid=rated-mark]")
    expect(mark).to_have_text("Rated")
    expect(mark).to_have_attribute("data-rated", "yes")
    expect(page.locator("[data-testid=rated-note]")).to_have_text("No hints in rated games")
    expect(page.locator("[data-testid=hint-button]")).to_have_count(0)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        expect(page.locator("[data-testid=rated-note]")).to_be_visible()
        assert_fits(
            page, {BID: page.locator(BID).count(), "[data-testid=hand] .card": 13, "[data-testid=rated-note]": 1}
        )
        page.screenshot(path=str(screenshots / f"rated-bidding-{width}x{height}.png"))
    expect(mark).to_be_hidden()  # a phone's top bar has no room: the note by the turn line says it

    assert warning_on_leave(page) == "abort"
    page.click("[data-testid=leave-button]")
    expect(page.locator(f"{LEAVE} [data-testid=leave-warning]")).to_have_text(
        "This game is rated. Leaving now cancels the rating of this game for everyone."
    )
    page.screenshot(path=str(screenshots / f"rated-leave-abort-{SIZES[1][0]}x{SIZES[1][1]}.png"))
    page.click("[data-testid=leave-stay]")

    while not page.locator("[data-testid=trick] [data-card]").count():
        player.step()
    assert player.state() in ("card", "bid", "summary")
    page.click("[data-testid=leave-button]")
    warning = page.locator(f"{LEAVE} [data-testid=leave-warning]")
    expect(warning).to_have_attribute("data-cost", "forfeit", timeout=LONG)
    expect(warning).to_contain_text("Leaving now counts as a loss for you")
    page.screenshot(path=str(screenshots / f"rated-leave-forfeit-{SIZES[1][0]}x{SIZES[1][1]}.png"))
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    page.screenshot(path=str(screenshots / f"rated-leave-forfeit-{SIZES[0][0]}x{SIZES[0][1]}.png"))
    page.click("[data-testid=leave-stay]")
    assert fair_play(web, page, game_id)["counts"], "staying kept the game rated"
    assert page.js_errors == []


def test_a_game_with_hints_ends_saying_why_it_was_not_rated(new_page, screenshots):
    """A named person's game against the computers with hints on is not rated, and the final scores say why."""
    page = new_page(*SIZES[1])
    page.goto("/play?pace=0")
    page.click("[data-testid=choose-name]")
    page.fill("[data-testid=player-name]", f"Hinted {secrets.token_hex(3)}")
    page.click("[data-testid=player-name-save]")
    expect(page.locator("[data-testid=identity-name]")).to_contain_text("Hinted")
    create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"], hints=True)
    Player(page).play_to_end()
    note = page.locator("[data-testid=ratings-unrated]")
    expect(note).to_have_text("This game was not rated: hints were on.", timeout=LONG)
    expect(note).to_have_attribute("data-reason", "hints")
    assert_fits(page, {"[data-testid=new-game]": 1, "[data-testid=ratings-unrated]": 1})
    page.screenshot(path=str(screenshots / "rated-not-rated-hints-375x667.png"))
