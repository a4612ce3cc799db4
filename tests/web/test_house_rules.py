"""The house rules in the browser: the new-game form's presets and variants (and the server's refusal of
a combination shown beside them), a variant game played through the page — the blind decision with the
hand face down, the nil exchange with its count and Pass button, the jokers and the high 2♠ drawn and
sorted as the top spades — its round summary, and axe-core finding nothing on any of it, on a laptop and
a phone (screenshots in var/screenshots/)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from .axe import assert_no_violations
from .driver import LONG, SUMMARY, Player, assert_fits, click_card, hand, open_house_rules, seated_game

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]
# Seed 86 deals South 7♠ 9♠ 2♠ and both jokers under these rules; West bids first. Blind decisions are
# open to every seat (margin 0); an exchange follows any nil.
SEED = 86
VARIANT_RULES = {
    "preset": "partnership",
    "jokers": True,
    "deuces_high": True,
    "blind_nil": True,
    "blind_bids": True,
    "blind_margin": 0,
    "nil_pass_cards": 2,
    "win_score": 100,
    "lose_score": -100,
}
PASSED = ["KH", "QD"]  # a nil bidder gives away its high cards and keeps... well, the jokers, for the picture


def shoot(page: Page, screenshots, name: str, fits: dict[str, int] | None = None) -> None:
    """The page at both sizes (``fits``: what must lie inside the window at each, unscrolled), the
    laptop's last so the test goes on as it was."""
    for width, height in reversed(SIZES):
        page.set_viewport_size({"width": width, "height": height})
        if fits:
            assert_fits(page, fits)
        page.screenshot(path=str(screenshots / f"{name}-{width}x{height}.png"))


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["laptop", "phone"])
def test_the_form_offers_presets_and_variants_and_shows_the_servers_refusal(new_page, screenshots, width, height):
    page = new_page(width, height, bypass_csp=True)
    page.goto("/play?pace=0")
    open_house_rules(page)
    presets = page.locator("#preset option").evaluate_all("els => els.map(e => e.value)")
    assert {"partnership", "individual", "jokers_deuces_high", "blind_nil_passing", "house"} <= set(presets)
    for variant in ("jokers", "deuces_high", "blind_nil", "blind_bids", "suicide", "ten_for_200", "mercy"):
        expect(page.locator(f"#{variant}")).not_to_be_checked()
    expect(page.locator("#blind_nil_value")).to_be_disabled()  # a value waits for its rule

    page.select_option("#preset", "house")
    expect(page.locator("#preset-help")).to_contain_text("Jokers")
    for variant in ("jokers", "deuces_high", "blind_nil", "blind_bids", "ten_for_200", "mercy"):
        expect(page.locator(f"#{variant}")).to_be_checked()
    expect(page.locator("#mercy_margin")).to_have_value("500")
    expect(page.locator("#nil_pass_cards")).to_have_value("2")
    page.locator("[data-testid=variants]").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"new-game-house-rules-{width}x{height}.png"))
    assert_no_violations(page, "the variants")

    page.select_option("#preset", "individual")
    page.check("#suicide")
    page.click("[data-testid=create]")
    error = page.locator("[data-testid=variants-error]")
    expect(error).to_contain_text("partnership")
    expect(page.locator("#suicide")).to_have_attribute("aria-invalid", "true")
    assert page.evaluate("location.search").find("game=") < 0, "no game was created"
    error.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"new-game-refused-{width}x{height}.png"))
    assert not page.js_errors


def test_a_house_rule_the_form_has_no_layout_for_is_offered_from_the_catalogue(new_page):
    """The form lays out the house rules it knows; any other one the server lists (``house: true``) gets a
    plain row from the catalogue — a tick box for a switch, a number box in its range for a value — filled
    from the preset and sent with the request, so a new house rule reaches players with no edit to the form."""
    page = new_page()
    extra = [
        {"name": "unheard_of", "type": "boolean", "default": False, "choices": None, "minimum": None, "maximum": None,
         "description": "A side that takes all 13 tricks wins.", "house": True},
        {"name": "unheard_of_value", "type": "integer", "default": 250, "choices": None, "minimum": 0, "maximum": 1000,
         "description": "What it is worth.", "house": True},
    ]  # fmt: skip

    def listed(route):  # the server's catalogue with two house rules this client has never heard of
        catalogue = route.fetch().json()
        catalogue["options"] += extra
        for rules in catalogue["presets"].values():
            rules.update(unheard_of=False, unheard_of_value=250)
        route.fulfill(json=catalogue)

    sent = []

    def created(route):
        sent.append(json.loads(route.request.post_data))
        route.fulfill(status=400, json={"type": "about:blank", "title": "stop here", "status": 400, "code": "invalid"})

    page.route("**/v1/rules", listed)
    page.route("**/v1/games", created)
    page.goto("/play?pace=0")
    open_house_rules(page)
    expect(page.locator("#unheard_of")).not_to_be_checked()
    expect(page.locator("label[for=unheard_of]")).to_have_text(re.compile("unheard of", re.IGNORECASE))
    expect(page.locator("#unheard_of-help")).to_have_text("A side that takes all 13 tricks wins.")
    expect(page.locator("#unheard_of_value")).to_have_value("250")
    page.check("#unheard_of")
    page.fill("#unheard_of_value", "2000")
    page.click("[data-testid=create]")
    expect(page.locator("#unheard_of_value-error")).to_contain_text(
        re.compile(r"0 to 1,?000")
    )  # the catalogue's range, checked here
    assert sent == []
    page.fill("#unheard_of_value", "300")
    page.click("[data-testid=create]")
    expect(page.locator("[data-testid=create]")).to_be_enabled()
    assert sent and sent[-1]["rules"]["unheard_of"] is True and sent[-1]["rules"]["unheard_of_value"] == 300
    assert not page.js_errors


def test_a_blind_nil_the_nil_exchange_and_the_jokers_through_the_page(new_page, web, screenshots):
    page = new_page(1280, 720, bypass_csp=True)
    seated_game(page, web, VARIANT_RULES, SEED)

    # the blind decision: the hand face down, blind nil with its points, or look
    decision = page.locator("[data-testid=table][data-synced=yes] [data-testid=blind-decision]")
    expect(decision).to_be_visible(timeout=LONG)
    expect(page.locator("[data-testid=hand-face-down] .card")).to_have_count(13)
    expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(0)  # not a card shown
    expect(page.locator("[data-testid=blind-nil]")).to_contain_text("±200")
    expect(page.locator("[data-testid=look]")).to_be_visible()
    expect(page.locator("[data-blind-bid]").first).to_have_attribute(
        "aria-label", re.compile(r"^Blind bid \d+, scores double")
    )
    expect(page.locator("[data-testid=turn]")).to_contain_text("bid blind")
    choices = page.locator("[data-testid=blind-decision] button").count()
    shoot(page, screenshots, "blind-decision", {"[data-testid=blind-decision] button": choices})
    assert_no_violations(page, "blind decision")
    page.click("[data-testid=blind-nil]")
    expect(page.locator("[data-testid=bid-0]")).to_have_text("Blind nil", timeout=LONG)
    expect(page.locator("[data-testid=score-0]")).to_contain_text("South blind nil alive")

    # the nil exchange: tap two cards, a count, Pass
    choosing = page.locator("[data-testid=table][data-synced=yes] [data-testid=passing]")
    expect(choosing).to_be_visible(timeout=LONG)
    expect(page.locator("[data-testid=pass-count]")).to_have_text("0 of 2 chosen")
    expect(page.locator("[data-testid=pass-button]")).to_be_disabled()
    expect(page.locator("[data-testid=exchanging-2]")).to_be_visible()  # the partner's seat says it too
    for card in PASSED:
        click_card(page.locator(f"[data-testid=hand] [data-card={card}]"))
    expect(page.locator("[data-testid=pass-count]")).to_have_text("2 of 2 chosen")
    expect(page.locator("[data-testid=hand] [aria-pressed=true]")).to_have_count(2)
    shoot(page, screenshots, "passing", {"[data-testid=pass-button]": 1, "[data-testid=hand] .card": 13})
    assert_no_violations(page, "passing")
    page.click("[data-testid=pass-button]")

    # after the exchange: what came in, marked in the hand; the jokers and the 2♠ on top of the spades
    expect(page.locator("[data-testid=exchange-note]")).to_contain_text("passed you", timeout=LONG)
    expect(page.locator("[data-testid=exchange-note]")).to_contain_text("you gave queen of diamonds, king of hearts")
    expect(page.locator("[data-testid=hand] .card.received")).to_have_count(2)
    cards = hand(page)
    assert not set(PASSED) & set(cards)
    spades = [c for c in cards if c[1] == "S" or c in ("LJ", "BJ")]
    assert spades[-3:] == ["2S", "LJ", "BJ"], spades
    expect(page.locator("[data-testid=hand] [data-card=BJ]")).to_have_attribute(
        "aria-label", re.compile(r"^★ JOKER, Big Joker\b")
    )
    expect(page.locator("[data-testid=hand] [data-card=BJ] .joker-word")).to_have_text("JOKER")
    expect(page.locator("[data-testid=hand] [data-card='2S'] .card-high")).to_have_text("HIGH")
    shoot(page, screenshots, "jokers-hand")

    # the rules are in the game bar; the round ends in a summary that names the blind nil
    page.click("[data-testid=rules-button]")
    expect(page.locator("[data-testid=house-rules-list]")).to_contain_text("Blind nil ±200")
    assert_no_violations(page, "rules dialog")
    page.click("[data-testid=rules-close]")
    player = Player(page)
    while player.state() != "summary":
        player.step()
    summary = page.locator(SUMMARY)
    expect(summary.locator("[data-testid=round-summary]")).to_contain_text("Blind nil")
    expect(summary.locator("[data-part=nil]")).to_contain_text("South blind")
    expect(summary.locator("[data-testid=summary-exchange]")).to_contain_text("South gave Q♦ K♥")
    shoot(page, screenshots, "summary-blind-nil")
    assert not page.js_errors
