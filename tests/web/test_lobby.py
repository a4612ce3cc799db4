"""The lobby in a real browser: "Play now" in one click, levels by strength in plain words, every
rule folded under "House rules", errors beside their field in plain words and gone once a game is
made, and "Your games" split into live and finished."""

from __future__ import annotations

import json
import re

import pytest
import requests
from playwright.sync_api import expect

from ..api.helpers import wait_until
from .catalogues import catalogue as messages
from .driver import LONG, open_house_rules

pytestmark = pytest.mark.integration


def test_play_now_is_one_click_to_a_partnership_game_against_three_computers(new_page, web):
    page = new_page()
    posts: list[dict] = []
    page.on("request", lambda r: posts.append(r.post_data_json) if r.method == "POST" else None)
    page.goto("/play?pace=0")
    catalogue = requests.get(f"{web}/v1/levels", timeout=30).json()
    by_strength = sorted(catalogue["levels"], key=lambda level: level["strength"])
    expect(page.locator(".level")).to_have_count(len(by_strength))  # drawn once the page's GET /v1/levels answers
    shown = page.locator(".level").evaluate_all("els => els.map(e => e.dataset.level)")
    assert shown == [level["name"] for level in by_strength], "weakest first"
    for level in by_strength:
        summary = messages("en")[f"lobby.level.{level['name']}.summary"]  # by the level's code
        expect(page.locator(f".level[data-level={level['name']}] .level-summary")).to_have_text(summary)
    assert "seed" not in page.locator("main").inner_text().lower(), "no seed numbers"
    expect(page.locator(f"[data-testid=level-{catalogue['default_level']}]")).to_be_checked()
    expect(page.locator("[data-testid=house-rules]")).not_to_have_attribute("open", "")  # the rules are folded

    strongest = by_strength[-1]["name"]
    page.check(f"[data-testid=level-{strongest}]")
    page.click("[data-testid=play-now]")  # the one click
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", "0")
    game_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    assert posts == [
        {
            "rules": {"preset": "partnership"},
            "seats": [{"type": "human"}] + [{"type": "ai", "level": strongest}] * 3,
            "options": {"hints": True},
        }
    ]
    view = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()
    assert view["rules"]["scoring"] == "partnership" and view["options"]["hints"] is True
    assert [(s["type"], s["level"]) for s in view["seats"]] == [("human", None)] + [("ai", strongest)] * 3

    page.goto("/play")
    expect(page.locator(f"[data-testid=level-{strongest}]")).to_be_checked()  # remembered in this browser
    assert not page.js_errors


def test_errors_sit_beside_their_field_in_plain_words_and_go_once_a_game_is_made(new_page):
    page = new_page()
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto("/play?pace=0")
    open_house_rules(page)
    expect(page.locator("[data-testid=house-rules] summary")).to_contain_text("partnership, to 500")

    page.fill("#win_score", "")  # an empty box is never sent as 0
    page.click("[data-testid=create]")
    error = page.locator("[data-testid=error-win_score]")
    expect(error).to_have_text("Enter the winning score: a whole number from 1 to 100,000.")
    expect(page.locator("#win_score")).to_have_attribute("aria-invalid", "true")
    assert "win_score-error" in page.get_attribute("#win_score", "aria-describedby")
    assert page.evaluate("document.activeElement.id") == "win_score"
    box, field = (page.locator(s).bounding_box() for s in ("[data-testid=error-win_score]", "#win_score"))
    assert 0 <= box["y"] - (field["y"] + field["height"]) < 40, "right under its box"
    assert posts == []

    page.fill("#win_score", "300")
    expect(error).to_have_text("")  # cleared as soon as the box changes
    page.select_option("#seat-2", "you")
    page.click("[data-testid=create]")
    expect(page.locator("[data-testid=error-seat-2]")).to_contain_text("Only one seat can be “You”")
    page.select_option("#seat-2", page.locator("#seat-1").input_value())

    # The server refuses a field: its error goes beside that field, in the form's words.
    problem = {
        "type": "urn:spades:problem:invalid_request", "title": "Invalid", "status": 400, "detail": "Invalid request",
        "code": "invalid_request", "errors": [{"field": "rules.bag_penalty", "message": "Must be greater than or equal to 0."}],
    }  # fmt: skip
    page.route(
        "**/v1/games",
        lambda route: route.fulfill(status=400, content_type="application/problem+json", body=json.dumps(problem)),
    )
    page.click("[data-testid=create]")
    expect(page.locator("[data-testid=error-bag_penalty]")).to_have_text(
        "Points lost at that many bags must be a whole number from 0 to 100,000."
    )
    assert "rules." not in page.locator("main").inner_text(), "no API field names"
    expect(page.locator("[data-testid=message]")).to_be_hidden()  # nothing at the top of the page
    page.unroute("**/v1/games")

    page.click("[data-testid=create]")
    expect(page.locator("[data-testid=table]")).to_be_visible(timeout=LONG)
    expect(page.locator("[data-testid=message]")).to_be_hidden()
    page.click(".brand")  # back to the lobby: no error is left anywhere
    expect(page.locator("[data-testid=play-now]")).to_be_visible()
    assert page.locator(".field-error").evaluate_all("els => els.filter(e => e.textContent).length") == 0
    assert page.locator("[aria-invalid]").count() == 0


def finished_game(web: str) -> tuple[str, str]:
    """A game whose person (South) played to its end over the API against three computers."""
    body = {
        "rules": {"preset": "partnership", "win_score": 30, "lose_score": -30},
        "seats": [{"type": "human"}] + [{"type": "ai", "level": "easy"}] * 3,
    }
    created = requests.post(f"{web}/v1/games", json=body, timeout=30).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(2000):
        view = requests.get(f"{web}/v1/games/{game_id}", headers=auth, timeout=30).json()
        if view["phase"] == "game_over":
            return game_id, token
        if view["turn"] == 0 and view["legal"]:
            kind, field = ("bids", "bid") if view["phase"] == "bidding" else ("plays", "card")
            requests.post(f"{web}/v1/games/{game_id}/{kind}", json={field: view["legal"][0]}, headers=auth, timeout=30)
        else:
            requests.get(f"{web}/v1/games/{game_id}/events", params={"after": view["last_seq"], "wait": 5}, timeout=30)
    raise AssertionError("the game did not end")


def test_your_games_are_split_into_live_and_finished(new_page, web):
    over, over_token = finished_game(web)
    live = requests.post(
        f"{web}/v1/games", json={"seats": [{"type": "human"}] + [{"type": "open"}] * 3}, timeout=30
    ).json()
    page = new_page()
    page.goto("/play")
    held = {over: over_token, live["game_id"]: live["seats"][0]["token"], "gone-long-ago": "x" * 43}
    for game_id, token in held.items():
        page.evaluate(
            "([k, v]) => localStorage.setItem(k, v)",
            [f"spades.seat.{game_id}", json.dumps({"seat": 0, "token": token})],
        )
    page.reload()
    live_list, done_list = page.locator("[data-testid=live-games]"), page.locator("[data-testid=finished-games]")
    expect(live_list.locator("a")).to_have_count(1, timeout=LONG)
    expect(done_list.locator("a")).to_have_count(1, timeout=LONG)
    assert live["game_id"] in live_list.locator("a").get_attribute("href")
    assert over in done_list.locator("a").get_attribute("href")
    expect(done_list.locator("a")).to_have_text(re.compile(r"^South · (won|lost) −?\d+–−?\d+$"))
    expect(live_list).to_contain_text("round 1")
    assert page.evaluate("localStorage.getItem('spades.seat.gone-long-ago')") is None, "an expired game is forgotten"


def test_a_finished_game_gone_from_the_live_store_is_read_from_the_records(new_page, web, redis_db1):
    over, over_token = finished_game(web)
    game_key = f"game:{{{over}}}"

    def recorded() -> bool:  # written, and then given its expiry back
        return (
            requests.get(f"{web}/v1/games/{over}/record", timeout=30).status_code == 200 and redis_db1.ttl(game_key) > 0
        )

    wait_until(recorded, "the finished game was not recorded")
    redis_db1.delete(game_key, f"{game_key}:events")  # as when it expires
    assert requests.get(f"{web}/v1/games/{over}", timeout=30).status_code == 404
    page = new_page()
    page.goto("/play")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"spades.seat.{over}", json.dumps({"seat": 0, "token": over_token})]
    )
    page.reload()
    done_list = page.locator("[data-testid=finished-games]")
    game_link = done_list.locator("a:not(.replay-link)")
    expect(game_link).to_have_text(re.compile(r"^South · (won|lost) −?\d+–−?\d+$"), timeout=LONG)
    replay = done_list.locator("a.replay-link")  # the records hold it: it can be replayed
    expect(replay).to_have_attribute("href", f"/play#/replay/{over}?seat=0")
    game_link.click()
    record = page.locator("[data-testid=record]")
    expect(record).to_be_visible(timeout=LONG)
    expect(record.locator("[data-testid=record-result]")).to_contain_text(re.compile("(Your team wins|Opponents win)"))
    expect(record.locator("[data-testid=score-history] tbody tr").first).to_be_visible()
    record.locator("[data-testid=record-replay]").click()
    expect(page.locator("[data-testid=replay-table]")).to_have_attribute("data-step", "0", timeout=LONG)
    assert page.js_errors == []
