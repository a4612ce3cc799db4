"""A seat follows its player to another device, on the real stack (gunicorn, the Celery AI worker, Redis, the
records database): two people at a table with two computers, each in a browser context of their own. Person 1's
first device is closed on their turn; their second device, signed in as the same player (a link code made with the
player token, redeemed with ``POST /v1/sessions``, the session kept the way identity.js keeps a player), opens the
lobby, finds the game under "Your games in play", takes the seat back with one click on "Continue" and plays on, while
person 2 plays on from their page. The first device, opened again, is told it continued elsewhere and watches,
with "Take my seat here" on offer; an invite link to the seat offers the same. The screenshots of "Your games"
and of the offer are taken in English and Indonesian at both sizes.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

import pytest
import requests
from playwright.sync_api import Page, expect

from .driver import LONG, click_card, table_at, view_of
from .players_api import make_player

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]
TWO_PEOPLE = [{"type": "human", "player": True}, {"type": "open"}, {"type": "ai", "level": "easy"}] + [
    {"type": "ai", "level": "easy"}
]


def sign_in(base: str, player_token: str, device: str) -> str:
    """A session of the player for another device: a link code made on the first, redeemed on this one."""
    link = requests.post(f"{base}/v1/players/me/link-codes", headers={"Player-Token": player_token}, timeout=30)
    assert link.status_code == 201, link.text
    signed_in = requests.post(
        f"{base}/v1/sessions", json={"link_code": link.json()["code"], "device_name": device}, timeout=30
    )
    assert signed_in.status_code == 201, signed_in.text
    return signed_in.json()["token"]


def device(new_page, player: dict | None, credential: str | None, width=1100, height=800, locale="en-US") -> Page:
    """A browser of its own; signed in as ``player`` with ``credential`` (kept as identity.js keeps it)."""
    page = new_page(width, height, locale=locale)
    if player is not None:
        stored = {"id": player["id"], "name": player["name"], "kind": player["kind"], "token": credential}
        page.add_init_script(f"localStorage.setItem('spades.player', {json.dumps(json.dumps(stored))})")
    return page


def hold_seat(page: Page, game_id: str, seat: int, token: str) -> None:
    page.goto("/play?pace=0")
    page.evaluate(
        "([id, seat, token]) => localStorage.setItem(`spades.seat.${id}`, JSON.stringify({seat, token, since: Date.now()}))",
        [game_id, seat, token],
    )


def play_until(base: str, game_id: str, pages: dict[int, Page], done: Callable[[dict], bool]) -> dict:
    """Moves through the people's pages until ``done(view)``; the computers' turns are waited for."""
    for _ in range(500):
        view = view_of(base, game_id)
        if done(view):
            return view
        page = pages.get(view["turn"])
        if page is None:  # a computer's turn, or a closed page's: wait for the next event
            requests.get(
                f"{base}/v1/games/{game_id}/events", params={"after": view["last_seq"], "wait": 10}, timeout=30
            )
            continue
        bid, card = (
            f"{table_at(view['version'])} .bid-buttons button",
            f"{table_at(view['version'])} .hand.my-turn .card[data-playable=yes]",
        )
        page.locator(f"{bid}, {card}").first.wait_for(timeout=LONG)
        if page.locator(bid).count():
            bids = page.locator(bid).evaluate_all("els => els.map(e => Number(e.dataset.bid))")
            page.click(f"{bid}[data-bid='{3 if 3 in bids else next(b for b in bids if b)}']")
        else:
            click_card(page.locator(card).first)
        until_committed(base, game_id, view)
    raise AssertionError("the game never got there")


def until_committed(base: str, game_id: str, view: dict) -> None:
    """Wait (long polls of the log) until the server holds a version after ``view``'s: the page shows its own move
    at once, before the server has committed it, so the page's version says nothing of the server's."""
    for _ in range(30):
        if view_of(base, game_id)["version"] > view["version"]:
            return
        requests.get(f"{base}/v1/games/{game_id}/events", params={"after": view["last_seq"], "wait": 5}, timeout=30)
    raise AssertionError("the move was never committed")


def test_a_player_takes_their_seat_to_another_device_in_one_click_while_the_other_person_plays_on(
    new_page, web, screenshots
):
    ada = make_player(web, "Ada Seats")
    me, ada_token = ada["player"], ada["token"]
    body = {"rules": {"preset": "partnership", "win_score": 200}, "seats": TWO_PEOPLE, "options": {"clock": "none"}}
    created = requests.post(f"{web}/v1/games", json=body, headers={"Player-Token": ada_token}, timeout=30)
    assert created.status_code == 201, created.text
    game_id, first_token = created.json()["game_id"], created.json()["seats"][0]["token"]
    bea = requests.post(f"{web}/v1/games/{game_id}/seats/1/claim", json={}, timeout=30).json()

    first = device(new_page, me, ada_token)  # person 1's first device
    hold_seat(first, game_id, 0, first_token)
    other = device(new_page, None, None)  # person 2, no name
    hold_seat(other, game_id, 1, bea["token"])
    for page, seat in ((first, 0), (other, 1)):
        page.goto(f"/play?pace=0&game={game_id}")
        expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", str(seat), timeout=LONG)

    # both bid; then person 1 closes the first device on their turn
    view = play_until(web, game_id, {0: first, 1: other}, lambda v: v["phase"] == "playing" and v["turn"] == 0)
    first_context = first.context
    first.close()
    version = view["version"]

    # the second device, signed in as the same player, finds the game under "Your games"
    second = device(new_page, me, sign_in(web, ada_token, "Phone"), *SIZES[0])
    second.goto("/play?pace=0")
    item = second.locator(f"[data-testid=live-game][data-game='{game_id}']")
    expect(item).to_contain_text("your turn", timeout=LONG)
    for width, height in SIZES:
        second.set_viewport_size({"width": width, "height": height})
        item.scroll_into_view_if_needed()
        second.screenshot(path=str(screenshots / f"seat-follow-your-games-{width}x{height}.png"))
    with second.expect_response(lambda r: r.url.endswith("/seats/0/take")) as taken:
        item.locator("[data-testid=continue]").click()
    assert taken.value.status == 200
    expect(second.locator("[data-testid=table]")).to_have_attribute("data-you", "0", timeout=LONG)
    assert view_of(web, game_id)["version"] == version + 1, "one change: the seat's new token"
    events = requests.get(f"{web}/v1/games/{game_id}/events", params={"after": view["last_seq"]}, timeout=30)
    assert [e["type"] for e in events.json()["events"]] == ["seat_rejoined"]

    # …and plays on from there, as person 2 does from theirs
    start = view_of(web, game_id)
    pages = {0: second, 1: other}
    after = play_until(web, game_id, pages, lambda v: len(v["tricks"]) >= 2 and v["turn"] in (0, 1))
    moved = requests.get(f"{web}/v1/games/{game_id}/events", params={"after": start["last_seq"]}, timeout=30)
    played = {e["data"]["seat"] for e in moved.json()["events"] if e["type"] == "card_played"}
    assert {0, 1} <= played and after["seats"][0]["player"]["id"] == me["id"]

    # the first device, opened again: told it continued elsewhere, it watches, and may take the seat back
    again = first_context.new_page()
    again.goto(f"/play?pace=0&game={game_id}")
    expect(again.locator("[data-testid=table]")).to_have_attribute("data-you", "spectator", timeout=LONG)
    expect(again.locator("#message")).to_contain_text("You continued this game on another device")
    expect(again.locator("[data-testid=take-offer]")).to_contain_text("South is your seat")
    expect(again.locator("[data-testid=take-seat]")).to_be_visible()
    invite = device(new_page, me, ada_token)
    invite.goto(f"/play?pace=0&game={game_id}&seat=0")
    expect(invite.locator("[data-testid=invite-page] h1")).to_have_text("South is your seat")
    expect(invite.locator("[data-testid=invite-lead]")).to_have_text(  # the second device is at the table
        "You play it on another device. Take it here, and that device will watch."
    )
    expect(invite.locator("[data-testid=take-seat]")).to_be_visible()
    expect(invite.locator("[data-testid=watch]")).to_be_visible()
    for width, height in SIZES:
        invite.set_viewport_size({"width": width, "height": height})
        expect(invite.locator("[data-testid=watch]")).to_be_in_viewport()
        invite.screenshot(path=str(screenshots / f"seat-follow-invite-{width}x{height}.png"))

    # the screenshots: the offer on the game's page and "Your games", in English and Indonesian, at both sizes
    for locale, prefix in (("en-US", ""), ("id-ID", "id-")):
        for width, height in SIZES:
            look = device(new_page, me, sign_in(web, ada_token, "Tablet"), width, height, locale)
            look.goto(f"/play?pace=0&game={game_id}")
            expect(look.locator("[data-testid=take-seat]")).to_be_visible(timeout=LONG)
            look.screenshot(path=str(screenshots / f"{prefix}seat-follow-take-{width}x{height}.png"))
            if prefix:
                look.goto("/play?pace=0")
                listed = look.locator(f"[data-testid=live-game][data-game='{game_id}'] [data-testid=continue]")
                expect(listed).to_have_text("Lanjutkan", timeout=LONG)
                listed.scroll_into_view_if_needed()
                look.screenshot(path=str(screenshots / f"id-seat-follow-your-games-{width}x{height}.png"))
    assert not any(p.js_errors for p in (second, other, invite)), "no script error"


def test_a_device_signed_out_from_another_is_told_so_and_its_seat_waits_for_its_player(new_page, web, screenshots):
    """Device A (a session) holds South in a game with three computers and no clock; device B, signed in as the
    same player with the player token, signs A out from its account page. The seat is released: A's page says
    this device was signed out and no longer holds the seat (never that it continued on another device), watches,
    and offers no seat to take; B's "Your games in play" offers the seat, and one click takes it there. A's page
    is shot at both sizes (seat-signed-out-*)."""
    made = make_player(web, f"Ida {secrets.token_hex(2)}")
    me, player_token = made["player"], made["token"]
    session = sign_in(web, player_token, "Ida's phone")
    seats = [{"type": "human", "player": True}] + [{"type": "ai", "level": "easy"}] * 3
    body = {"rules": {"preset": "partnership", "win_score": 200}, "seats": seats, "options": {"clock": "none"}}
    created = requests.post(f"{web}/v1/games", json=body, headers={"Player-Token": session}, timeout=30)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]

    a = device(new_page, me, session, *SIZES[0])
    hold_seat(a, game_id, 0, created.json()["seats"][0]["token"])
    a.goto(f"/play?pace=0&game={game_id}")
    expect(a.locator("[data-testid=table]")).to_have_attribute("data-you", "0", timeout=LONG)

    b = device(new_page, me, player_token)
    b.goto("/play#/account")
    phone = b.locator("[data-testid=devices] .device", has_text="Ida's phone")
    phone.locator("[data-testid=device-sign-out]").click()
    b.click("[data-testid=confirm-signout-signout]")
    expect(b.locator("[data-testid=message]")).to_contain_text("Ida's phone is signed out.")

    expect(a.locator("[data-testid=table]")).to_have_attribute("data-you", "spectator", timeout=LONG)
    told = a.locator("[data-testid=message]")
    expect(told).to_contain_text("This device was signed out, so it no longer holds your seat", timeout=LONG)
    expect(told).not_to_contain_text("another device")
    expect(a.locator("[data-testid=take-offer]")).to_have_count(0)
    assert a.evaluate("localStorage.getItem('spades.player')") is None
    for width, height in SIZES:
        a.set_viewport_size({"width": width, "height": height})
        expect(told).to_be_in_viewport()
        a.screenshot(path=str(screenshots / f"seat-signed-out-{width}x{height}.png"))

    b.goto("/play?pace=0")
    item = b.locator(f"[data-testid=live-game][data-game='{game_id}']")
    with b.expect_response(lambda r: r.url.endswith("/seats/0/take")) as taken:
        item.locator("[data-testid=continue]").click(timeout=LONG)
    assert taken.value.status == 200
    expect(b.locator("[data-testid=table]")).to_have_attribute("data-you", "0", timeout=LONG)
