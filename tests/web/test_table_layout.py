"""The table holds still and reads well: nothing moves when a hint comes or the hand empties on the
last trick; "wins the trick" is gone once the cards sweep; a finished trick stays 1.5× the pace;
"Your turn: bid" comes with the bid panel, never before it; on a phone every card of the hand shows
its whole index corner and has at least 32 px to tap, and a focused card never covers its
neighbour's index; in Indonesian the bidding, passing and mid-trick screens show no English word
and fit the window at every size.

Positions are measured (bounding boxes, hit tests), never elapsed time: computer moves at full speed
(?pace=0) or at a pace whose announced hold is read from the `spades:motion` events."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .axe import assert_no_violations
from .catalogues import english_words_in
from .driver import BID, CARD, LONG, Player, assert_fits, click_card, play_now, seated_game

pytestmark = pytest.mark.integration

# From the first script on: each animation's announcement, and at each sweep whether the winner's
# banner still shows; each drawn moment where the turn line says "your turn: bid" or the bid panel
# shows (the two must come together).
RECORD = """
window.__motion = [];
window.__sweepBanner = [];
window.__bidTurn = [];
document.addEventListener('spades:motion', (e) => {
  window.__motion.push(e.detail);
  if (e.detail.kind === 'sweep') {
    const banner = document.querySelector('[data-testid=trick] .trick-banner');
    window.__sweepBanner.push(Boolean(banner && banner.checkVisibility()));
  }
});
new MutationObserver(() => {
  const table = document.querySelector('[data-testid=table]');
  if (!table || table.dataset.phase !== 'bidding') return;
  const banner = document.querySelector('[data-testid=turn]');
  const said = Boolean(banner && banner.classList.contains('mine'));  // "Your turn: bid", in any language
  const panel = Boolean(document.querySelector('[data-testid=bidding]'));
  if (said || panel) window.__bidTurn.push([said, panel]);
}).observe(document, { childList: true, subtree: true, characterData: true });
"""

BOXES = """() => Object.fromEntries(['felt', 'seat-0', 'seat-1', 'seat-2', 'seat-3', 'hand'].map((id) => {
  const r = document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
  return [id, [r.left, r.top, r.width, r.height].map(Math.round)];
}))"""


def boxes(page: Page) -> dict:
    return page.evaluate(BOXES)


@pytest.mark.parametrize(
    ("width", "height", "locale"),
    [(1280, 720, "en-US"), (375, 667, "en-US"), (375, 667, "id-ID")],
    ids=["laptop", "phone", "phone-indonesian"],
)
def test_nothing_moves_through_a_round_and_your_turn_comes_with_its_panel(new_page, screenshots, width, height, locale):
    page = new_page(width, height, locale=locale)
    page.add_init_script(RECORD)
    play_now(page)
    player = Player(page)
    assert player.state() == "bid"
    still = boxes(page)

    page.click("[data-testid=hint-button]")
    expect(page.locator("[data-testid=hint-text]")).to_be_visible(timeout=LONG)
    assert boxes(page) == still, "the hint lies over the felt: the table does not move down"
    page.screenshot(path=str(screenshots / f"hint-{locale}-{width}x{height}.png"))
    player.step()  # the bid

    while True:
        state = player.state()
        if state != "card":
            break
        assert boxes(page) == still, f"the seats and the hand stay put (trick {13 - page.locator(CARD).count()})"
        left = int(page.get_attribute("[data-testid=hand]", "data-count"))
        player.step()
        if left == 1:  # the last card: the hand empties, the felt does not grow
            expect(page.locator("[data-testid=hand]")).to_have_attribute("data-count", "0", timeout=LONG)
            now = boxes(page)  # the scores above may have grown with the round's points: the hand and the felt's foot
            assert now["hand"] == still["hand"], "the emptied hand keeps its place"
            assert sum(now["felt"][1::2]) == sum(still["felt"][1::2]), "the felt does not grow: the seats do not jump"
            break

    sweeps = page.evaluate("window.__sweepBanner")
    assert len(sweeps) >= 12 and not any(sweeps), "no 'wins the trick' while the cards sweep away"
    together = page.evaluate("window.__bidTurn")
    assert together and all(pair == [True, True] for pair in together), together
    assert not page.js_errors


@pytest.mark.parametrize(
    ("pace", "reduced"), [(300, False), (300, True), (None, False)], ids=["pace-300", "reduced-motion", "normal"]
)
def test_a_finished_trick_stays_one_and_a_half_times_the_pace(new_page, pace, reduced):
    page = new_page(reduced_motion="reduce" if reduced else None)
    page.add_init_script(RECORD)
    if pace is None:  # the Settings' pace, "normal": 900 ms between computer moves
        page.goto("/play")
        page.check("[data-testid=level-easy]")
        page.click("[data-testid=play-now]")
        page.wait_for_selector("[data-testid=table]")
    else:
        play_now(page, pace=pace)
    player = Player(page)
    while not any(m["kind"] == "sweep" for m in page.evaluate("window.__motion")):
        player.step()
    sweep = next(m for m in page.evaluate("window.__motion") if m["kind"] == "sweep")
    assert sweep["held"] == 1.5 * (pace or 900), sweep
    assert (sweep["ms"] == 0) == reduced, "reduced motion: no sweep, but the trick stays as long"


INDEX = """(card) => {
  // the card's index corner (rank and suit) wholly visible, and how wide the card is to tap at the
  // height of its rank: points where the card itself, not a neighbour, is hit
  const hit = (x, y) => card.contains(document.elementFromPoint(x, y));
  const corners = [];
  for (const part of card.querySelectorAll('.card-rank, .card-suit')) {
    const r = part.getBoundingClientRect();
    corners.push([r.left + 1, r.top + 1], [r.right - 1, r.top + 1], [r.left + 1, r.bottom - 1], [r.right - 1, r.bottom - 1]);
  }
  const c = card.getBoundingClientRect();
  const y = card.querySelector('.card-rank').getBoundingClientRect().top + 4;
  let tappable = 0;
  for (let x = Math.ceil(c.left); x < c.right; x += 1) if (hit(x, y)) tappable += 1;
  return { card: card.dataset.card, hidden: corners.filter(([x, y]) => !hit(x, y)).length, tappable };
}"""


def hand_readability(page: Page) -> list[dict]:
    return [card.evaluate(INDEX) for card in page.locator("[data-testid=hand] .card").all()]


@pytest.mark.parametrize(
    ("width", "height"), [(375, 667), (667, 375), (1280, 720)], ids=["phone", "phone-on-its-side", "laptop"]
)
def test_every_card_of_the_hand_can_be_read_and_tapped(new_page, screenshots, width, height):
    page = new_page(width, height, reduced_motion="reduce")  # no transition: the cards where they rest
    play_now(page)
    player = Player(page)
    assert player.state() == "bid"
    for card in hand_readability(page):
        assert card["hidden"] == 0 and card["tappable"] >= 32, card

    # the keyboard: the focused card has its ring, and its neighbour's index still shows
    cards = page.locator("[data-testid=hand] .card")
    cards.first.focus()
    page.keyboard.press("ArrowRight")  # a key: the focus is visible
    assert page.evaluate("document.activeElement.dataset.card") == cards.nth(1).get_attribute("data-card")
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    assert cards.nth(2).evaluate(INDEX)["hidden"] == 0, "the focus ring never covers the next card's index"
    page.screenshot(path=str(screenshots / f"hand-focused-{width}x{height}.png"))

    player.step()
    while player.state() != "card":
        player.step()
    for card in hand_readability(page):  # the playable ones raised
        assert card["hidden"] == 0 and card["tappable"] >= 32, card
    page.screenshot(path=str(screenshots / f"hand-{width}x{height}.png"))
    assert not page.js_errors


SIZES = [(1280, 720), (375, 667), (667, 375)]


def no_english(page: Page, screen: str) -> None:
    """The table's words, the scores above it included."""
    text = page.locator("[data-testid=table]").inner_text()
    assert english_words_in(text) == set(), f"{screen}: {text}"


# the control under each one's own centre: not hidden under a seat or scrolled out of its panel
UNCOVERED = "els => els.filter(e => { const r = e.getBoundingClientRect(); return !e.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }).map(e => e.outerHTML.slice(0, 80))"


def check_sizes(page: Page, screenshots, screen: str, fits: dict[str, int]) -> None:
    """At each size: no English, everything inside the window, unscrolled, the controls uncovered, axe
    clean; a screenshot."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(screenshots / f"id-{screen}-{width}x{height}.png"))
        assert_fits(page, fits)
        controls = "[data-testid=table] .overlay-panel button"
        assert page.locator(controls).evaluate_all(UNCOVERED) == [], f"{screen} at {width}x{height}"
        no_english(page, f"{screen} at {width}x{height}")
        if (width, height) != (667, 375):  # the sizes of test_a11y.py: card names hold their face in Indonesian
            assert_no_violations(page, f"{screen} in Indonesian at {width}x{height}")


def test_indonesian_bidding_and_mid_trick_show_no_english_and_fit(new_page, web, screenshots):
    page = new_page(1280, 720, locale="id-ID", bypass_csp=True)  # axe
    play_now(page)
    expect(page.locator("html")).to_have_attribute("lang", "id")
    player = Player(page)
    assert player.state() == "bid"
    expect(page.locator("[data-testid=turn]")).to_have_text("Giliran Anda: menawar")
    bids = page.locator(BID).count()
    check_sizes(
        page, screenshots, "bidding", {BID: bids, "[data-testid=hand] .card": 13, "[data-testid=felt] .seat": 4}
    )
    player.step()
    while not (player.state() == "card" and page.locator("[data-testid=trick] .card").count()):
        player.step()
    expect(page.locator("[data-testid=turn]")).to_have_text("Giliran Anda: mainkan kartu")
    in_hand = page.locator("[data-testid=hand] .card").count()
    trick = page.locator("[data-testid=trick] .card").count()
    check_sizes(
        page,
        screenshots,
        "mid-trick",
        {"[data-testid=hand] .card": in_hand, "[data-testid=trick] .card": trick, "[data-testid=felt] .seat": 4},
    )
    label = page.locator("[data-testid=hand] .card").first.get_attribute("aria-label")
    assert " of " not in label and "," in label, label  # "Q♠, Ratu sekop"
    assert not page.js_errors


def test_indonesian_nil_exchange_shows_no_english_and_fits(new_page, web, screenshots):
    page = new_page(1280, 720, locale="id-ID", bypass_csp=True)  # axe
    rules = {"preset": "partnership", "nil_pass_cards": 2, "win_score": 100, "lose_score": -100}
    seated_game(page, web, rules, 86, hints=True)
    expect(page.locator(f"{BID}[data-bid='0']")).to_be_visible(timeout=LONG)
    page.click(f"{BID}[data-bid='0']")  # nil: the exchange with the partner follows
    expect(page.locator("[data-testid=table][data-synced=yes] [data-testid=passing]")).to_be_visible(timeout=LONG)
    expect(page.locator("[data-testid=pass-count]")).to_have_text("0 dari 2 dipilih")
    for card in page.locator("[data-testid=hand] .card").all()[-2:]:
        click_card(card)
    expect(page.locator("[data-testid=pass-count]")).to_have_text("2 dari 2 dipilih")
    check_sizes(page, screenshots, "passing", {"[data-testid=pass-button]": 1, "[data-testid=hand] .card": 13})
    assert not page.js_errors
