"""A seat's "Away" badge stays in sight while a card travels from that seat to the trick, on the real stack
(gunicorn with scaled clocks, the AI worker): two people's seats whose people never move run out of time,
go away, and the computer plays them; a page watching the table checks, at the first frame of each card
that leaves an away seat (the card then lies over the seat), that the badge is what shows across the whole
badge, not the card.

The check runs in the page at the moment the motion announces the card (``spades:motion``): every running
animation is paused at its start, the badge hit-tested, and the animations played on; nothing waits on
time."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests
from playwright.sync_api import expect

from tests.conftest import run_gunicorn

from .driver import LONG

pytestmark = pytest.mark.integration

SCALE = 0.1  # the `fast` control (10 s a move + 30 s of reserve) becomes 1 s + 3 s: away within seconds
CHECKS = 4  # cards seen leaving away seats

AT_THE_FIRST_FRAME = """
window.__badges = [];
document.addEventListener('spades:motion', (event) => {
  const { kind, seat } = event.detail;
  const badge = document.querySelector(`[data-testid=away-${seat}] .away-badge`);
  if (kind !== 'travel' || !badge) return;
  queueMicrotask(() => {  // the card's animation has started: it is created right after the announcement
    const running = document.getAnimations().filter((a) => !(a instanceof CSSAnimation || a instanceof CSSTransition));
    if (!running.length) return;
    for (const animation of running) { animation.pause(); animation.currentTime = 0; }
    const r = badge.getBoundingClientRect();
    const points = [0.1, 0.5, 0.9].flatMap((x) => [0.25, 0.5, 0.75].map((y) => [r.left + r.width * x, r.top + r.height * y]));
    const hidden = points.filter(([x, y]) => !badge.contains(document.elementFromPoint(x, y)));
    const card = running[0].effect.target.getBoundingClientRect();  // the travelling card, at its seat
    const over = card.left < r.right && r.left < card.right && card.top < r.bottom && r.top < card.bottom;
    window.__badges.push({ seat, over, shown: hidden.length === 0, hidden });
    for (const animation of running) animation.play();
  });
});
"""


@pytest.fixture(scope="module")
def clocked_web(redis_db1, ai_worker: None) -> Iterator[str]:
    """A real API on the tests' Redis and AI worker whose clocks run at SCALE."""
    with run_gunicorn({"CLOCK_SCALE": str(SCALE)}) as base:
        yield base


def test_an_away_seats_badge_stays_above_the_card_it_plays(new_page, clocked_web):
    seats = [{"type": "human"}, {"type": "human"}, {"type": "ai", "level": "easy"}, {"type": "ai", "level": "easy"}]
    body = {"rules": {"preset": "partnership"}, "seats": seats, "options": {"clock": "fast", "hints": False}}
    created = requests.post(f"{clocked_web}/v1/games", json=body, timeout=30)
    assert created.status_code == 201, created.text
    page = new_page(1280, 720, base=clocked_web)
    page.add_init_script(AT_THE_FIRST_FRAME)
    page.goto(f"/play?pace=400&game={created.json()['game_id']}")  # watching; cards travel for 180 ms
    expect(page.locator("[data-testid=away-1] .away-badge")).to_be_visible(timeout=LONG)
    page.wait_for_function(f"() => window.__badges.filter((b) => b.over).length >= {CHECKS}", timeout=LONG)
    seen = page.evaluate("window.__badges")
    assert {check["seat"] for check in seen} <= {0, 1}, seen
    assert all(check["shown"] for check in seen if check["over"]), seen
