"""The game's end and the lobby's open tables as people see them, in English and Indonesian, at 1280×720,
1366×768, 375×667 and 667×375, on the real stack (gunicorn, the AI worker, the records database and its
rating of finished games).

A named player bids all thirteen tricks for their side in a rated game to 50 and is set: the game-over
panel shows the result first, then Rematch, New game and Lobby, then the rating changes and the score
history, with nothing outside the window, the felt taking the room the empty hand leaves and no seat cut in
half by the panel's edge; every score
below zero is written with a true minus sign (U+2212), and the seats name the tricks taken with the round
summary's word. The open tables say first who hosts each and what it plays to. Screenshots:
var/screenshots/game-over-rated-<lang>-<size>.png and open-tables-<lang>-<size>.png."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import Page, expect

from .driver import BID, CARD, GAME_OVER, LONG, SUMMARY, assert_fits, click_card, create_game, outside
from .players_api import credential_state, make_player

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (1366, 768), (375, 667), (667, 375)]
LOCALES = {"en": "en-US", "id": "id-ID"}
HYPHEN_NUMBER = re.compile(r"-\d")  # a number after a hyphen-minus: never how a score is written
MINUS_NUMBER = re.compile("\u2212\\d")
HALF_COVERED = """(seat) => {
  const p = document.querySelector('[data-testid=game-over]').getBoundingClientRect();
  const s = document.querySelector(`[data-testid=seat-${seat}]`).getBoundingClientRect();
  const meet = s.left < p.right && p.left < s.right && s.top < p.bottom && p.top < s.bottom;
  const inside = s.left >= p.left && s.right <= p.right && s.top >= p.top && s.bottom <= p.bottom;
  return meet && !inside;
}"""
RATINGS_MS = 125_000  # the page reads the record for the ratings for two minutes after the end (gameratings.js)
NEXT_STEPS = ["[data-testid=rematch-button]", "[data-testid=new-game]", "[data-testid=to-lobby]"]


def top_bottom(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box, selector
    return box["y"], box["y"] + box["height"]


def set_to_the_end(page: Page) -> str:
    """Bid the most the side may each round, play the first playable card, go on from each summary until the
    game is over; the summary's heading of the tricks each seat took ("Won", "Dapat")."""
    won_heading = ""
    while True:
        page.locator(f"{BID}, {CARD}, {SUMMARY}, {GAME_OVER}").first.wait_for(timeout=LONG)
        if page.locator(SUMMARY).count():
            won_heading = page.locator(f"{SUMMARY} .summary-seats thead th").nth(2).inner_text()
            page.click("[data-testid=summary-next]")
            expect(page.locator(SUMMARY)).to_have_count(0)
        elif page.locator(GAME_OVER).count():
            return won_heading
        elif page.locator(BID).count():
            bids = page.locator(BID).evaluate_all("els => els.map(e => Number(e.dataset.bid))")
            page.click(f"{BID}[data-bid='{max(bids)}']")
        else:
            click_card(page.locator(CARD).first)


@pytest.mark.parametrize("lang", ["en", "id"])
def test_a_lost_rated_game_ends_with_the_result_and_what_next_first_and_true_minus_signs(
    new_page, web, screenshots, lang
):
    page = new_page(1280, 720, locale=LOCALES[lang])
    me = make_player(web, f"Ada Over {lang}")
    page.goto("/play?pace=0")
    page.evaluate(
        "(p) => localStorage.setItem('spades.player', JSON.stringify(p))", {**me["player"], "token": me["token"]}
    )
    game_id = create_game(page, ["you", "ai:basic", "ai:basic", "ai:basic"], win_score=50, lose_score=-50, hints=False)
    won_heading = set_to_the_end(page)
    told = page.locator("[data-testid=rating-changes], [data-testid=ratings-unrated], [data-testid=ratings-unnamed]")
    expect(told).to_be_visible(timeout=RATINGS_MS)  # the page reads the record until it is rated, or says why not
    assert page.locator("[data-testid=rating-changes]").count(), (told.inner_text(), credential_state(web, me["token"]))
    final = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()
    assert min(final["scores"]) < 0, "all thirteen bid and set: the side is below zero"

    shown = [page.locator(f"[data-testid={id}]").inner_text() for id in ("scoreboard", "turn", "game-over")]
    assert not [HYPHEN_NUMBER.findall(text) for text in shown if HYPHEN_NUMBER.search(text)], shown
    assert all(MINUS_NUMBER.search(text) for text in shown), shown  # the scoreboard, the result, the history
    history = page.locator(f"{GAME_OVER} [data-testid=score-history] tbody").inner_text()
    assert MINUS_NUMBER.search(history), history
    for seat in range(4):  # "Dapat 3" on the seats, as the summary's "Dapat"
        expect(page.locator(f"[data-testid=tricks-{seat}]")).to_have_text(re.compile(rf"^{won_heading} \d+$"))

    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        expect(page.locator(GAME_OVER)).to_be_visible()
        assert_fits(page, {"[data-testid=winner]": 1, **{step: 1 for step in NEXT_STEPS}})
        assert outside(page, GAME_OVER) == [], f"the panel in the window at {width}×{height}"
        result = top_bottom(page, f"{GAME_OVER} [data-testid=winner]")
        steps = [top_bottom(page, f"{GAME_OVER} {step}") for step in NEXT_STEPS]
        details = top_bottom(page, f"{GAME_OVER} .game-over-details")
        assert result[1] <= min(top for top, _ in steps) and max(bottom for _, bottom in steps) <= details[0], (
            f"the result, then what to do next, then the details at {width}×{height}"
        )
        for seat in (1, 2, 3):  # the other seats: under the panel or beside it, never cut in half by its edge
            assert page.evaluate(HALF_COVERED, seat) is False, f"seat {seat} half under the panel at {width}×{height}"
        felt, table = top_bottom(page, "[data-testid=felt]"), top_bottom(page, "[data-testid=table]")
        assert felt[1] >= table[1] - 8, f"no empty hand under the felt at {width}×{height}: {felt} in {table}"
        page.screenshot(path=str(screenshots / f"game-over-rated-{lang}-{width}x{height}.png"))


HOSTS = [  # a host's name, the table's rules and clock, its seats after the host's
    ("Hana Wijaya", {"preset": "partnership"}, "normal", ["open", "open", "ai:easy"]),
    ("Budi Santoso", {"preset": "partnership", "win_score": 300}, "fast", ["open", "open", "open"]),
    ("Rosalind Maxwell", {"preset": "individual", "win_score": 250}, "relaxed", ["open", "ai:hard", "open"]),
]
TARGET = {"en": "to {} points", "id": "sampai {} poin"}
HOSTED = {"en": "{}'s table", "id": "Meja {}"}


def open_table(web: str, name: str, rules: dict, clock: str, others: list[str]) -> tuple[str, str]:
    """A public table hosted by a new player called ``name``: its id and the host's name."""
    host = make_player(web, name)
    seats = [{"type": "human", "player": True}] + [
        {"type": "ai", "level": seat[3:]} if seat.startswith("ai:") else {"type": seat} for seat in others
    ]
    body = {"rules": rules, "seats": seats, "options": {"public": True, "clock": clock, "hints": False}}
    created = requests.post(f"{web}/v1/games", json=body, headers={"Player-Token": host["token"]}, timeout=30)
    assert created.status_code == 201, created.text
    return created.json()["game_id"], host["player"]["name"]


@pytest.mark.parametrize("lang", ["en", "id"])
def test_the_open_tables_say_who_hosts_and_to_what_score_first_at_every_size(new_page, web, screenshots, lang):
    tables = [
        (*open_table(web, name, rules, clock, others), rules.get("win_score", 500))
        for name, rules, clock, others in HOSTS
    ]
    page = new_page(1280, 720, locale=LOCALES[lang])
    page.goto("/play?pace=0")
    page.click("[data-testid=tab-people]")
    rows = page.locator("[data-testid=open-tables] .open-table")
    expect(rows.first).to_have_attribute("data-game", tables[-1][0])  # newest first
    for game_id, host, target in tables:
        title = page.locator(f"[data-testid=table-title-{game_id}]")
        expect(title).to_have_text(f"{HOSTED[lang].format(host)} · {TARGET[lang].format(target)}")
    newest = f"[data-testid=table-{tables[-1][0]}]"
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.locator(".tables-panel").scroll_into_view_if_needed()
        wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], f"the lobby scrolls sideways at {width}×{height}: {wide}"
        assert outside(page, f"{newest}, {newest} > *, [data-testid=open-tables]") == [], f"at {width}×{height}"
        parts = [top_bottom(page, f"{newest} > {part}") for part in (".table-title", ".table-words", ".table-seats")]
        assert parts == sorted(parts) and parts[0][1] <= parts[1][0], f"who hosts and the target first: {parts}"
        page.screenshot(path=str(screenshots / f"open-tables-{lang}-{width}x{height}.png"))
