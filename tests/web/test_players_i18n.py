"""The players' pages in Indonesian, on the real stack: a browser whose language is Indonesian
(`locale="id-ID"`) chooses a name (a refused one first), plays a short rated game and reads the rating
changes at its end, then opens its profile (the chart and its figures), steps through the game's
replay (every hand and as one seat saw it, to the round's score) and the leaderboards (people and
computer levels; the player's rating still provisional, a rival and the levels seasoned in the records
database). Every text, label, title and chart description of those parts shows no word only
English has (tests/web/catalogues.py; the players' names aside), the numbers and dates are written the
Indonesian way, and every page holds at 1280×720, 375×667 and 667×375: nothing scrolls sideways and no button,
tab, heading or cell is too narrow for its words. Screenshots of the profile and the replay at both
sizes (the replay on a phone on its side too) go to var/screenshots/ (players-id-*)."""

from __future__ import annotations

import random
import re
import secrets
import threading

import pytest
from playwright.sync_api import Page, expect

from .catalogues import english_words_in
from .driver import LONG, Player, create_game
from .players_api import make_player, play_rated_game, rated_once, season
from .test_players import no_sideways_scroll

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667), (667, 375)]  # screenshots at the first two
MORE_GAMES = 2  # played through the API meanwhile, so the chart has a line to draw

# Everything a region shows or says: its text, its labels and titles, the values a slider reads out, the
# options of its pickers, tables' captions and an SVG chart's <title> and <desc>.
SHOWN = """(root) => {
  const parts = [root.innerText, root.getAttribute("aria-label") || ""];
  for (const el of root.querySelectorAll("[aria-label], [title], [placeholder], [aria-valuetext]")) {
    for (const name of ["aria-label", "title", "placeholder", "aria-valuetext"]) parts.push(el.getAttribute(name) || "");
  }
  for (const el of root.querySelectorAll("svg title, svg desc, caption, option, summary")) parts.push(el.textContent);
  return parts.join("\\n");
}"""

# Words that do not fit their box: a button, tab, heading, label or cell whose text is wider than it is (or,
# for a name cut short with "…", narrower than a name's first letters), or that goes past the window's edge.
CLIPPED = """(selectors) => {
  const out = [];
  for (const el of document.querySelectorAll(selectors)) {
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || getComputedStyle(el).visibility === "hidden") continue; // hidden, or only for screen readers
    // a name cut short with "…" is meant to be (names are any length), but leaves room for a name's start
    const cut = getComputedStyle(el).textOverflow === "ellipsis" ? el.clientWidth < 72 : el.scrollWidth > el.clientWidth + 1;
    if (cut || box.right > innerWidth + 1 || box.left < -1) {
      out.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 40)}" ${el.scrollWidth}>${el.clientWidth}`);
    }
  }
  return out;
}"""
BOXES = "button, a.button, .lb-tab, h1, h2, th, td, label, select, .stat, .rating-card, .game-item > *, .identity-actions > *"


def shown(page: Page, selector: str) -> str:
    texts = page.locator(selector).evaluate_all(f"els => els.map({SHOWN})")
    assert texts, f"{selector} is not on the page"
    return "\n".join(texts)


def no_english(page: Page, selector: str, allowed: set[str], what: str) -> str:
    text = shown(page, selector)
    assert english_words_in(text, allowed) == set(), f"{what}: English words in {text!r}"
    return text


def holds(page: Page, what: str) -> None:
    no_sideways_scroll(page, what)
    clipped = page.evaluate(CLIPPED, BOXES)
    assert clipped == [], f"{what}: words wider than their box: {clipped}"


def allowed_names(*names: str) -> set[str]:
    return {word for name in names for word in name.split()}


def others_play(base: str, token: str, done: list[str], failed: list[BaseException]) -> None:
    rng = random.Random(31)
    try:
        for _ in range(MORE_GAMES):
            done.append(play_rated_game(base, token, rng, partner="hard"))
            rated_once(base, done[-1])
    except BaseException as error:  # re-raised in the test
        failed.append(error)


def test_the_players_pages_in_indonesian(new_page, web, screenshots):
    page = new_page(1280, 720, locale="id-ID")
    page.goto("/play?pace=0")
    expect(page.locator("html")).to_have_attribute("lang", "id")
    identity = page.locator("[data-testid=identity]")
    expect(identity).to_contain_text("Bermain tanpa nama")
    no_english(page, "[data-testid=identity]", set(), "the lobby's name strip")

    # the name dialog, a name refused by the server (its reason in Indonesian), then a name
    page.click("[data-testid=choose-name]")
    dialog = page.locator("[data-testid=name-dialog]")
    no_english(page, "[data-testid=name-dialog]", set(), "the name dialog")
    page.fill("[data-testid=player-name]", "x")
    page.click("[data-testid=player-name-save]")
    expect(page.locator("[data-testid=player-name-error]")).to_have_text(
        "Nama itu tidak bisa dipakai: panjangnya harus 2 sampai 24 karakter."
    )
    no_english(page, "[data-testid=name-dialog]", set(), "the name dialog with a refused name")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        expect(dialog).to_be_visible()
        holds(page, f"the name dialog at {width}×{height}")
    page.set_viewport_size({"width": 1280, "height": 720})
    name = f"Siti {secrets.token_hex(3)}"
    page.fill("[data-testid=player-name]", name)
    page.click("[data-testid=player-name-save]")
    expect(page.locator("[data-testid=identity-name]")).to_have_text(name)
    expect(identity).to_contain_text(f"Bermain sebagai {name}")
    no_english(page, "[data-testid=identity]", allowed_names(name), "the lobby's name strip with a name")
    me = page.evaluate("JSON.parse(localStorage.getItem('spades.player'))")
    more: list[str] = []
    failed: list[BaseException] = []
    others = threading.Thread(target=others_play, args=(web, me["token"], more, failed), daemon=True)
    others.start()

    # a short rated game: the rating changes at its end
    game_id = create_game(page, ["you", "ai:easy", "ai:hard", "ai:easy"], win_score=50, lose_score=-50, hints=False)
    Player(page).play_to_end()
    changes = page.locator("[data-testid=rating-changes]")
    expect(changes).to_be_visible(timeout=LONG)
    expect(changes.locator("caption")).to_have_text("Rating")
    expect(changes.locator("thead")).to_contain_text("Perubahan")
    expect(page.locator("[data-testid=rating-change-0]")).to_contain_text(f"{name} (Anda)")
    expect(page.locator("[data-testid=rating-change-1]")).to_contain_text("Komputer · mudah")
    expect(page.locator("[data-testid=rating-change-2]")).to_contain_text("Komputer · sulit")
    no_english(page, "[data-testid=rating-changes]", allowed_names(name), "the game's rating changes")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        expect(changes).to_be_visible()
        no_sideways_scroll(page, f"the final scores at {width}×{height}")
        assert page.evaluate(CLIPPED, "[data-testid=rating-changes] th, [data-testid=rating-changes] td") == []
        if height > 400:
            page.screenshot(path=str(screenshots / f"players-id-game-over-{width}x{height}.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    others.join(timeout=900)
    assert not others.is_alive() and not failed, failed
    games = 1 + MORE_GAMES

    # the profile: Indonesian words, numbers and dates; the chart named and described in Indonesian
    page.goto("/play?pace=0")
    page.click("[data-testid=profile-link]")
    expect(page.locator("[data-testid=profile-name]")).to_have_text(name)
    chart = page.locator("[data-testid=rating-chart]")
    expect(chart).to_have_attribute("data-points", str(games + 1))
    assert page.locator("[data-testid=rating-chart] title").text_content() == f"Rating tim {name} dari waktu ke waktu"
    described = page.locator("[data-testid=rating-chart] desc").text_content()
    assert described.startswith("Dari ") and f"dalam {games} permainan yang dinilai; tertinggi " in described, described
    expect(page.locator("[data-testid=stat-games]")).to_contain_text("Permainan")
    expect(page.locator("[data-testid=stat-bags] .stat-value")).to_have_text(
        re.compile(r"^\d+,\d\d$")
    )  # a decimal comma
    expect(page.locator("[data-testid=rating-partnership]")).to_contain_text(f"{games} permainan")
    expect(page.locator("[data-testid=games] .game-item").first).to_contain_text("Putar ulang")
    months = ["Jan", "Feb", "Mar", "Apr", "Mei", "Jun", "Jul", "Agu", "Sep", "Okt", "Nov", "Des"]
    when = page.locator("[data-testid=games] .game-when").first.text_content()
    assert any(month in when for month in months), f"an Indonesian date: {when}"
    page.click(".chart-figures summary")
    expect(page.locator("[data-testid=chart-table] tbody tr")).to_have_count(games + 1)
    expect(page.locator("[data-testid=chart-table] thead")).to_contain_text("Tanggal")
    no_english(page, "[data-testid=profile]", allowed_names(name), "the profile")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        expect(chart).to_be_visible(timeout=LONG)
        holds(page, f"the profile at {width}×{height}")
        if height > 400:
            page.screenshot(path=str(screenshots / f"players-id-profile-{width}x{height}.png"))
    page.set_viewport_size({"width": 375, "height": 667})
    page.locator(".profile-chart").evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(screenshots / "players-id-profile-chart-375x667.png"))
    page.set_viewport_size({"width": 1280, "height": 720})

    # the replay, stepped through: the deal, the bids, cards, a trick, the round's score
    page.click(f"[data-testid=replay-{game_id}]")
    table = page.locator("[data-testid=replay-table]")
    move = page.locator("[data-testid=replay-move]")
    expect(table).to_have_attribute("data-step", "0")
    expect(move).to_have_text(f"Ronde 1 · {name} membagikan kartu")
    regions = ", ".join(
        [
            "[data-testid=replay-move]",
            ".replay-picks",
            "[data-testid=replay-controls]",
            ".replay-side",
            "[data-testid=replay-own-hand], [data-testid=replay-hands]",
        ]
    )
    allowed = allowed_names(name)
    no_english(page, regions, allowed, "the replay's deal")
    for step in range(1, 5):
        page.click("[data-testid=replay-next]")
        expect(table).to_have_attribute("data-step", str(step))
        expect(move).to_contain_text(" menawar ")
        no_english(page, regions, allowed, f"the replay's bid {step}")
    page.keyboard.press("ArrowRight")
    expect(move).to_contain_text(" memainkan ")
    assert page.locator("[data-testid=replay-slider]").get_attribute("aria-valuetext").startswith("Langkah 6 dari ")
    no_english(page, regions, allowed, "the replay's first card")
    page.keyboard.press("PageDown")
    expect(table).to_have_attribute("data-step", "9")
    page.keyboard.press("ArrowLeft")  # the whole first trick: every hand holds 12 cards
    expect(table).to_have_attribute("data-step", "8")
    page.select_option("[data-testid=replay-seat]", "all")
    expect(page.locator("[data-testid=replay-hands] .replay-hand")).to_have_count(4)
    assert page.locator("[data-testid=replay-hand-0]").get_attribute("aria-label").endswith(": 12 kartu")
    no_english(page, regions, allowed, "the replay, every hand")
    page.locator("[data-testid=replay-slider]").fill("57")
    scored = page.locator("[data-testid=replay-scored]")
    expect(scored).to_contain_text("Skor ronde 1")
    expect(scored.locator("[data-testid=replay-summary]")).to_have_text("Ringkasan ronde")
    no_english(page, f"{regions}, [data-testid=replay-scored]", allowed, "the round's score in the replay")

    def mid_trick(page: Page) -> None:  # the second trick, three cards down
        page.locator("[data-testid=replay-slider]").fill("11")
        expect(table).to_have_attribute("data-step", "11")

    for seat in ("all", "0"):
        page.select_option("[data-testid=replay-seat]", seat)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.reload()
            expect(table).to_be_visible(timeout=LONG)
            mid_trick(page)
            no_english(page, regions, allowed, f"the replay ({seat}) at {width}×{height}")
            holds(page, f"the replay ({seat}) at {width}×{height}")
            for button in page.locator("[data-testid=replay-controls] button").all():
                box = button.bounding_box()
                assert box and box["y"] + box["height"] <= height + 1, "the stepper stays on the screen"
            shot = "replay" if seat == "all" else "replay-seat"
            page.screenshot(path=str(screenshots / f"players-id-{shot}-{width}x{height}.png"))  # 667×375 too
    page.set_viewport_size({"width": 1280, "height": 720})

    # the leaderboards: people (the player's own place, provisional; a seasoned rival listed) and the computer
    # levels by their Indonesian names
    rival = make_player(web, f"Rival {secrets.token_hex(3)}")["player"]
    season([rival["id"], "computer-easy", "computer-hard"])
    page.goto(f"/play?pace=0#/players/{me['id']}")
    page.click(".crumbs >> text=Papan peringkat")
    board = page.locator("[data-testid=leaderboard]")
    expect(board).to_be_visible(timeout=LONG)
    expect(page.locator("[data-testid=lb-me]")).to_contain_text("masih sementara: Anda masuk papan setelah 30")
    expect(board.locator(f"tr[data-player='{rival['id']}']")).to_be_visible()
    expect(board.locator(f"tr[data-player='{me['id']}']")).to_have_count(0)
    expect(board.locator("caption")).to_contain_text("Papan Tim: ")
    names = board.locator(".lb-name a").all_text_contents()
    no_english(page, "[data-testid=leaderboards]", allowed_names(*names), "the people's leaderboard")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        holds(page, f"the leaderboard at {width}×{height}")
        if height > 400:
            page.screenshot(path=str(screenshots / f"players-id-leaderboard-{width}x{height}.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.click("[data-testid=lb-kind-computer]")
    expect(board.locator("tr[data-player='computer-easy'] .lb-name")).to_have_text("mudah")
    expect(board.locator("tr[data-player='computer-hard'] .lb-name")).to_have_text("sulit")
    no_english(page, "[data-testid=leaderboards]", set(), "the computer levels' leaderboard")
    page.click("[data-testid=leaderboard] tr[data-player='computer-hard'] .lb-name a")  # a level's own page
    expect(page.locator("[data-testid=profile-name]")).to_have_text("sulit")
    expect(page.locator(".profile-meta .kind-badge")).to_have_text("Level komputer")
    expect(chart).to_be_visible(timeout=LONG)
    no_english(page, "[data-testid=profile]", allowed_names(name), "a computer level's profile")

    # Settings' name
    page.click("[data-testid=settings-button]")
    expect(page.locator("[data-testid=settings-name]")).to_have_text(name)
    no_english(page, "[data-testid=settings-identity]", allowed_names(name), "Settings' name")
    assert not page.js_errors
