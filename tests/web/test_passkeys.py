"""Passkeys in the browser, with Chromium's virtual authenticator (CDP ``WebAuthn``: ctap2, internal, resident keys,
user verification, presence simulated), each device a browser context of its own, the page at
``http://localhost:PORT`` (a browser refuses an IP address as the relying party's id).

Device 1 chooses a name and adds a passkey in Settings; its credential is copied to device 2's authenticator
(``WebAuthn.getCredentials`` / ``addCredential``: what a platform's sync does); device 2, which knows nothing,
signs in with "Sign in with a passkey" in the lobby and is the same player (name, profile, rating and games), on a
session of its own (``sps_…``), with the passkey listed and used; device 2 deletes it and its list is empty.  The
same in Indonesian, with no English word shown.  Every page fits 1280×720 and 375×667 without sideways scrolling and
axe-core finds nothing on those pages; screenshots go to var/screenshots/ (passkeys-*)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
import requests
from playwright.sync_api import Page, expect

from tests.conftest import run_gunicorn

from .axe import assert_no_violations
from .catalogues import english_words_in
from .test_players import no_sideways_scroll

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


@pytest.fixture(scope="module")
def site(redis_db1, tmp_path_factory) -> Iterator[str]:
    """An API keeping players (its own records database), reached as http://localhost:PORT."""
    data = tmp_path_factory.mktemp("passkeys")
    with run_gunicorn({"AI_ENABLED": "0", "DATA_DIR": str(data), "PLAYER_CREATE_RATE_LIMIT": ""}) as base:
        yield base.replace("127.0.0.1", "localhost")


@pytest.fixture
def device(browser, site) -> Iterator:
    """Devices: each a browser context with a virtual authenticator of its own; ``(page, cdp, authenticator id)``."""
    contexts = []

    def make(width: int = 1280, height: int = 720, locale: str = "en-US"):
        context = browser.new_context(
            locale=locale, viewport={"width": width, "height": height}, base_url=site, bypass_csp=True
        )  # fmt: skip  (bypass_csp: axe-core's inline script)
        context.set_default_timeout(60_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable", {"enableUI": False})
        authenticator = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})["authenticatorId"]
        return page, cdp, authenticator

    yield make
    for context in contexts:
        context.close()


def stored_player(page: Page) -> dict | None:
    return page.evaluate("JSON.parse(localStorage.getItem('spades.player'))")


def choose_name(page: Page, name: str) -> dict:
    page.goto("/play")
    page.click("[data-testid=choose-name]")
    page.fill("[data-testid=player-name]", name)
    page.click("[data-testid=player-name-save]")
    expect(page.locator("[data-testid=identity-name]")).to_have_text(name)
    return stored_player(page)


def open_settings(page: Page) -> None:
    page.click("[data-testid=settings-button]")
    expect(page.locator("[data-testid=settings-passkeys]")).to_be_visible()


def shoot(page: Page, what: str, screenshots, name: str, region: str, language: str = "en") -> None:
    """At each size: nothing scrolls sideways, axe finds nothing in ``region``; a screenshot."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.locator(region).scroll_into_view_if_needed()
        no_sideways_scroll(page, f"{what} at {width}x{height}")
        assert_no_violations(page, f"{what} at {width}x{height}")
        page.screenshot(path=str(screenshots / f"{name}-{width}x{height}.png"))
    assert page.js_errors == [], page.js_errors
    if language != "en":
        assert english_words_in(page.locator(region).inner_text()) == set()


def test_a_passkey_made_on_one_device_signs_another_in_as_the_same_player(device, site, screenshots):
    phone, phone_cdp, phone_key = device()
    name = f"Pax {secrets.token_hex(2)}"
    first = choose_name(phone, name)
    open_settings(phone)
    expect(phone.locator("[data-testid=passkey-none]")).to_be_visible()
    phone.click("[data-testid=passkey-add]")
    expect(phone.locator("[data-testid=passkey]")).to_have_count(1)
    expect(phone.locator("[data-testid=passkey]")).to_contain_text("not used yet")
    shoot(phone, "Settings' passkeys", screenshots, "passkeys-settings", "[data-testid=settings-passkeys]")

    made = phone_cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone_key})["credentials"]
    assert len(made) == 1 and made[0]["isResidentCredential"] and made[0]["rpId"] == "localhost"
    laptop, laptop_cdp, laptop_key = device()
    laptop_cdp.send("WebAuthn.addCredential", {"authenticatorId": laptop_key, "credential": made[0]})  # synced

    laptop.goto("/play")
    expect(laptop.locator("[data-testid=identity]")).to_contain_text("Playing without a name")
    laptop.click("[data-testid=sign-in]")  # the sign-in dialog: a code, or a passkey
    expect(laptop.locator("[data-testid=signin-passkey]")).to_have_text("Sign in with a passkey")
    shoot(laptop, "The sign-in dialog", screenshots, "passkeys-signin", "[data-testid=signin-passkey]")
    laptop.click("[data-testid=signin-passkey]")
    expect(laptop.locator("[data-testid=identity-name]")).to_have_text(name)
    expect(laptop.locator("#message")).to_contain_text(f"Signed in as {name} on this device")
    second = stored_player(laptop)
    assert second["id"] == first["id"] and second["token"].startswith("sps_") and first["token"].startswith("spt_")

    me = requests.get(f"{site}/v1/players/me", headers={"Player-Token": second["token"]}, timeout=30).json()
    assert (me["id"], me["name"]) == (first["id"], name)
    sessions = requests.get(f"{site}/v1/players/me/sessions", headers={"Player-Token": second["token"]}, timeout=30)
    assert [(s["via"], s["current"]) for s in sessions.json()["sessions"]] == [("passkey", True)]
    laptop.click("[data-testid=profile-link]")  # the same profile: its name, rating and games
    expect(laptop.locator("h1")).to_contain_text(name)
    assert first["id"] in laptop.url
    profile = requests.get(f"{site}/v1/players/{first['id']}", timeout=30).json()
    assert profile["stats"]["games"] == me["stats"]["games"] and profile["ratings"] == me["ratings"]

    laptop.goto("/play")
    open_settings(laptop)
    expect(laptop.locator("[data-testid=passkey]")).to_contain_text("last used")
    laptop.click("[data-testid=passkey-delete]")
    expect(laptop.locator("[data-testid=passkey-none]")).to_be_visible()
    after = phone_cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone_key})["credentials"]
    assert after[0]["signCount"] == made[0]["signCount"]  # the phone's own copy: never used
    assert laptop.js_errors == [] and phone.js_errors == []


def test_the_passkeys_in_indonesian(device, screenshots):
    phone, phone_cdp, phone_key = device(locale="id-ID")
    name = f"Budi {secrets.token_hex(2)}"
    phone.goto("/play")
    phone.click("[data-testid=choose-name]")
    phone.fill("[data-testid=player-name]", name)
    phone.click("[data-testid=player-name-save]")
    expect(phone.locator("[data-testid=identity-name]")).to_have_text(name)
    open_settings(phone)
    phone.click("[data-testid=passkey-add]")
    expect(phone.locator("[data-testid=passkey]")).to_contain_text("belum pernah dipakai")
    shoot(phone, "Settings' passkeys", screenshots, "passkeys-id-settings", "[data-testid=settings-passkeys]", "id")

    tablet, tablet_cdp, tablet_key = device(locale="id-ID")
    made = phone_cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone_key})["credentials"]
    tablet_cdp.send("WebAuthn.addCredential", {"authenticatorId": tablet_key, "credential": made[0]})
    tablet.goto("/play")
    tablet.click("[data-testid=sign-in]")
    expect(tablet.locator("[data-testid=signin-passkey]")).to_have_text("Masuk dengan passkey")
    shoot(tablet, "The sign-in dialog", screenshots, "passkeys-id-signin", "[data-testid=signin-passkey]", "id")
    tablet.click("[data-testid=signin-passkey]")
    expect(tablet.locator("[data-testid=identity-name]")).to_have_text(name)
    expect(tablet.locator("#message")).to_contain_text(f"Masuk sebagai {name}")
