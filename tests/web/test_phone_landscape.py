"""A phone on its side (667×375), on the real stack: the bid panel with its longest note (partner bid low: the
team's minimum, "or nil" and the team's maximum) fits the felt's middle in English and Indonesian, nothing
scrolling inside it, every bid and every seat in sight; a replay shows its stepper and the felt together,
neither covering the other. Screenshots: var/screenshots/landscape-*.png."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.api.helpers import wait_until

from .driver import BID, LONG, assert_fits, seated_game

pytestmark = pytest.mark.integration

WIDTH, HEIGHT = 667, 375
PARTNER_BIDS_ONE = 7  # this seed's deal: North (basic) bids 1, so South's note names the minimum and the maximum
# the element under each one's own centre is itself (or inside it): not covered, not scrolled out of its panel
COVERED = """els => els.filter(e => {
  const r = e.getBoundingClientRect();
  return !e.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
}).map(e => e.dataset.testid || e.dataset.bid || e.className)"""
SCROLLS_INSIDE = "e => e.scrollHeight > e.clientHeight + 1"


@pytest.mark.parametrize("locale", ["en-US", "id-ID"], ids=["english", "indonesian"])
def test_the_bid_panel_and_its_note_fit_a_phone_on_its_side(new_page, web, screenshots, locale):
    page = new_page(WIDTH, HEIGHT, locale=locale)
    seated_game(page, web, {"preset": "partnership"}, PARTNER_BIDS_ONE)
    expect(page.locator(BID).first).to_be_visible(timeout=LONG)
    note = page.locator("[data-testid=bid-note]")
    expect(note).to_contain_text("(atau nil)" if locale == "id-ID" else "(or nil)")  # the long note
    panel = page.locator("[data-testid=bidding]")
    page.screenshot(path=str(screenshots / f"landscape-bidding-{locale}.png"))
    assert not panel.evaluate(SCROLLS_INSIDE), panel.evaluate("e => [e.scrollHeight, e.clientHeight]")
    assert_fits(page, {BID: page.locator(BID).count(), "[data-testid=bid-note]": 1, "[data-testid=felt] .seat": 4})
    assert page.locator(f"{BID}, [data-testid=bid-note], [data-testid=felt] .seat").evaluate_all(COVERED) == []


def finished_computer_game(web: str) -> str:
    """Four computers play a game to one point through; its id once its record is kept."""
    body = {"rules": {"preset": "partnership", "win_score": 1}, "seats": [{"type": "ai", "level": "basic"}] * 4}
    created = requests.post(f"{web}/v1/games", json=body, timeout=30)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    record = f"{web}/v1/games/{game_id}/record"
    wait_until(lambda: requests.get(record, timeout=30).status_code == 200, "the game ends and is recorded", 300)
    return game_id


def stepper_and_felt_in_sight(page: Page) -> None:
    controls = page.locator("[data-testid=replay-controls]")
    assert not controls.evaluate(SCROLLS_INSIDE), controls.evaluate("e => [e.scrollHeight, e.clientHeight]")
    steps = ["replay-prev-trick", "replay-prev", "replay-next", "replay-next-trick", "replay-slider"]
    shown = {f"[data-testid={step}]": 1 for step in steps} | {"[data-testid=felt]": 1, "[data-testid=felt] .seat": 4}
    for selector, count in shown.items():
        expect(page.locator(selector)).to_have_count(count)
    inside = page.locator(", ".join(shown)).evaluate_all(
        "els => els.filter(e => { const r = e.getBoundingClientRect(); return r.top < 0 || r.bottom > innerHeight"
        " || r.left < 0 || r.right > innerWidth; }).map(e => e.dataset.testid || e.className)"
    )
    assert inside == [], f"outside the first screen: {inside}"
    assert page.locator(", ".join(shown)).evaluate_all(COVERED) == [], "the stepper covers the table, or is covered"


def test_a_replay_shows_its_stepper_and_the_felt_together_on_a_phone_on_its_side(new_page, web, screenshots):
    game_id = finished_computer_game(web)
    page = new_page(WIDTH, HEIGHT)
    page.goto(f"/play#/replay/{game_id}")
    expect(page.locator("[data-testid=replay-table]")).to_be_visible(timeout=LONG)
    for _ in range(6):  # into the first trick: the deal, four bids, a card
        page.click("[data-testid=replay-next]")
    expect(page.locator("[data-testid=replay-table]")).to_have_attribute("data-step", "6")
    page.screenshot(path=str(screenshots / "landscape-replay.png"))
    stepper_and_felt_in_sight(page)
