"""A player the fair-play watch banned from pairing, at the people tab on the real stack (gunicorn with its own
records database): asking for a quick match says the ban's end in the reader's time and what stays open, on the
first screen at 1280×720 and 375×667, shot to var/screenshots/ (pairing-ban-*)."""

from __future__ import annotations

import json

import pytest
import requests
from playwright.sync_api import Page, expect

from services.api.records.database import SQLITE_FILE, make_engine
from services.api.records.schema import pairing_bans
from services.api.store.protocol import now_ms

from .driver import outside

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]


@pytest.fixture
def banned_server(gunicorn_factory, private_redis_url, tmp_path) -> tuple[str, dict]:
    """A server of its own, and a player of it banned from pairing for the next 90 minutes."""
    base = gunicorn_factory({"DATA_DIR": str(tmp_path), "PLAYER_CREATE_RATE_LIMIT": ""}, redis=private_redis_url)
    made = requests.post(f"{base}/v1/players", json={"name": "Early Leaver"}, timeout=30).json()
    engine = make_engine(f"sqlite:///{tmp_path}/{SQLITE_FILE}")
    with engine.begin() as connection:
        start = now_ms()
        connection.execute(
            pairing_bans.insert().values(player_id=made["player"]["id"], started_ms=start, ends_ms=start + 90 * 60_000)
        )
    engine.dispose()
    return base, {**made["player"], "token": made["token"]}


def banned_page(new_page, banned_server: tuple[str, dict], width: int, height: int) -> Page:
    """A page of the banned player's server, signed in as them."""
    base, player = banned_server
    page = new_page(width, height, base=base)
    stored = {key: player[key] for key in ("id", "name", "kind", "token")}
    page.add_init_script(f"localStorage.setItem('spades.player', {json.dumps(json.dumps(stored))})")
    return page


@pytest.mark.parametrize(("width", "height"), SIZES, ids=["laptop", "phone"])
def test_a_banned_player_is_told_when_quick_matches_open_again(new_page, banned_server, screenshots, width, height):
    page = banned_page(new_page, banned_server, width, height)
    page.goto("/play?pace=0")
    page.click("[data-testid=tab-people]")
    with page.expect_response(lambda r: r.url.endswith("/v1/matches") and r.request.method == "POST") as answer:
        page.click("[data-testid=find-players]")
    assert answer.value.status == 409 and answer.value.json()["code"] == "pairing_banned"
    notice = page.locator("[data-testid=qm-error]")
    expect(notice).to_contain_text("open again at")
    expect(notice).not_to_contain_text("{until}")
    expect(notice).to_contain_text("games against the computers are open now")
    assert outside(page, "[data-testid=qm-error]") == [], "the notice is on the first screen"
    page.screenshot(path=str(screenshots / f"pairing-ban-{width}x{height}.png"))
    assert page.js_errors == []


def test_the_notice_stays_when_the_rules_arrive_after_it(new_page, banned_server):
    """The lobby redraws the quick match form with the server's presets when its rules catalogue arrives: an answer
    shown before that (a slow catalogue on a loaded server) stays on the form that replaces it."""
    page = banned_page(new_page, banned_server, 1280, 720)
    held = []
    page.route("**/v1/rules", lambda route: held.append(route))  # the catalogue waits until the notice is shown
    page.goto("/play?pace=0")
    page.click("[data-testid=tab-people]")
    expect(page.locator("#qm-preset option")).to_have_count(2)  # the form before the catalogue
    with page.expect_response(lambda r: r.url.endswith("/v1/matches") and r.request.method == "POST"):
        page.click("[data-testid=find-players]")
    notice = page.locator("[data-testid=qm-error]")
    expect(notice).to_contain_text("open again at")
    assert held, "the lobby asked for the rules catalogue"
    for route in held:
        route.continue_()
    expect(page.locator("#qm-preset option[value=suicide_partners]")).to_have_count(1)  # the form the catalogue draws
    expect(notice).to_contain_text("open again at")
    expect(page.locator("[data-testid=find-players]")).to_be_enabled()
    assert page.js_errors == []
