"""Quick match's waiting dialog in a real browser, on a server of its own (its own Redis: no other test's requests
share its buckets, so the people found are exactly the test's): each person's dialog counts the people found, live
("3 of 4 players found", a pip per seat), says who takes the free seats when the wait runs out and whether the
game is rated; a fourth person seats everyone at once, long before the countdown ends.  Screenshots of the dialog
with three people found at 1280×720, 1366×768, 375×667 and 667×375, in English and Indonesian."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import requests
from playwright.sync_api import Page, expect

from .driver import outside
from .own_api import own_people_api
from .players_api import make_player

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (1366, 768), (375, 667), (667, 375)]
NAMES = {"en-US": ["Bea", "Cal", "Dot", "Eli"], "id-ID": ["Budi", "Sari", "Dewi", "Agus"]}  # a screenshot's person
DIALOG = ("match-wait", "match-countdown", "match-found", "match-note", "match-rated", "match-cancel")


@pytest.fixture(scope="module")
def own_web(tmp_path_factory) -> Iterator[str]:
    """An API with its own Redis and records database, quick match swept often, no computers needed (the tests
    never let a wait run out)."""
    with own_people_api(tmp_path_factory.mktemp("quick-match")) as base:
        yield base


def person(new_page, base: str, name: str | None = None, size: tuple[int, int] = (1100, 900), locale="en-US") -> Page:
    """A person's browser on the lobby's people tab, signed in as a new player called ``name`` if given."""
    page = new_page(*size, base=base, locale=locale)
    if name:
        made = make_player(base, name)
        stored = {"id": made["player"]["id"], "name": made["player"]["name"], "kind": "person", "token": made["token"]}
        page.add_init_script(f"localStorage.setItem('spades.player', {json.dumps(json.dumps(stored))})")
    page.goto("/play?pace=0")
    page.click("[data-testid=tab-people]")
    page.select_option("#qm-wait", "120")  # far longer than the test: only people end this wait
    return page


def find_players(page: Page) -> dict:
    """Click "Find players": the request's body as sent and the server's answer (its id and secret)."""
    with page.expect_response(lambda r: r.url.endswith("/v1/matches") and r.request.method == "POST") as answer:
        page.click("[data-testid=find-players]")
    assert answer.value.status == 202
    return {**answer.value.json(), "body": answer.value.request.post_data_json}


def cancel(base: str, match: dict) -> None:
    answer = requests.delete(
        f"{base}/v1/matches/{match['match_id']}", headers={"Authorization": f"Bearer {match['secret']}"}, timeout=30
    )
    assert answer.status_code == 200 and answer.json()["status"] == "cancelled", answer.text


def pips(page: Page) -> list[str | None]:
    return page.locator(".match-seat").evaluate_all("els => els.map(e => e.dataset.found)")


def test_three_people_each_see_three_of_four_found_live_and_a_fourth_seats_them_at_once(new_page, own_web):
    pages = [person(new_page, own_web, "Ada"), person(new_page, own_web), person(new_page, own_web, size=(375, 667))]
    matches = []
    for joined, page in enumerate(pages, start=1):
        matches.append(find_players(page))
        for earlier in pages[:joined]:  # every dialog open so far follows the count, without a reload
            expect(earlier.locator("[data-testid=match-found]")).to_have_text(f"{joined} of 4 players found")
    assert len({m["match_id"].split(".")[0] for m in matches}) == 1, "one bucket: the same rules and clock"
    level = pages[0].locator("#qm-level").locator("option:checked").inner_text()
    for page in pages:
        assert pips(page) == ["yes", "yes", "yes", "no"]
        note = page.locator("[data-testid=match-note]")
        expect(note).to_have_text(f"When the time is up, a computer ({level}) takes the free seat.")
    expect(pages[0].locator("[data-testid=match-rated]")).to_have_text(
        "The game is rated, with computers or without, if every person at the table has a name."
    )
    expect(pages[1].locator("[data-testid=match-rated]")).to_have_text(
        "You play without a name, so this game will not be rated."
    )
    for shown in DIALOG:
        assert outside(pages[2], f"[data-testid={shown}]") == [], shown

    fourth = requests.post(f"{own_web}/v1/matches", json=matches[0]["body"], timeout=30)  # a fourth person asks
    assert fourth.status_code == 202, fourth.text
    for seat, page in enumerate(pages):  # seated at once, in the order they asked: no wait for the countdown
        expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", str(seat))
    states = [
        requests.get(
            f"{own_web}/v1/matches/{m['match_id']}", headers={"Authorization": f"Bearer {m['secret']}"}, timeout=30
        ).json()
        for m in matches
    ]
    assert [(s["status"], s["seat"]) for s in states] == [("seated", seat) for seat in range(3)]
    seats = requests.get(f"{own_web}/v1/games/{states[0]['game_id']}", timeout=30).json()["seats"]
    assert [s["type"] for s in seats] == ["human"] * 4, "four people: nobody waited for computers"


@pytest.mark.parametrize("locale", ["en-US", "id-ID"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_waiting_dialog_with_people_found_fits_the_window(new_page, own_web, screenshots, width, height, locale):
    name = NAMES[locale][SIZES.index((width, height))]
    page = person(new_page, own_web, name, (width, height), locale)
    mine = find_players(page)
    others = []
    for _ in range(2):  # two more people ask for the same game
        answer = requests.post(f"{own_web}/v1/matches", json=mine["body"], timeout=30)
        assert answer.status_code == 202, answer.text
        others.append(answer.json())
    found = "3 of 4 players found" if locale == "en-US" else "3 dari 4 pemain ditemukan"
    expect(page.locator("[data-testid=match-found]")).to_have_text(found)
    for shown in DIALOG:
        assert outside(page, f"[data-testid={shown}]") == [], shown
    lang = "" if locale == "en-US" else "id-"
    page.screenshot(path=str(screenshots / f"quickmatch-found-{lang}{width}x{height}.png"))
    page.click("[data-testid=match-cancel]")
    for match in others:
        cancel(own_web, match)
