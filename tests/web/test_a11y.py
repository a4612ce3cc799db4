"""Accessibility in a real browser: axe-core (npm, test-only, injected from disk) finds nothing on
the lobby, the bidding, the play, a round summary, its review and the game's end, on a laptop and a
phone; the keyboard and a screen reader get what a player needs: arrow keys between the bids, the
focus never starting on nil, the focus kept while the computers move, the hinted move focused and
named, "your turn" said once from one persistent live region, the dealer badge read as "dealer"."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import expect

from .axe import assert_no_violations
from .driver import (
    BID,
    CARD,
    LONG,
    SUMMARY,
    Player,
    card_label,
    create_game,
    open_house_rules,
    play_now,
    seat_token,
    wait_version_above,
)

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (375, 667)], ids=["laptop", "phone"])
def test_axe_finds_no_violation_on_any_screen(new_page, screenshots, width, height):
    page = new_page(width, height, bypass_csp=True)
    page.goto("/play?pace=0")
    open_house_rules(page)
    assert_no_violations(page, "lobby")
    create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"], win_score=50, lose_score=-50)
    player = Player(page)
    assert player.state() == "bid"
    assert_no_violations(page, "bidding")
    while not (player.state() == "card" and page.locator("[data-testid=trick] .card").count()):
        player.step()
    assert_no_violations(page, "play")
    while player.state() != "summary":
        player.step()
    assert_no_violations(page, "round summary")
    page.click("[data-testid=summary-review]")
    expect(page.locator("[data-testid=review-decision]")).to_be_visible(timeout=LONG)
    assert_no_violations(page, "review: the bidding")
    page.click("[data-testid=review-next]")
    expect(page.locator("[data-testid=review-step-title]")).to_contain_text("Trick 1")
    assert_no_violations(page, "review: a trick")
    page.screenshot(path=str(screenshots / f"review-{width}x{height}.png"))
    page.click("[data-testid=review-dialog-close]")
    if player.state() == "over":  # to 50: the first round usually ends the game
        assert_no_violations(page, "game over")
    assert not page.js_errors


def test_bids_answer_the_arrow_keys_and_the_focus_never_starts_on_nil(new_page):
    page = new_page()
    play_now(page)
    assert Player(page).state() == "bid"
    bids = page.locator(BID).evaluate_all("els => els.map(e => e.dataset.bid)")
    assert bids[-1] == "0", "nil sits apart, at the end"
    focused = lambda: page.evaluate("document.activeElement.dataset.bid")  # noqa: E731
    assert focused() == bids[0] != "0", "a stray Enter bids the lowest count, never nil"
    page.keyboard.press("ArrowRight")
    assert focused() == bids[1]
    page.keyboard.press("End")
    assert focused() == "0"
    page.keyboard.press("Home")
    assert focused() == bids[0]
    page.keyboard.press("ArrowLeft")
    assert focused() == "0", "the arrows wrap around"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator(f"{BID}[tabindex='0']").evaluate_all("els => els.map(e => e.dataset.bid)") == [bids[1]]
    page.keyboard.press("Enter")
    expected = "Nil" if bids[1] == "0" else f"Bid {bids[1]}"
    expect(page.locator("[data-testid=bid-0]")).to_have_text(expected, timeout=LONG)


def test_the_focus_stays_put_while_the_computers_move(new_page, web):
    """A focused button or card keeps the focus through every redraw the computers' moves cause."""
    page = new_page()
    game_id = play_now(page)
    assert Player(page).state() == "bid"
    auth = {"Authorization": f"Bearer {seat_token(page, game_id)['token']}"}
    page.focus("[data-testid=scores-button]")
    version = int(page.get_attribute("[data-testid=table]", "data-version"))
    assert requests.post(f"{web}/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth, timeout=30).status_code == 200
    page.wait_for_selector(CARD, timeout=LONG)  # the computers have played: the person's turn again
    assert int(page.get_attribute("[data-testid=table]", "data-version")) > version + 1
    assert page.evaluate("document.activeElement.dataset.testid") == "scores-button"

    card = page.locator("[data-testid=hand] [data-playable=yes]").first.get_attribute("data-card")
    other = page.locator("[data-testid=hand] [data-playable=no]")
    if not other.count():  # every card playable: focus one that stays in the hand
        other = page.locator(f"[data-testid=hand] .card:not([data-card='{card}'])")
    kept = other.first.get_attribute("data-card")
    page.locator(f"[data-testid=hand] [data-card='{kept}']").focus()
    version = int(page.get_attribute("[data-testid=table]", "data-version"))
    assert requests.post(f"{web}/v1/games/{game_id}/plays", json={"card": card}, headers=auth, timeout=30).ok
    wait_version_above(page, version)
    page.wait_for_selector(CARD, timeout=LONG)  # the trick is over and the person is to play again
    assert page.evaluate("document.activeElement.dataset.card") == kept


def test_the_hint_focuses_the_suggested_move_and_says_so(new_page):
    page = new_page()
    play_now(page)
    player = Player(page)
    assert player.state() == "bid"
    page.click("[data-testid=hint-button]")
    expect(page.locator("[data-testid=hint-text]")).to_contain_text("Suggested", timeout=LONG)
    hinted = page.locator(f"{BID}.hinted")
    expect(hinted).to_have_count(1)
    assert page.evaluate("document.activeElement.classList.contains('hinted')")
    expect(hinted).to_have_attribute(
        "aria-label",
        "Nil (take no trick), suggested by the hint"
        if hinted.get_attribute("data-bid") == "0"
        else f"Bid {hinted.get_attribute('data-bid')}, suggested by the hint",
    )
    page.keyboard.press("Enter")  # take the hint
    while player.state() != "card":
        player.step()
    page.click("[data-testid=hint-button]")
    expect(page.locator("[data-testid=hint-text]")).to_contain_text("Suggested", timeout=LONG)
    card = page.locator("[data-testid=hand] .card.hinted")
    expect(card).to_have_count(1)
    assert page.evaluate("document.activeElement.dataset.card") == card.get_attribute("data-card")
    expect(card).to_have_attribute(
        "aria-label", f"{card_label(card.get_attribute('data-card'))}, suggested by the hint"
    )


def test_your_turn_is_said_from_one_persistent_region_and_the_dealer_badge_reads_dealer(new_page):
    page = new_page()
    play_now(page)
    player = Player(page)
    assert player.state() == "bid"
    region = page.locator("#turn-status")
    expect(region).to_have_text("Your turn: bid")
    assert region.get_attribute("aria-live") == "polite"
    assert page.evaluate("document.getElementById('app').contains(document.getElementById('turn-status'))") is False
    page.evaluate("document.getElementById('turn-status').dataset.marked = 'same node'")
    assert page.get_attribute("[data-testid=turn]", "aria-live") is None, "the banner is not a second live region"
    player.step()
    while player.state() != "card":
        player.step()
    expect(region).to_have_text("Your turn: play a card")
    assert region.get_attribute("data-marked") == "same node"

    dealer = page.locator("[data-testid=seat-0]")  # South deals the first round
    snapshot = dealer.aria_snapshot()
    assert "dealer" in snapshot and " D " not in f" {snapshot} ", snapshot
    expect(dealer.locator(".dealer-chip")).to_have_text("Ddealer")  # "D" on screen, "dealer" to a reader
    assert dealer.locator(".dealer-chip [aria-hidden=true]").inner_text() == "D"
    if page.locator(SUMMARY).count():
        page.click("[data-testid=summary-next]")
