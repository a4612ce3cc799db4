"""Drives the /play page like a person: create a game in the lobby, bid, play, read summaries.

Every wait is on something the page shows (Playwright's wait_for / expect), never a sleep.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import requests
from playwright.sync_api import Page, expect

LONG = 90_000  # ms: computer turns on a busy 2-core machine
# What the page shows when the person has something to do, or the game is over.
BID = "[data-testid=table][data-synced=yes] .bid-buttons button"
CARD = "[data-testid=table][data-synced=yes] .hand.my-turn .card[data-playable=yes]"
SUMMARY = "dialog[open][data-testid=summary]"
GAME_OVER = "[data-testid=table][data-synced=yes] [data-testid=game-over]"
ANYTHING = f"{BID}, {CARD}, {SUMMARY}, {GAME_OVER}"

SUITS = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
RANKS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def card_name(code: str) -> str:
    return f"{RANKS.get(code[0], code[0])} of {SUITS[code[1]]}"


def card_label(code: str) -> str:
    """A card's accessible name: what its face shows, then its name ("Q♠, queen of spades")."""
    return f"{'10' if code[0] == 'T' else code[0]}{SYMBOLS[code[1]]}, {card_name(code)}"


def open_house_rules(page: Page) -> None:
    """Unfold the lobby's house rules once the rules catalogue has filled them."""
    expect(page.locator("#win_score")).to_have_value("500")
    if page.locator("[data-testid=house-rules]").get_attribute("open") is None:
        page.click("[data-testid=house-rules] summary")


def create_game(
    page: Page,
    seats: list[str],
    win_score: int = 50,
    lose_score: int = -50,
    preset: str = "partnership",
    pace: int = 0,
    clock: str | None = None,
    hints: bool = True,
) -> str:
    """From the lobby's "Set up a table" (computer moves at `pace`, 0: full speed; `clock`: a time control
    of the form's list, None: the server's default; `hints` off: a game that can be rated): the new game's id."""
    page.goto(f"/play?pace={pace}")
    open_house_rules(page)
    page.select_option("#preset", preset)
    page.fill("#win_score", str(win_score))
    page.fill("#lose_score", str(lose_score))
    for seat, choice in enumerate(seats):
        page.select_option(f"#seat-{seat}", choice)
    if clock is not None:
        page.select_option("#clock", clock)
    if not hints:
        page.uncheck("#hints")
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=table]")
    return page.evaluate("new URLSearchParams(location.search).get('game')")


def click_card(locator, force: bool = False) -> None:
    """Click a card of the hand where a person would: on its visible corner (cards overlap).
    ``force`` for a card marked aria-disabled, which Playwright would otherwise wait to become enabled."""
    locator.click(position={"x": 6, "y": 12}, force=force)


def play_now(page: Page, level: str = "easy", pace: int = 0) -> str:
    """The lobby's one click: a partnership game against three computers of ``level``; its id."""
    page.goto(f"/play?pace={pace}")
    page.check(f"[data-testid=level-{level}]")
    page.click("[data-testid=play-now]")
    page.wait_for_selector("[data-testid=table]")
    return page.evaluate("new URLSearchParams(location.search).get('game')")


def outside(page: Page, selector: str) -> list[str]:
    """The elements matching ``selector`` whose box is not wholly inside the viewport (with their box)."""
    return page.locator(selector).evaluate_all(
        """els => els.filter(e => {
            const r = e.getBoundingClientRect();
            return r.width === 0 || r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5;
        }).map(e => `${e.dataset.testid || e.dataset.card || e.dataset.bid || e.className}: ${JSON.stringify(e.getBoundingClientRect())}`)"""
    )


def assert_fits(page: Page, selectors: dict[str, int]) -> None:
    """Every element of each selector (``count`` of them) lies inside the viewport, and the page does
    not scroll either way."""
    for selector, count in selectors.items():
        expect(page.locator(selector)).to_have_count(count)
        assert outside(page, selector) == [], selector
    scroll = page.evaluate(
        "[scrollX, scrollY, document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert (
        scroll[:2] == [0, 0] and scroll[2] <= page.viewport_size["width"] and scroll[3] <= page.viewport_size["height"]
    ), scroll


def wait_version_above(page: Page, version: int, timeout: float = LONG) -> int:
    """Wait until the table shows a version above ``version`` (each step waits on the attribute
    changing: no polling script, which the page's CSP would refuse to evaluate); the version."""
    table = page.locator("[data-testid=table]")
    while True:
        current = int(table.get_attribute("data-version") or 0)
        if current > version:
            return current
        expect(table).not_to_have_attribute("data-version", str(current), timeout=timeout)


def hand(page: Page) -> list[str]:
    return page.locator("[data-testid=hand] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")


def enabled_cards(page: Page) -> list[str]:
    return page.locator(CARD).evaluate_all("els => els.map(e => e.dataset.card)")


def seat_token(page: Page, game_id: str) -> dict:
    return page.evaluate(f"JSON.parse(localStorage.getItem('spades.seat.{game_id}'))")


@dataclass
class Player:
    """One person at the table; `step` does the next thing the page asks for."""

    page: Page
    moves: int = 0
    summaries: int = 0
    shots: dict[str, str] = field(default_factory=dict)  # name -> path, taken at the first chance

    def shot(self, name: str) -> None:
        path = self.shots.pop(name, None)
        if path:
            self.page.screenshot(path=path)

    def state(self, timeout: float = LONG) -> str:
        """Waits until the page asks for something; 'bid' | 'card' | 'summary' | 'over'."""
        self.page.locator(ANYTHING).first.wait_for(timeout=timeout)
        for name, selector in (("summary", SUMMARY), ("over", GAME_OVER), ("bid", BID), ("card", CARD)):
            if self.page.locator(selector).count():
                return name
        return self.state(timeout)

    def step(self, timeout: float = LONG) -> str:
        state = self.state(timeout)
        if state == "bid":
            self.shot("bidding")
            bids = self.page.locator(BID).evaluate_all("els => els.map(e => Number(e.dataset.bid))")
            choice = 3 if 3 in bids else next((b for b in bids if b), bids[0])
            self.page.click(f"{BID}[data-bid='{choice}']")
            self.moves += 1
        elif state == "card":
            if self.page.locator("[data-testid=trick] [data-card]").count():
                self.shot("trick")
            click_card(self.page.locator(CARD).first)
            self.moves += 1
        elif state == "summary":
            self.shot("summary")
            self.summaries += 1
            self.page.click("[data-testid=summary-next]")
            expect(self.page.locator(SUMMARY)).to_have_count(0)
        elif state == "over":
            self.shot("over")
        return state

    def play_to_end(self, limit: int = 400) -> None:
        for _ in range(limit):
            if self.step() == "over":
                return
        raise AssertionError("the game did not end")


def seated_game(page: Page, web: str, rules: dict, seed: int, hints: bool = False) -> str:
    """A seeded game (South: this page; the others: computers at level basic) opened in the page; its id."""
    seats = [{"type": "human"}] + [{"type": "ai", "level": "basic"}] * 3
    body = {"rules": rules, "seats": seats, "seed": seed, "options": {"hints": hints}}
    created = requests.post(f"{web}/v1/games", json=body, timeout=30)
    assert created.status_code == 201, created.text
    game = created.json()
    page.goto("/play?pace=0")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`spades.seat.${id}`, JSON.stringify({seat: 0, token, since: Date.now()}))",
        [game["game_id"], game["seats"][0]["token"]],
    )
    page.goto(f"/play?pace=0&game={game['game_id']}")
    return game["game_id"]


def view_of(base: str, game_id: str) -> dict:
    """The game's view as a spectator reads it (no token)."""
    return requests.get(f"{base}/v1/games/{game_id}", timeout=30).json()


def table_at(version: int) -> str:
    """The table once it shows ``version``, read from the server."""
    return f"[data-testid=table][data-synced=yes][data-version='{version}']"


def past(version: int) -> str:
    """The table once it shows a later version (XPath compares numbers; the page's CSP allows no script)."""
    return f"xpath=//*[@data-testid='table'][@data-version > {version}]"
