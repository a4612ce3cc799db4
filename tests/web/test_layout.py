"""What a person sees fits the screen: on laptops, a desktop, phones upright and on their side, at
the first bid and in the middle of a trick every bid button, every card of the hand, the four seats,
the scores and the turn line are inside the window, which does not scroll; on phones the round
summary's tables fit their box. Each moment is saved as a screenshot (var/screenshots, git-ignored).

Against the real API and AI worker, computer moves at full speed (?pace=0); every wait is on what
the page shows."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import expect

from .driver import BID, LONG, SUMMARY, Player, assert_fits, create_game, play_now, seat_token

pytestmark = pytest.mark.integration

VIEWPORTS = [
    ("laptop", 1280, 720),
    ("laptop", 1366, 768),
    ("desktop", 1440, 900),
    ("phone", 390, 844),
    ("phone", 375, 667),
    ("phone-landscape", 667, 375),
]
HAND = "[data-testid=hand] .card"
SEATS = "[data-testid=felt] .seat"
SCORES = "[data-testid=scoreboard] .score-side"
TURN = "[data-testid=turn]"
TRICK = "[data-testid=trick] .card"


def server_view(page, web: str, game_id: str) -> dict:
    auth = {"Authorization": f"Bearer {seat_token(page, game_id)['token']}"}
    return requests.get(f"{web}/v1/games/{game_id}", headers=auth, timeout=30).json()


@pytest.mark.parametrize(("kind", "width", "height"), VIEWPORTS, ids=[f"{w}x{h}" for _, w, h in VIEWPORTS])
def test_the_table_fits_the_screen_at_the_first_bid_and_mid_trick(new_page, web, screenshots, kind, width, height):
    page = new_page(width, height)
    name = f"{kind}-{width}x{height}"
    page.goto("/play?pace=0")
    expect(page.locator("[data-testid=play-now]")).to_be_visible()
    assert page.locator("[data-testid=play-now]").evaluate("e => e.getBoundingClientRect().bottom <= innerHeight")
    page.screenshot(path=str(screenshots / f"{name}-lobby.png"))

    game_id = play_now(page)
    player = Player(page)
    assert player.state() == "bid", "South deals the first round: the computers bid, then it is the person's turn"
    legal = server_view(page, web, game_id)["legal"]
    assert_fits(page, {BID: len(legal), HAND: 13, SEATS: 4, SCORES: 2, TURN: 1})
    expect(page.locator("[data-testid=bidding]")).to_be_visible()
    page.screenshot(path=str(screenshots / f"{name}-first-bid.png"))

    player.step()  # the bid
    while not (player.state() == "card" and page.locator(TRICK).count()):
        player.step()
    view = server_view(page, web, game_id)
    assert_fits(page, {HAND: len(view["hand"]), SEATS: 4, SCORES: 2, TURN: 1, TRICK: len(view["trick"])})
    page.screenshot(path=str(screenshots / f"{name}-mid-trick.png"))
    # A focused and hovered card rises whole: its top edge and focus ring stay on screen, unclipped.
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused in view["legal"], "on the person's turn a playable card has the focus"
    page.locator(f"{HAND}[data-card='{focused}']").hover(position={"x": 6, "y": 12})
    rise = page.evaluate(
        """(code) => {
            const card = document.querySelector(`[data-testid=hand] [data-card='${code}']`);
            const ring = 5;  // outline 3px + offset 2px
            const r = card.getBoundingClientRect();
            let clipped = false;
            for (let e = card.parentElement; e; e = e.parentElement) {
                const s = getComputedStyle(e);
                if (s.overflow !== 'visible' || s.overflowY !== 'visible') clipped = clipped || r.top - ring < e.getBoundingClientRect().top;
            }
            return { top: r.top - ring, bottom: r.bottom, clipped, lifted: getComputedStyle(card).transform !== 'none' };
        }""",
        focused,
    )
    assert rise["lifted"] and rise["top"] >= 0 and not rise["clipped"] and rise["bottom"] <= height, rise

    if not kind.startswith("phone"):
        return
    while player.state() != "summary":  # on to the end of the round
        player.step()
    tables = page.locator(f"{SUMMARY} table").evaluate_all(
        "ts => ts.map(t => [t.scrollWidth, t.clientWidth, t.parentElement.clientWidth])"
    )
    assert len(tables) == 2 and all(scroll <= client <= box for scroll, client, box in tables), tables
    box = page.locator(SUMMARY).evaluate("d => [d.getBoundingClientRect().left, d.getBoundingClientRect().right]")
    assert box[0] >= 0 and box[1] <= width, "the summary is no wider than the screen"
    expect(page.locator(f"{SUMMARY} [data-testid=points-table] tr[data-part]")).to_have_count(6)
    page.screenshot(path=str(screenshots / f"{name}-round-summary.png"))
    page.click("[data-testid=summary-next]")
    expect(page.locator(SUMMARY)).to_have_count(0, timeout=LONG)


@pytest.mark.parametrize(("width", "height"), [(375, 667), (667, 375)], ids=["upright", "on-its-side"])
def test_individual_scoring_fits_a_phone_with_four_scores(new_page, web, screenshots, width, height):
    page = new_page(width, height)
    game_id = create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"], preset="individual", win_score=500)
    player = Player(page)
    assert player.state() == "bid"
    legal = server_view(page, web, game_id)["legal"]
    assert_fits(page, {BID: len(legal), HAND: 13, SEATS: 4, SCORES: 4, TURN: 1})
    player.step()
    while not (player.state() == "card" and page.locator(TRICK).count()):
        player.step()
    view = server_view(page, web, game_id)
    assert_fits(page, {HAND: len(view["hand"]), SEATS: 4, SCORES: 4, TURN: 1, TRICK: len(view["trick"])})
    page.screenshot(path=str(screenshots / f"individual-{width}x{height}-mid-trick.png"))
