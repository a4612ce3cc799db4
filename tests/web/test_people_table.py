"""Four people at one table, each in a browser context of their own, on the real stack (gunicorn, the
Celery AI worker, Redis): they press "Play people" and quick-match into one game, bid and play through
their pages, and one of them closes the page mid-round. The other three finish the round while the
computer takes the closed seat's turns when its clock runs out (a `turn_timed_out`, then away after the
second); the person opens the game again in the same browser and takes the seat back ("I'm back", then
a move of their own).

The server runs with ``CLOCK_SCALE`` so the ``fast`` control is seconds, not tens of seconds: the
closed seat's first turn lasts its move time plus its whole reserve before the computer moves, and the
round cannot end sooner. ``PRESENCE_LEASE_SECONDS`` is short for the same reason: the closed page's
connection dot goes out within seconds. Both are test settings of the server (services/api/config.py);
the page and the API are otherwise as deployed. The screenshots of the lobby with quick match waiting
and of the table with a running clock and the away seat are taken on the way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
import requests
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.conftest import run_gunicorn

from .driver import LONG, assert_fits, click_card, outside, past, table_at, view_of

pytestmark = pytest.mark.integration

SCALE = 0.3  # the `fast` control (10 s a move + 30 s of reserve) becomes 3 s a move + 9 s of reserve
PRESENCE_SECONDS = 6  # a page that is gone shows as not connected this long after its last stream
SIZES = [(1280, 720), (375, 667), (1100, 800), (1100, 800)]  # the first two are the screenshots' sizes
LEAVER = 2  # North closes the page (seats are given in the order the requests came)
MOVE_URL = re.compile(r"/v1/games/[^/]+/(bids|plays)$")

RECORD_TOASTS = """
addEventListener("DOMContentLoaded", () => {
  const toast = document.getElementById("toast");
  new MutationObserver(() => window.noteToast(toast.textContent)).observe(toast, { childList: true });
});
"""

CARDS_OVER_SEATS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const seats = [...document.querySelectorAll("[data-testid=felt] .seat")];
  return [...document.querySelectorAll("[data-testid=trick] .card")]
    .filter((card) => seats.some((seat) => meet(box(card), box(seat))))
    .map((card) => card.dataset.card);
}"""


@pytest.fixture(scope="module")
def clocked_web(redis_db1, ai_worker: None) -> Iterator[str]:
    """A real API on the tests' Redis and AI worker whose clocks are scaled (see the module's docstring)."""
    env = {"CLOCK_SCALE": str(SCALE), "PRESENCE_LEASE_SECONDS": str(PRESENCE_SECONDS)}
    with run_gunicorn(env) as base:
        yield base


def watch(page: Page) -> list[str]:
    """Every toast the page shows, in order (a toast replaces the one before)."""
    toasts: list[str] = []
    page.expose_function("noteToast", lambda text: toasts.append(text))
    page.add_init_script(RECORD_TOASTS)
    if not hasattr(page, "js_errors"):  # a page of the context's own (new_page's have it)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
    return toasts


def ask_for_people(page: Page) -> dict:
    """Play people → quick match: a fast clock, waiting up to a minute; the request as the server answered."""
    page.goto("/play?pace=0")
    page.click("[data-testid=tab-people]")
    page.check("[data-testid=qm-clock-fast]")
    page.select_option("#qm-wait", "60")
    with page.expect_response(lambda r: r.url.endswith("/v1/matches") and r.request.method == "POST") as answer:
        page.click("[data-testid=find-players]")
    assert answer.value.status == 202
    waiting = page.locator("[data-testid=match-countdown]").or_(page.locator("[data-testid=table]"))
    expect(waiting.first).to_be_visible()  # the last of four is seated at once
    return answer.value.json()


def match_state(base: str, match: dict) -> dict:
    headers = {"Authorization": f"Bearer {match['secret']}"}
    return requests.get(f"{base}/v1/matches/{match['match_id']}", headers=headers, timeout=30).json()


class Table:
    """The four pages of one game, each moving when the game waits for its seat."""

    def __init__(self, base: str, game_id: str, pages: dict[int, Page]) -> None:
        self.base, self.game_id, self.pages = base, game_id, pages
        self.moves = dict.fromkeys(range(4), 0)  # moves clicked per seat

    def events_after(self, seq: int, wait: float = 0) -> list[dict]:
        """The game's log after ``seq`` (a long poll with ``wait``: until there is one)."""
        url = f"{self.base}/v1/games/{self.game_id}/events"
        return requests.get(url, params={"after": seq, "wait": wait}, timeout=30).json()["events"]

    def play_until(self, done: Callable[[dict], bool], before_move: Callable[[dict], None] | None = None) -> dict:
        """Moves through the pages until ``done(view)`` (the public view); the view then."""
        while True:
            view = view_of(self.base, self.game_id)
            if done(view):
                return view
            version, seat = view["version"], view["turn"]
            page = self.pages.get(seat)
            if page is None:  # a closed seat's turn: the computer moves when its clock runs out
                self.events_after(view["last_seq"], wait=10)
                continue
            if before_move:
                before_move(view)
            bid, card = (
                f"{table_at(version)} .bid-buttons button",
                f"{table_at(version)} .hand.my-turn .card[data-playable=yes]",
            )
            try:
                page.locator(f"{bid}, {card}").or_(page.locator(past(version))).first.wait_for(timeout=LONG)
            except PlaywrightTimeoutError as error:  # what the page and the server showed, for the failure's report
                shown = page.locator("[data-testid=table]").evaluate("(t) => ({...t.dataset})", timeout=5_000)
                now = view_of(self.base, self.game_id)
                server = {key: now[key] for key in ("version", "phase", "turn", "clock")}
                raise AssertionError(
                    f"seat {seat}'s page at version {version}: page {shown}, server {server}"
                ) from error
            if page.locator(bid).count():
                bids = page.locator(bid).evaluate_all("els => els.map(e => Number(e.dataset.bid))")
                page.click(f"{bid}[data-bid='{3 if 3 in bids else next(b for b in bids if b)}']")
                self.moves[seat] += 1
            elif page.locator(card).count():
                click_card(page.locator(card).first)
                self.moves[seat] += 1
            # else: the seat's clock ran out first and the computer moved (the page shows it)


def test_four_people_quick_match_play_a_round_and_one_comes_back(new_page, clocked_web, screenshots):
    pages = [new_page(width, height, base=clocked_web) for width, height in SIZES]
    toasts = [watch(page) for page in pages]

    matches = [ask_for_people(pages[0]), ask_for_people(pages[1])]
    for page, (width, height) in zip(pages[:2], SIZES, strict=False):  # two people waiting for two more
        for shown in ("[data-testid=match-countdown]", "[data-testid=match-cancel]"):
            assert outside(page, shown) == [], shown
        page.screenshot(path=str(screenshots / f"people-lobby-quickmatch-{width}x{height}.png"))
    matches += [ask_for_people(pages[2]), ask_for_people(pages[3])]

    for seat, page in enumerate(pages):  # seated in the order they asked, all in one game
        expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", str(seat), timeout=LONG)
    game_ids = {page.evaluate("new URLSearchParams(location.search).get('game')") for page in pages}
    states = [match_state(clocked_web, match) for match in matches]
    assert [(s["status"], s["seat"]) for s in states] == [("seated", seat) for seat in range(4)]
    assert len(game_ids) == 1 and game_ids == {s["game_id"] for s in states}
    (game_id,) = game_ids
    first = view_of(clocked_web, game_id)
    assert [s["type"] for s in first["seats"]] == ["human"] * 4
    assert first["clock"]["control"] == "fast" and first["clock"]["move_ms"] == 10_000 * SCALE

    # a trick with everyone, then North closes the page on its turn in the second trick
    table = Table(clocked_web, game_id, dict(enumerate(pages)))
    table.play_until(lambda v: v["phase"] == "playing" and len(v["tricks"]) == 1 and v["turn"] == LEAVER)
    assert all(table.moves[seat] >= 2 for seat in range(4)), "everyone bid and played from their page"
    leaver_context = pages[LEAVER].context
    pages[LEAVER].close()
    others = {seat: page for seat, page in enumerate(pages) if seat != LEAVER}
    table.pages = others

    shots: list[int] = []

    def shoot_away_seat(view: dict) -> None:
        """Once North is away, on a person's running clock: what the others see, at both sizes."""
        if shots or not view["clock"]["away"][LEAVER] or view["phase"] != "playing":
            return
        gone = f"[data-testid=conn-{LEAVER}][data-state=off]"
        if not all(page.locator(gone).count() for page in pages[:2]):
            return  # its dot still on: at a later turn (a page closed goes out within a presence lease)
        turn = view["turn"]
        for page, (width, height) in zip(pages[:2], SIZES, strict=False):
            expect(page.locator(f"[data-testid=clock-{turn}]")).to_be_visible()
            page.screenshot(path=str(screenshots / f"people-table-away-{width}x{height}.png"))
            hand = page.locator("[data-testid=hand] .card").count()
            shown = {"[data-testid=felt] .seat": 4, "[data-testid=hand] .card": hand, ".conn-dot": 4}
            assert_fits(page, {**shown, f"[data-testid=clock-{turn}]": 1, f"[data-testid=away-{LEAVER}]": 1})
            assert page.evaluate(CARDS_OVER_SEATS) == [], "a card of the trick covers a seat"
        shots.append(turn)

    after = table.play_until(lambda v: v["round"] > 1, before_move=shoot_away_seat)
    assert shots, "North was away while the others played"
    # the round ended without North: each page opened its summary
    for page in others.values():
        expect(page.locator("dialog[open][data-testid=summary]")).to_be_visible(timeout=LONG)
    events = table.events_after(0)
    timed_out = [e["data"]["seat"] for e in events if e["type"] == "turn_timed_out"]
    assert timed_out.count(LEAVER) >= 2 and {"type": "seat_away", "seat": LEAVER} in [
        {"type": e["type"], "seat": e["data"].get("seat")} for e in events
    ]
    for seat, page in others.items():  # told, and shown: out of time, away, not connected
        assert "North ran out of time: the computer moved for them." in toasts[seat], toasts[seat]
        assert "North is away: the computer plays for them." in toasts[seat], toasts[seat]
        expect(page.locator(f"[data-testid=away-{LEAVER}]")).to_contain_text("Away")
        expect(page.locator(f"[data-testid=conn-{LEAVER}]")).to_have_attribute("data-state", "off")
        page.click("[data-testid=summary-next]")
    assert after["clock"]["away"][LEAVER]

    # North opens the game again in the same browser: the seat's token is still there
    back = leaver_context.new_page()
    watch(back)
    back.goto(f"/play?game={game_id}&pace=0")
    expect(back.locator("[data-testid=table]")).to_have_attribute("data-you", str(LEAVER), timeout=LONG)
    expect(back.locator(f"[data-testid=away-{LEAVER}]")).to_contain_text("the computer plays for you")
    back.click("[data-testid=back-button]")
    expect(back.locator("[data-testid=back-button]")).to_have_count(0)
    expect(back.locator(f"[data-testid=away-{LEAVER}]")).to_have_count(0)
    for page in others.values():
        expect(page.locator(f"[data-testid=away-{LEAVER}]")).to_have_count(0)
        expect(page.locator(f"[data-testid=conn-{LEAVER}]")).to_have_attribute("data-state", "on", timeout=LONG)
    returned = view_of(clocked_web, game_id)
    assert not returned["clock"]["away"][LEAVER]

    # …and the seat is theirs: a move of North's, sent from its page, is accepted (one that lost the race to its
    # clock, a 412, would only be retried at North's next turn)
    answers: list[int] = []
    back.on("response", lambda r: answers.append(r.status) if MOVE_URL.search(r.url) else None)
    table.pages = {**others, LEAVER: back}
    table.play_until(lambda v: 200 in answers)
    assert not view_of(clocked_web, game_id)["clock"]["away"][LEAVER]
    for seat in others:
        assert "North is back." in toasts[seat], toasts[seat]
    assert not any(page.js_errors for page in [*others.values(), back]), "no script error on any page"
