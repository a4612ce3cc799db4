"""Friends in a real browser, on a server of its own (its own Redis: no other test's quick matches share its
buckets): a player blocked from their profile page is never matched with you by quick match, though both of you
ask from your browsers and three others ask too; the friends page shows whom you follow (online, at a public
table, "Join") and whom you blocked; an invite sent from your table's picker reaches your friend's lobby, whose
"Join" opens the seat.  Screenshots of the friends page and of the invite notice at 1280×720 and 375×667, in
English and Indonesian."""

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

SIZES = [(1280, 720), (375, 667)]


@pytest.fixture(scope="module")
def friends_web(tmp_path_factory) -> Iterator[str]:
    """An API with its own Redis and records database, quick match swept often, no computers needed."""
    with own_people_api(tmp_path_factory.mktemp("friends")) as base:
        yield base


def signed_in(new_page, base: str, made: dict, width: int = 1100, height: int = 900, locale: str = "en-US") -> Page:
    page = new_page(width, height, base=base, locale=locale)
    stored = {"id": made["player"]["id"], "name": made["player"]["name"], "kind": "person", "token": made["token"]}
    page.add_init_script(f"localStorage.setItem('spades.player', {json.dumps(json.dumps(stored))})")
    return page


def as_player(made: dict) -> dict[str, str]:
    return {"Player-Token": made["token"]}


def test_a_blocked_player_is_never_matched_with_you(new_page, friends_web):
    base = friends_web
    ada, bo = make_player(base, "Ada"), make_player(base, "Bo")
    others = [make_player(base, name) for name in ("Cy", "Di", "Ed")]
    ada_page = signed_in(new_page, base, ada)
    ada_page.goto(f"/play?pace=0#/players/{bo['player']['id']}")
    ada_page.click("[data-testid=block]")
    expect(ada_page.locator("[data-testid=unblock]")).to_be_visible()
    bodies: list[dict] = []
    pages = []
    for made in (bo, ada):  # the one blocked asks first, then the one who blocked
        page = ada_page if made is ada else signed_in(new_page, base, made)
        page.on("request", lambda r: bodies.append(r.post_data_json) if r.url.endswith("/v1/matches") else None)
        page.goto("/play?pace=0")
        page.click("[data-testid=tab-people]")
        with page.expect_response(lambda r: r.url.endswith("/v1/matches") and r.request.method == "POST") as asked:
            page.click("[data-testid=find-players]")
        assert asked.value.status == 202
        expect(page.locator("[data-testid=match-countdown]")).to_be_visible()
        pages.append(page)
    bo_page, _ = pages
    for made in others:  # the same request as the pages', from three more people
        answer = requests.post(f"{base}/v1/matches", json=bodies[-1], headers=as_player(made), timeout=30)
        assert answer.status_code == 202, answer.text
    bo_page.wait_for_url("**game=**")  # the first four in arrival order that hold no blocked pair: Bo's table
    game_id = bo_page.evaluate("new URLSearchParams(location.search).get('game')")
    seated = {s["player"]["id"] for s in requests.get(f"{base}/v1/games/{game_id}", timeout=30).json()["seats"]}
    assert seated == {bo["player"]["id"]} | {m["player"]["id"] for m in others}
    expect(ada_page.locator("[data-testid=match-countdown]")).to_be_visible()
    assert "game=" not in ada_page.url, "Ada still waits: never at Bo's table"
    ada_page.click("[data-testid=match-cancel]")
    assert ada_page.js_errors == [] and bo_page.js_errors == []


@pytest.mark.parametrize("locale", ["en-US", "id-ID"], ids=["en", "id"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=["laptop", "phone"])
def test_the_friends_page_and_an_invite_from_your_table_to_a_friends_lobby(
    new_page, friends_web, screenshots, width, height, locale
):
    base, lang = friends_web, locale[:2]
    ada, bo, cy, di = (make_player(base, name) for name in ("Ada", "Bo", "Cy", "Di"))
    for other in (bo, cy, di):
        assert requests.put(
            f"{base}/v1/players/me/following/{other['player']['id']}", headers=as_player(ada), timeout=30
        ).ok
    requests.put(f"{base}/v1/players/me/following/{ada['player']['id']}", headers=as_player(bo), timeout=30)
    requests.put(f"{base}/v1/players/me/blocks/{di['player']['id']}", headers=as_player(ada), timeout=30)
    public = {"seats": [{"type": "human", "player": True}, {"type": "open"}, {"type": "open"}, {"type": "open"}],
              "options": {"public": True, "clock": "none"}}  # fmt: skip
    requests.post(f"{base}/v1/games", json=public, headers=as_player(cy), timeout=30)  # Cy online, at a public table

    page = signed_in(new_page, base, ada, width, height, locale)
    page.goto("/play?pace=0")
    page.click("[data-testid=friends-link]")
    cy_row = page.locator(f"[data-testid=friend-{cy['player']['id']}]")
    expect(cy_row).to_have_attribute("data-online", "true")
    expect(cy_row.locator("[data-testid=friend-join]")).to_be_visible()
    expect(page.locator(f"[data-testid=friend-{bo['player']['id']}]")).to_be_visible()
    expect(page.locator(f"[data-testid=blocked-{di['player']['id']}]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "never sideways"
    page.screenshot(path=str(screenshots / f"friends-{lang}-{width}x{height}.png"), full_page=True)

    # Ada at her own table, waiting for people: the picker in the table's invites sends Bo an invite
    mine = {**public, "options": {"public": False, "clock": "none"}}
    created = requests.post(f"{base}/v1/games", json=mine, headers=as_player(ada), timeout=30).json()
    game_id, token = created["game_id"], created["seats"][0]["token"]
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"spades.seat.{game_id}", json.dumps({"seat": 0, "token": token})]
    )
    page.goto(f"/play?pace=0&game={game_id}")
    invite = page.locator(f"[data-testid=invite-friend-{bo['player']['id']}]")
    invite.click()
    expect(invite).to_be_disabled()
    assert page.js_errors == []

    friend = signed_in(new_page, base, bo, width, height, locale)
    friend.goto("/play?pace=0")
    notice = friend.locator("[data-testid=notice]")
    expect(notice).to_contain_text(ada["player"]["name"])
    assert outside(friend, "[data-testid=notice-join]") == [], "the invite is on the first screen"
    friend.screenshot(path=str(screenshots / f"friends-notice-{lang}-{width}x{height}.png"))
    friend.click("[data-testid=notice-join]")
    friend.wait_for_url(f"**game={game_id}&seat=1**")
    notices = requests.get(f"{base}/v1/players/me/notices", headers=as_player(bo), timeout=30).json()["notices"]
    assert notices == [], "joining dismissed it on every device"
    assert friend.js_errors == []
