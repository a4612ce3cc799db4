"""/play installed and offline, in Debian's chromium against a real API serving a copy of the client
(WEB_ROOT) that a test changes: Chromium finds the page installable; its service worker keeps the
client's own files and never an API answer; with the network cut the page shows its own reconnecting
state and recovers when the network returns, without a reload; a reload with no network still opens
the client, and a game's page shows the table this device last saw for its seat (or says the game opens
once back), reconnecting, then the live table once the network returns; a changed client runs after a
reload and replaces the kept one, and an open page takes it at a natural point (going on from a round's
summary, the next move to another page) and says so. Waits are on events and on what the page shows, never
a sleep."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from services.web import WEB_ROOT
from tests.conftest import run_gunicorn

from .catalogues import catalogue, english_words_in
from .conftest import CHROMIUM
from .driver import (
    BID,
    LONG,
    SUMMARY,
    Player,
    click_card,
    hand,
    outside,
    play_now,
    seat_token,
    seated_game,
    wait_version_above,
)

pytestmark = pytest.mark.integration

# the page under the service worker's control (a first visit is controlled once the worker activates
# and claims it: an event, awaited in the page)
CONTROLLED = """() => navigator.serviceWorker.controller ? navigator.serviceWorker.controller.state
  : new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange",
      () => resolve(navigator.serviceWorker.controller.state), { once: true }))"""
KEPT = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    kept[name] = (await cache.keys()).map((request) => new URL(request.url).pathname + new URL(request.url).search);
  }
  return kept;
}"""

# resolves once `name` is the one cache left: the new worker reached "activated", which it does only after
# its activate step deleted the old caches (it already controls the page from the start of that step)
ONLY_CACHE = """(name) => new Promise((resolve) => {
  const check = async () => {
    const names = await caches.keys();
    if (names.length === 1 && names[0] === name) resolve(names);
  };
  const watch = (worker) => worker && worker.addEventListener("statechange", check);
  navigator.serviceWorker.getRegistration().then((registration) => {
    [registration.installing, registration.waiting, registration.active].forEach(watch);
    registration.addEventListener("updatefound", () => watch(registration.installing));
    check();
  });
})"""


KEPT_VIEWS = """() => Object.keys(localStorage).filter((key) => key.startsWith("spades.view.")).sort()"""


class Client:
    def __init__(self, base: str, root: Path) -> None:
        self.base = base
        self.root = root


@pytest.fixture(scope="module")
def client_copy(tmp_path_factory, redis_db1, ai_worker) -> Iterator[Client]:
    """A real API serving a copy of the client's files (WEB_ROOT) that a test may change."""
    root = tmp_path_factory.mktemp("web") / "static"
    shutil.copytree(WEB_ROOT, root)
    with run_gunicorn({"WEB_ROOT": str(root)}) as base:
        yield Client(base, root)


def build_of(base: str) -> str:
    """The client's build id as the server computes it (embedded in the worker it serves)."""
    source = requests.get(f"{base}/play/sw.js", timeout=30).text
    return json.loads(re.search(r"const BUILD = (\"[^\"]*\");", source).group(1))


def test_chromium_finds_play_installable(browser, client_copy, tmp_path):
    """Page.getInstallabilityErrors reports none, and the manifest parses without errors. Chromium does not
    install from an incognito profile (a plain Playwright context is one), so this runs in a profile on disk."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=["--no-sandbox"], base_url=client_copy.base
    )
    try:
        page = context.new_page()
        page.goto("/play")
        assert page.evaluate(CONTROLLED) in ("activating", "activated")
        scope = page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.scope)")
        assert scope == f"{client_copy.base}/play"
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == f"{client_copy.base}/play/manifest.webmanifest" and manifest["errors"] == []
        assert manifest["manifest"]["display"] == "kStandalone"
        assert manifest["manifest"]["startUrl"] == manifest["manifest"]["scope"] == f"{client_copy.base}/play"
    finally:
        context.close()


def test_a_game_shows_reconnecting_while_the_network_is_gone_and_recovers(new_page, client_copy, screenshots):
    """The network cut mid-game: the top bar says the page is reconnecting (and the table stays); back, the
    feed is live again and a move goes through, in the same page. No API answer came from the worker or
    was kept by it. A reload with no network still opens the client (the table kept on this device), which
    loads the live game once back."""
    page = new_page(1280, 720, base=client_copy.base)
    api_answers = []
    page.on("response", lambda response: api_answers.append(response) if "/v1/" in response.url else None)
    play_now(page)
    assert page.evaluate(CONTROLLED) in ("activating", "activated")
    connection = page.locator("[data-testid=connection]")
    expect(connection).to_have_attribute("data-state", "live")
    page.evaluate("window.spadesSamePage = true")  # gone with a reload

    page.context.set_offline(True)
    expect(connection).to_have_attribute("data-state", "reconnecting")
    expect(connection).to_contain_text("reconnecting")
    expect(page.locator("[data-testid=table]")).to_be_visible()
    page.screenshot(path=str(screenshots / "offline-reconnecting-1280x720.png"))
    page.set_viewport_size({"width": 375, "height": 667})
    expect(connection).to_be_in_viewport()
    page.screenshot(path=str(screenshots / "offline-reconnecting-375x667.png"))

    page.context.set_offline(False)
    expect(connection).to_have_attribute("data-state", "live")
    expect(connection).not_to_contain_text("reconnecting")
    assert page.evaluate("window.spadesSamePage") is True, "recovered without a reload"
    player = Player(page)
    version = int(page.locator("[data-testid=table]").get_attribute("data-version"))
    assert player.step() in ("bid", "card", "summary", "over")
    wait_version_above(page, version)  # a move made and shown after the network came back

    assert api_answers and not [r.url for r in api_answers if r.from_service_worker]
    kept = page.evaluate(KEPT)
    assert list(kept) == [f"spades-play-{build_of(client_copy.base)}"]
    paths = next(iter(kept.values()))
    assert "/play" in paths and "/play/js/transport.js" in paths
    assert [p for p in paths if not (p == "/play" or p.startswith("/play/"))] == [], "only the client's own files"

    page.set_viewport_size({"width": 1280, "height": 720})
    page.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.status == 200 and response.from_service_worker
    expect(page.locator("[data-testid=offline-status]")).to_have_text("No connection — reconnecting…")
    page.evaluate("window.spadesSamePage = true")
    page.context.set_offline(False)
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-kept", "no", timeout=LONG)
    expect(connection).to_have_attribute("data-state", "live")
    assert page.evaluate("window.spadesSamePage") is True, "the game opened once back, without a reload"
    assert not [r.url for r in api_answers if r.from_service_worker]
    assert page.js_errors == []


def test_the_moves_wait_for_the_connection_and_come_back_with_it(new_page, client_copy, screenshots):
    """The network cut at your turn to bid: the bid panel stays with every bid disabled and the turn line says
    why; back, the bids are offered again by themselves and one goes through. Cut again at your turn to play:
    no card is raised, and one clicked says why and is never sent; back, a card is played. Same page
    throughout, and no move answered "No connection". The waiting bid panel is shot at both sizes
    (offline-move-waits-*)."""
    page = new_page(1280, 720, base=client_copy.base)
    moves = []
    page.on("request", lambda r: moves.append(r.url) if re.search(r"/v1/games/[^/]+/(bids|plays)$", r.url) else None)
    play_now(page)
    table, turn = page.locator("[data-testid=table]"), page.locator("[data-testid=turn]")
    waits = "Reconnecting… Your move waits until the connection is back."
    player = Player(page)
    expect(page.locator(BID).first).to_be_visible(timeout=LONG)
    page.evaluate("window.spadesSamePage = true")

    page.context.set_offline(True)
    expect(table).to_have_attribute("data-offline", "yes")
    bids = page.locator("[data-testid=bidding] .bid-buttons button")
    expect(bids.first).to_be_disabled()
    assert bids.count() > 1 and bids.evaluate_all("els => els.every((b) => b.disabled)")
    expect(turn).to_have_text(waits)
    expect(page.locator("[data-testid=hint-button]")).to_have_count(0)
    page.screenshot(path=str(screenshots / "offline-move-waits-1280x720.png"))
    page.set_viewport_size({"width": 375, "height": 667})
    expect(turn).to_be_in_viewport()
    page.screenshot(path=str(screenshots / "offline-move-waits-375x667.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.context.set_offline(False)
    expect(table).to_have_attribute("data-offline", "no")
    expect(page.locator(BID).first).to_be_enabled()
    expect(turn).not_to_have_text(waits)
    with page.expect_request(lambda r: r.url.endswith("/bids")):
        assert player.step() == "bid"

    while player.state() != "card":
        player.step()
    sent = len(moves)
    page.context.set_offline(True)
    expect(table).to_have_attribute("data-offline", "yes")
    expect(page.locator("[data-testid=hand].my-turn")).to_have_count(0)
    expect(turn).to_have_text(waits)
    click_card(page.locator("[data-testid=hand] [data-card]").first)
    expect(page.locator("[data-testid=toast]")).to_have_text(waits)
    page.context.set_offline(False)
    expect(table).to_have_attribute("data-offline", "no")
    version = int(table.get_attribute("data-version"))
    with page.expect_request(lambda r: r.url.endswith("/plays")):
        assert player.step() == "card"
    wait_version_above(page, version)
    assert len(moves) == sent + 1, "the card clicked offline was never sent"
    expect(page.locator("[data-testid=message]")).not_to_contain_text("No connection")
    assert page.evaluate("window.spadesSamePage") is True, "the controls came back without a reload"


def test_a_reload_with_no_network_opens_the_lobby_from_the_worker(new_page, client_copy, screenshots):
    """In Indonesian: the client from the worker's cache (not a browser error), its reconnecting state in
    the page's language; the lobby fills in once the network is back, without a reload."""
    page = new_page(375, 667, base=client_copy.base, locale="id-ID")
    page.goto("/play")
    assert page.evaluate(CONTROLLED) in ("activating", "activated")
    expect(page.locator("[data-testid=level-easy]")).to_be_visible()
    page.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.status == 200 and response.from_service_worker
    status = page.locator("[data-testid=offline-status]")
    expect(status).to_have_text("Koneksi terputus — menyambung ulang…")
    assert english_words_in(page.locator("header").inner_text()) == set()
    assert page.evaluate("document.documentElement.lang") == "id"
    page.screenshot(path=str(screenshots / "offline-lobby-id-375x667.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.screenshot(path=str(screenshots / "offline-lobby-id-1280x720.png"))
    page.evaluate("window.spadesSamePage = true")
    page.context.set_offline(False)
    expect(status).to_have_count(0)
    expect(page.locator("[data-testid=level-easy]")).to_be_visible()
    assert page.evaluate("window.spadesSamePage") is True
    assert page.js_errors == []


@pytest.mark.parametrize("locale", ["en-US", "id-ID"])
def test_a_game_reloaded_with_no_network_shows_the_table_last_seen_then_the_live_one(
    new_page, client_copy, screenshots, locale
):
    """Your turn to bid, then a reload with no network: the table this device last saw for its seat (your
    hand, the same version) with the turn line saying it is reconnecting, in the page's language, and no
    move offered; not "Can't open this game". Only that seat's view of that game is kept. The network back,
    the live table returns in the same page and your bid can be made."""
    lang = locale[:2]
    words = catalogue(lang)
    page = new_page(1280, 720, base=client_copy.base, locale=locale)
    game_id = play_now(page)
    assert page.evaluate(CONTROLLED) in ("activating", "activated")
    table = page.locator("[data-testid=table]")
    expect(page.locator(BID).first).to_be_visible(timeout=LONG)  # the view read at your turn: the one kept
    cards, version, seat = hand(page), table.get_attribute("data-version"), table.get_attribute("data-you")
    assert len(cards) == 13 and seat in ("0", "1", "2", "3")
    assert page.evaluate(KEPT_VIEWS) == [f"spades.view.{game_id}.{seat}"]

    page.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    connection = page.locator("[data-testid=connection]")
    expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(len(cards))
    assert hand(page) == cards
    expect(page.get_by_text(words["round.game.cantOpen"])).to_have_count(0)
    expect(page.locator("[data-testid=turn]")).to_have_text(words["offline.table"])
    expect(connection).to_have_attribute("data-state", "reconnecting")
    expect(table).to_have_attribute("data-kept", "yes")
    assert (table.get_attribute("data-version"), table.get_attribute("data-you")) == (version, seat)
    expect(page.locator(BID)).to_have_count(0)
    page.screenshot(path=str(screenshots / f"offline-kept-table-{lang}-1280x720.png"))
    page.set_viewport_size({"width": 375, "height": 667})
    expect(page.locator("[data-testid=turn]")).to_be_in_viewport()
    assert outside(page, ".topbar button") == [], "the reconnecting sign leaves the bar's buttons room"
    page.screenshot(path=str(screenshots / f"offline-kept-table-{lang}-375x667.png"))
    page.evaluate("window.spadesSamePage = true")

    page.context.set_offline(False)
    expect(table).to_have_attribute("data-kept", "no")
    expect(connection).to_have_attribute("data-state", "live")
    expect(page.locator(BID).first).to_be_visible()
    assert hand(page) == cards
    assert page.evaluate("window.spadesSamePage") is True, "the live table came back without a reload"
    assert page.js_errors == []


def test_a_game_never_opened_here_says_it_opens_once_back(new_page, client_copy):
    """A seat this device holds in a game it never showed (nothing kept), opened with no network: the page
    says plainly the device is offline and the game opens once back, not "Can't open this game"; back, the
    table opens by itself with the seat's hand."""
    seats = [{"type": "human"}] + [{"type": "ai", "level": "easy"}] * 3
    created = requests.post(f"{client_copy.base}/v1/games", json={"seats": seats}, timeout=30)
    assert created.status_code == 201, created.text
    game = created.json()
    page = new_page(1280, 720, base=client_copy.base)
    page.goto("/play?pace=0")
    assert page.evaluate(CONTROLLED) in ("activating", "activated")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`spades.seat.${id}`, JSON.stringify({seat: 0, token, since: Date.now()}))",
        [game["game_id"], game["seats"][0]["token"]],
    )
    page.context.set_offline(True)
    page.goto(f"/play?pace=0&game={game['game_id']}")
    offline = page.locator("[data-testid=game-offline]")
    expect(offline).to_contain_text("No connection")
    expect(offline).to_contain_text("The game opens by itself as soon as the connection is back.")
    expect(page.get_by_text("Can't open this game")).to_have_count(0)
    expect(page.locator("[data-testid=connection]")).to_have_attribute("data-state", "reconnecting")

    page.context.set_offline(False)
    table = page.locator("[data-testid=table]")
    expect(table).to_have_attribute("data-you", "0")
    expect(table).to_have_attribute("data-kept", "no")
    expect(page.locator("[data-testid=hand] [data-card]").first).to_be_visible()
    expect(offline).to_have_count(0)
    assert page.js_errors == []


def test_a_new_version_runs_after_a_reload_and_replaces_the_kept_one(new_page, client_copy):
    """A changed file (here English's word for Settings) in the served copy: the next start runs it, the
    browser installs the worker of the new build, which keeps the new files in place of the old ones: a
    start with no network then runs the new version too."""
    page = new_page(1280, 720, base=client_copy.base)
    page.goto("/play")
    assert page.evaluate(CONTROLLED) in ("activating", "activated")
    settings = page.locator("#settings-button .bar-long")
    expect(settings).to_have_text("Settings")
    old_build = build_of(client_copy.base)
    assert list(page.evaluate(KEPT)) == [f"spades-play-{old_build}"]
    english = client_copy.root / "js" / "locales" / "en.js"
    before = english.read_text()
    english.write_text(before.replace('"app.settings": "Settings"', '"app.settings": "Settings (new)"'))
    try:
        new_build = build_of(client_copy.base)
        assert new_build != old_build
        page.reload()
        expect(settings).to_have_text("Settings (new)")
        assert page.evaluate(ONLY_CACHE, f"spades-play-{new_build}") == [f"spades-play-{new_build}"]
        page.context.set_offline(True)
        page.reload()
        expect(settings).to_have_text("Settings (new)")
        expect(page.locator("[data-testid=offline-status]")).to_be_visible()
    finally:
        english.write_text(before)
    assert page.js_errors == []


@contextmanager
def changed_settings_word(client: Client) -> Iterator[str]:
    """The served copy's English word for Settings changed (a new client build) for the block; the new word."""
    english = client.root / "js" / "locales" / "en.js"
    before = english.read_text()
    english.write_text(before.replace('"app.settings": "Settings"', '"app.settings": "Settings (new)"'))
    try:
        yield "Settings (new)"
    finally:
        english.write_text(before)


# the page's own check (release.js), as its 10-minute timer runs it: the same module instance the page uses
CHECK_NOW = "() => import('/play/js/release.js').then((release) => release.checkForUpdate())"


@pytest.mark.parametrize(("width", "height", "lang"), [(1280, 720, "en"), (375, 667, "id")])
def test_a_game_takes_a_new_version_between_rounds_and_says_so(new_page, client_copy, screenshots, width, height, lang):
    """The client changes on the server while a person plays: the page runs its own files to the round's end
    (nothing reloads mid-round), the round's summary says a new version opens when they go on, and going on
    loads it: the same game and seat, the next round's hand, and a note that the page was updated."""
    words = catalogue(lang)
    page = new_page(width, height, base=client_copy.base, locale="id-ID" if lang == "id" else "en-US")
    game_id = seated_game(page, client_copy.base, {"preset": "partnership"}, seed=48)
    token = seat_token(page, game_id)
    player = Player(page)
    assert player.step() == "bid"
    page.evaluate("() => { window.startedHere = true; }")  # gone with this document, at a reload
    with changed_settings_word(client_copy):
        while player.state() != "summary":
            player.step()
        assert page.evaluate("() => window.startedHere") is True  # the round ran on the files it started with
        note = page.locator(f"{SUMMARY} [data-testid=update-note]")
        expect(note).to_be_visible()
        expect(note).to_have_text(words["update.atNextRound"])
        assert outside(page, f"{SUMMARY} [data-testid=update-note], {SUMMARY} [data-testid=summary-next]") == []
        page.screenshot(path=screenshots / f"update-waiting-{width}x{height}-{lang}.png")
        with page.expect_event("load"):
            page.click("[data-testid=summary-next]")
        expect(page.locator("[data-testid=toast]")).to_have_text(words["update.taken"])
        assert page.evaluate(CHECK_NOW) is False  # the page runs the files the server has now
        assert page.evaluate("() => window.startedHere") is None
        assert f"game={game_id}" in page.url and seat_token(page, game_id) == token
        assert player.state() == "bid" and len(hand(page)) == 13  # round 2's hand, at the seat's bid
        page.screenshot(path=screenshots / f"update-taken-{width}x{height}-{lang}.png")
        assert player.step() == "bid"
    assert page.js_errors == []


def test_the_lobby_takes_a_new_version_at_the_next_page(new_page, client_copy):
    """In the lobby the next move to another page is the natural point: the page found the newer client,
    changes nothing while it stays, and the next move loads it from the server."""
    page = new_page(375, 667, base=client_copy.base)
    page.goto("/play")
    expect(page.locator("[data-testid=play-now]")).to_be_visible()
    with changed_settings_word(client_copy):
        assert page.evaluate(CHECK_NOW) is True
        expect(page.locator("html[data-update=waiting]")).to_have_count(1)
        expect(page.locator("#settings-button .bar-long")).to_have_text("Settings")
        with page.expect_event("load"):
            page.click(".brand")
        expect(page.locator("#settings-button .bar-long")).to_have_text("Settings (new)")
        expect(page.locator("[data-testid=toast]")).to_have_text("Spades is up to date: this is its new version.")
        assert page.evaluate(CHECK_NOW) is False  # the page now runs what the server has
    assert page.js_errors == []
