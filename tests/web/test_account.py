"""One player on several devices, in the browser, on the real stack (gunicorn, the records database): each device
is a browser context of its own (its own localStorage). Device 1 chooses a name and links device 2 by a code typed
there (small letters, no dash) and device 3 by opening the link; both play as the same player (a rated game played
with device 2's session is on the profile every device shows). Device 1 lists the devices and signs device 2 out;
device 2's next request says "This device was signed out" and it plays on without a name. Recovery codes are shown
once; one signs device 4 in, and the same code is refused on device 5, with the page's words for it.

The screens (link a device with its QR code, the sign-in dialog, the devices, the recovery codes) fit 1280×720 and
375×667 without sideways scrolling in English and Indonesian, pass axe-core, and are shot to var/screenshots/
(account-*)."""

from __future__ import annotations

import random
import re
import secrets

import pytest
import requests
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .axe import assert_no_violations
from .driver import LONG
from .players_api import credential_state, make_player, play_rated_game, rated_once
from .test_players import choose_name, no_sideways_scroll

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]
LANGUAGES = {"en": "en-US", "id": "id-ID"}


def message(page: Page):
    return page.locator("[data-testid=message]")


def stored(page: Page) -> dict | None:
    return page.evaluate("JSON.parse(localStorage.getItem('spades.player'))")


def open_account(page: Page) -> None:
    page.click("[data-testid=account-link]")
    expect(page.locator("[data-testid=account]")).to_be_visible()


def show_code(page: Page, testid: str = "link-show") -> tuple[str, str]:
    """Device 1's "Show a code": the code as shown and the link's address; the QR code loaded as an image."""
    page.click(f"[data-testid={testid}]")
    code = page.locator("[data-testid=link-code]")
    expect(code).to_have_text(re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$"))
    expect(page.locator("[data-testid=link-expires]")).to_contain_text(re.compile(r"\d:\d\d"))
    qr = page.locator("[data-testid=link-qr]")
    assert qr.get_attribute("src").startswith("data:image/svg+xml;charset=utf-8,%3Csvg%20")
    expect(qr).to_have_js_property("complete", True)
    assert qr.evaluate("img => img.naturalWidth") > 0  # the SVG drew as an image
    assert page.locator("[data-testid=account-link] svg").count() == 0  # never markup in the page
    return code.inner_text(), page.locator("[data-testid=link-address]").input_value()


def sign_in(page: Page, code: str, device: str | None = None) -> None:
    """The lobby's "Sign in" with `code` (and this device's name): submitted."""
    page.click("[data-testid=sign-in]")
    expect(page.locator("[data-testid=signin-dialog]")).to_be_visible()
    page.fill("[data-testid=signin-code]", code)
    if device is not None:
        page.fill("[data-testid=signin-device]", device)
    page.click("[data-testid=signin-submit]")


def test_a_player_links_two_devices_signs_one_out_and_recovers_with_a_code(new_page, web):
    one = new_page(1280, 720)
    one.goto("/play")
    me = choose_name(one, f"Dora {secrets.token_hex(2)}")
    assert me["token"].startswith("spt_")
    open_account(one)
    expect(one.locator("[data-testid=account-name]")).to_have_text(me["name"])
    expect(one.locator("[data-testid=account-this]")).to_contain_text("holds the player key")
    expect(one.locator("[data-testid=devices-none]")).to_be_visible()
    code, address = show_code(one)
    assert address == f"{web}/play#link={code.replace('-', '')}"

    # device 2 types the code in small letters without its dash; its name defaults to the browser's
    two = new_page(375, 667)
    two.goto("/play")
    expect(two.locator("[data-testid=identity]")).to_contain_text("Playing without a name")
    two.click("[data-testid=sign-in]")
    expect(two.locator("[data-testid=signin-device]")).to_have_value("Chrome on Linux")
    two.click("[data-testid=signin-cancel]")
    sign_in(two, "zzzz-zzzz")
    expect(two.locator("[data-testid=signin-error]")).to_have_text(
        "That link code is wrong: check it, or make a new one."
    )
    two.fill("[data-testid=signin-code]", "12345")
    two.click("[data-testid=signin-submit]")
    expect(two.locator("[data-testid=signin-error]")).to_contain_text("A link code has 8 characters")
    two.fill("[data-testid=signin-code]", code.replace("-", "").lower())
    two.fill("[data-testid=signin-device]", "Dora's phone")
    two.click("[data-testid=signin-submit]")
    expect(two.locator("[data-testid=identity-name]")).to_have_text(me["name"])
    expect(message(two)).to_contain_text(f"Signed in as {me['name']} on this device.")
    phone = stored(two)
    assert phone["id"] == me["id"] and phone["token"].startswith("sps_") and phone["token"] != me["token"]
    # device 1's page sees the code used and lists the new device
    expect(one.locator("[data-testid=link-used]")).to_have_text("Dora's phone is signed in now.", timeout=LONG)
    expect(one.locator("[data-testid=devices] .device", has_text="Dora's phone")).to_be_visible()

    # device 3 opens the link: asked to confirm, the code pre-filled and gone from the address
    _, address = show_code(one, "link-show")
    three = new_page(1280, 720)
    three.goto(address)
    dialog = three.locator("[data-testid=signin-dialog]")
    expect(dialog).to_contain_text("Sign in with this link?")
    expect(three.locator("[data-testid=signin-code]")).to_have_value(re.compile(r"^[0-9A-Z]{4}-[0-9A-Z]{4}$"))
    assert "#link" not in three.url
    three.fill("[data-testid=signin-device]", "Work laptop")
    three.click("[data-testid=signin-submit]")
    expect(three.locator("[data-testid=identity-name]")).to_have_text(me["name"])

    # a rated game played with device 2's session is the player's: every device's profile shows it
    game = play_rated_game(web, phone["token"], random.Random(46))
    rated_once(web, game)
    for page in (two, one):
        page.goto("/play")
        page.click("[data-testid=profile-link]")
        expect(page.locator("[data-testid=profile-name]")).to_have_text(me["name"])
        expect(page.locator("[data-testid=stat-games] .stat-value")).to_have_text("1")
        expect(page.locator("[data-testid=rating-partnership]")).to_be_visible()
        expect(page.locator(f"[data-testid=game-{game}]")).to_be_visible()

    # device 1 lists its devices and signs device 2 out
    one.click("[data-testid=profile-account]")
    devices = one.locator("[data-testid=devices] .device")
    expect(devices).to_have_count(3)  # this browser (the player key), the phone, the laptop
    expect(one.locator("[data-testid=device-first] strong")).to_have_text("Your first device")
    expect(one.locator("[data-testid=device-first] .device-this")).to_have_text("This device")
    phone_row = devices.filter(has_text="Dora's phone")
    expect(phone_row).to_contain_text("Linked with a code")
    phone_row.locator("[data-testid=device-sign-out]").click()
    expect(one.locator("[data-testid=confirm-signout]")).to_contain_text("Sign out Dora's phone?")
    one.click("[data-testid=confirm-signout-signout]")
    expect(message(one)).to_contain_text("Dora's phone is signed out.")
    expect(devices).to_have_count(2)

    # device 2's next request: refused, said once, forgotten; it goes on without a name
    two.click("[data-testid=profile-account]")
    expect(message(two)).to_contain_text("This device was signed out")
    expect(two.locator("[data-testid=account-no-player]")).to_be_visible()
    assert stored(two) is None
    two.goto("/play")
    expect(two.locator("[data-testid=identity]")).to_contain_text("Playing without a name")
    expect(message(two)).to_be_hidden()
    # device 3 is still signed in
    three.reload()
    expect(three.locator("[data-testid=identity-name]")).to_have_text(me["name"])

    # recovery codes: shown once; one signs device 4 in; the same code is refused on device 5
    one.click("[data-testid=recovery-make]")
    shown = one.locator("[data-testid=recovery-codes] code")
    expect(shown).to_have_count(10)
    expect(one.locator("[data-testid=recovery-warning]")).to_contain_text("shown only this once")
    codes = shown.all_inner_texts()
    assert all(re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}", c) for c in codes)
    with one.expect_download() as download:
        one.click("[data-testid=recovery-download]")
    saved = download.value.path().read_text()
    assert all(c in saved for c in codes) and me["name"] in saved
    one.click("[data-testid=recovery-dialog-saved]")
    expect(one.locator("[data-testid=recovery-dialog]")).to_have_count(0)
    assert codes[0] not in one.content()  # shown once: gone from the page
    expect(one.locator("[data-testid=recovery-make]")).to_have_text("Make new codes")

    four = new_page(375, 667)
    four.goto("/play")
    sign_in(four, codes[0].lower(), "Spare tablet")
    expect(four.locator("[data-testid=identity-name]")).to_have_text(me["name"])
    five = new_page(375, 667)
    five.goto("/play")
    sign_in(five, codes[0])
    expect(five.locator("[data-testid=signin-error]")).to_have_text(
        "That recovery code was used already: try another one."
    )
    assert stored(five) is None
    one.reload()
    recovered = one.locator("[data-testid=devices] .device", has_text="Spare tablet")
    expect(recovered).to_contain_text("Signed in with a recovery code")
    for page in (one, two, three, four, five):
        assert page.js_errors == []


def test_sign_out_everywhere_else_keeps_this_device(new_page, web):
    made = make_player(web, f"Eve {secrets.token_hex(2)}")
    sessions = []
    for name in ("Old phone", "Desk"):
        code = requests.post(f"{web}/v1/players/me/link-codes", headers={"Player-Token": made["token"]}, timeout=30)
        signed = requests.post(
            f"{web}/v1/sessions", json={"link_code": code.json()["code"], "device_name": name}, timeout=30
        )
        sessions.append(signed.json()["token"])
    page = new_page(1280, 720)
    page.goto("/play")
    keep(page, made["player"], sessions[1])
    page.goto("/play#/account")
    page.reload()
    expect(page.locator("[data-testid=account-this]")).to_contain_text("session of its own")
    expect(page.locator("[data-testid=devices] .device")).to_have_count(2)
    page.click("[data-testid=devices-sign-out-others]")
    page.click("[data-testid=confirm-signout-signout]")
    expect(message(page)).to_contain_text("Every other device is signed out.")
    expect(page.locator("[data-testid=devices] .device")).to_have_count(1)
    expect(page.locator("[data-testid=devices] .device[data-current=true]")).to_contain_text("Desk")
    refused = requests.get(f"{web}/v1/players/me", headers={"Player-Token": sessions[0]}, timeout=30)
    assert (refused.status_code, refused.json()["code"]) == (401, "session_revoked")
    # this device signs itself out: the lobby says so, without a name
    page.click("[data-testid=device-sign-out-this]")
    expect(page.locator("[data-testid=confirm-signout]")).to_contain_text("a recovery code")
    page.click("[data-testid=confirm-signout-signout]")
    expect(page.locator("[data-testid=identity]")).to_contain_text("Playing without a name")
    expect(message(page)).to_contain_text("This device is signed out.")
    assert stored(page) is None and page.js_errors == []


def keep(page: Page, player: dict, token: str) -> None:
    """This browser plays as `player` with `token` (as identity.js keeps it)."""
    kept = {"id": player["id"], "name": player["name"], "kind": player["kind"], "token": token}
    page.evaluate("(p) => localStorage.setItem('spades.player', JSON.stringify(p))", kept)


def fits(page: Page, what: str) -> None:
    no_sideways_scroll(page, what)
    assert_no_violations(page, what)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_account_screens_fit_each_size_in_each_language(new_page, web, screenshots, lang):
    made = make_player(web, "Ada Lovelace" if lang == "en" else "Siti Rahma")
    token = made["token"]
    for name in ("Chrome on Android", "Safari on iPad"):
        code = requests.post(f"{web}/v1/players/me/link-codes", headers={"Player-Token": token}, timeout=30)
        requests.post(f"{web}/v1/sessions", json={"link_code": code.json()["code"], "device_name": name}, timeout=30)
    prefix = "account" if lang == "en" else "account-id"
    for width, height in SIZES:
        size = f"{width}x{height}"
        page = new_page(width, height, bypass_csp=True, locale=LANGUAGES[lang])
        page.goto("/play")
        keep(page, made["player"], token)
        page.goto("/play#/account")
        page.reload()
        try:
            page.click("[data-testid=link-show]")
        except PlaywrightTimeout:  # the page signed out: what the server says of the token
            raise AssertionError(credential_state(web, token)) from None
        expect(page.locator("[data-testid=link-qr]")).to_have_js_property("complete", True)
        expect(page.locator("[data-testid=devices] .device")).to_have_count(3)
        fits(page, f"the account page ({lang}, {size})")
        if width < 600:  # the panel at the top of a phone's screen
            page.locator("[data-testid=account-link]").evaluate("panel => panel.scrollIntoView()")
        page.screenshot(path=str(screenshots / f"{prefix}-link-{size}.png"))

        page.locator("[data-testid=account-devices]").evaluate("panel => panel.scrollIntoView()")
        page.screenshot(path=str(screenshots / f"{prefix}-devices-{size}.png"))

        page.click("[data-testid=recovery-make]")
        expect(page.locator("[data-testid=recovery-codes] code")).to_have_count(10)
        fits(page, f"the recovery codes ({lang}, {size})")
        page.screenshot(path=str(screenshots / f"{prefix}-recovery-{size}.png"))
        page.click("[data-testid=recovery-dialog-saved]")

        guest = new_page(width, height, bypass_csp=True, locale=LANGUAGES[lang])
        guest.goto("/play")
        guest.click("[data-testid=sign-in]")
        guest.fill("[data-testid=signin-code]", "7k3m-9qxr")
        fits(guest, f"the sign-in dialog ({lang}, {size})")
        guest.screenshot(path=str(screenshots / f"{prefix}-signin-{size}.png"))
        assert page.js_errors == [] and guest.js_errors == []
