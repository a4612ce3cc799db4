"""Players in the browser, on the real stack (gunicorn, the AI worker, the records database and its
rating of finished games): a person chooses a name, plays a short game against computers (rated),
sees each player's rating change at the end, opens their profile (ratings, stats, the rating chart
and its figures, the game), steps through the game's replay (every hand and as one seat saw it;
buttons, keys, slider and round picker) and the leaderboards (their rating still provisional, so their own
place says so and no row is theirs; the rivals and the computer levels, seasoned in the records database, listed).
Every page fits 1280×720 and 375×667 without sideways scrolling and axe-core finds nothing on it;
every request the pages make is a documented /v1 operation. People at a table see each other's
names; a name can be changed in Settings and the token the browser keeps goes only in
Player-Token. Screenshots of the profile, the replay and a leaderboard at both sizes go to
var/screenshots/ (players-*)."""

from __future__ import annotations

import random
import secrets
import threading
from urllib.parse import urlsplit

import pytest
import requests
from playwright.sync_api import Page, expect

from .axe import assert_no_violations
from .driver import LONG, Player, assert_fits, create_game
from .players_api import make_player, play_rated_game, rated_once, season
from .recorder import Recorder, check_exchange

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]
# others on the leaderboard: each plays one rated game through the API while the page plays its own
RIVALS = ["Queen of Spades", "Nil Ninja", "Bag Boss", "Big Joker", "Trump Card", "Set Breaker", "Blind Bidder"]
MORE_GAMES = 3  # the page's player plays these through the API too, so the chart has a line to draw


def others_play(base: str, token: str, done: list[str], failed: list[BaseException], rivals: list[str]) -> None:
    """The rivals' games (their ids in `rivals`), then the page's player's further games (its ids in `done`)."""
    rng = random.Random(30)
    try:
        for name in RIVALS:
            rival = make_player(base, name)
            rivals.append(rival["player"]["id"])
            rated_once(base, play_rated_game(base, rival["token"], rng))
        for _ in range(MORE_GAMES):
            done.append(play_rated_game(base, token, rng, partner="hard"))
            rated_once(base, done[-1])
    except BaseException as error:  # re-raised in the test
        failed.append(error)


def choose_name(page: Page, name: str) -> dict:
    """The lobby's "Choose a name" (with a few letters more when a test before took the name): the player
    this browser keeps ({id, name, kind, token})."""
    page.click("[data-testid=choose-name]")
    page.fill("[data-testid=player-name]", name)
    page.click("[data-testid=player-name-save]")
    page.locator("[data-testid=identity-name], [data-testid=player-name-error]:not(:empty)").first.wait_for()
    if page.locator("[data-testid=player-name-error]:not(:empty)").count():
        expect(page.locator("[data-testid=player-name-error]")).to_contain_text("Someone already plays under that name")
        name = f"{name[:18]} {secrets.token_hex(2)}"
        page.fill("[data-testid=player-name]", name)
        page.click("[data-testid=player-name-save]")
    expect(page.locator("[data-testid=identity-name]")).to_have_text(name)
    return page.evaluate("JSON.parse(localStorage.getItem('spades.player'))")


def no_sideways_scroll(page: Page, what: str) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, document.body.scrollWidth, innerWidth]")
    assert max(width[:2]) <= width[2], f"{what} scrolls sideways: {width}"


def at_each_size(page: Page, what: str, ready: str, shot: str, screenshots, prepare=None) -> None:
    """At 1280×720 and 375×667 (read again, as a page opened there; then `prepare(page)`): fits the width,
    passes axe, is shot."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        expect(page.locator(ready).first).to_be_visible(timeout=LONG)
        if prepare:
            prepare(page)
        no_sideways_scroll(page, f"{what} at {width}×{height}")
        assert_no_violations(page, f"{what} at {width}×{height}")
        page.screenshot(path=str(screenshots / f"players-{shot}-{width}x{height}.png"))
    page.set_viewport_size({"width": 1280, "height": 720})


def test_a_named_player_plays_a_rated_game_then_sees_profile_replay_and_leaderboard(new_page, web, screenshots):
    page = new_page(1280, 720, bypass_csp=True)
    recorder = Recorder(page)
    page.goto("/play?pace=0")
    expect(page.locator("[data-testid=identity]")).to_contain_text("Playing without a name")
    assert_no_violations(page, "lobby without a name")
    page.click("[data-testid=choose-name]")
    page.fill("[data-testid=player-name]", "x")
    page.click("[data-testid=player-name-save]")
    expect(page.locator("[data-testid=player-name-error]")).to_contain_text("2 to 24 characters")
    assert_no_violations(page, "the name dialog with a refused name")
    page.click("[data-testid=player-name-cancel]")
    me = choose_name(page, "Ada Lovelace")
    name = me["name"]
    assert me["name"] == name and me["id"].startswith("p_") and me["token"].startswith("spt_")
    more: list[str] = []
    failed: list[BaseException] = []
    rivals: list[str] = []
    others = threading.Thread(target=others_play, args=(web, me["token"], more, failed, rivals), daemon=True)
    others.start()

    # a short game against three computers without hints: the seat is the player's, the game rated
    game_id = create_game(page, ["you", "ai:easy", "ai:hard", "ai:easy"], win_score=50, lose_score=-50, hints=False)
    view = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()
    assert view["seats"][0]["player"] == {"id": me["id"], "name": name, "kind": "person"}
    assert view["seats"][1]["player"]["kind"] == "computer"
    expect(page.locator("[data-testid=seat-1] .seat-kind")).to_have_text("Computer · easy")
    Player(page).play_to_end()
    changes = page.locator("[data-testid=rating-changes]")
    expect(changes).to_be_visible(timeout=LONG)
    mine = page.locator("[data-testid=rating-change-0]")
    expect(mine).to_contain_text(name)
    expect(page.locator("[data-testid=rating-changes] tbody tr")).to_have_count(4)
    record = requests.get(f"{web}/v1/games/{game_id}/record", timeout=30).json()
    change = next(r for r in record["ratings"] if r["seat"] == 0)
    assert mine.get_attribute("data-change") == str(change["change"])
    expect(mine.locator(".rc-before")).to_have_text(str(change["before"]))
    assert change["provisional"]  # a first game: "1530?", and screen readers hear "provisional"
    expect(mine.locator("td strong")).to_have_text(f"{change['after']}? (provisional)")
    assert mine.locator("td strong").get_attribute("title").startswith("Provisional: fewer than 30 rated games")
    assert_no_violations(page, "game over with rating changes")
    next_steps = {"[data-testid=winner]": 1, "[data-testid=rematch-button]": 1, "[data-testid=new-game]": 1}
    for width, height in [(1280, 720), (1366, 768), (375, 667), (667, 375)]:
        page.set_viewport_size({"width": width, "height": height})
        expect(changes).to_be_attached()
        assert_fits(page, {**next_steps, "[data-testid=to-lobby]": 1})  # what to do next, in sight at every size
        page.screenshot(path=str(screenshots / f"players-game-over-{width}x{height}.png"))
    no_sideways_scroll(page, "the final scores on a phone")
    assert_no_violations(page, "game over with rating changes on a phone")
    page.set_viewport_size({"width": 1280, "height": 720})
    others.join(timeout=900)
    assert not others.is_alive() and not failed, failed
    games = 1 + MORE_GAMES
    now = requests.get(f"{web}/v1/players/{me['id']}", timeout=30).json()["ratings"]["partnership"]

    # the profile, from the lobby
    page.goto("/play?pace=0")
    page.click("[data-testid=profile-link]")
    expect(page.locator("[data-testid=profile-name]")).to_have_text(name)
    expect(page.locator("[data-testid=rating-partnership]")).to_contain_text(str(now["rating"]))
    expect(page.locator("[data-testid=stat-games] .stat-value")).to_have_text(str(games))
    chart = page.locator("[data-testid=rating-chart]")
    expect(chart).to_have_attribute("data-points", str(games + 1))  # the start and each game
    assert page.locator("[data-testid=rating-chart] title").text_content().endswith("rating over time")
    described = page.locator("[data-testid=rating-chart] desc").text_content()
    assert f"to {now['rating']} over {games} rated games" in described, described
    page.click(".chart-figures summary")
    expect(page.locator("[data-testid=chart-table] tbody tr")).to_have_count(games + 1)
    expect(page.locator("[data-testid=games] .game-item")).to_have_count(games)
    expect(page.locator(f"[data-testid=game-{game_id}]")).to_contain_text("Partnership")
    at_each_size(page, "the profile", "[data-testid=rating-chart]", "profile", screenshots)
    page.set_viewport_size({"width": 375, "height": 667})  # a phone scrolled down to the chart
    page.reload()
    page.locator(".profile-chart").evaluate("e => e.scrollIntoView({block: 'start'})")
    page.screenshot(path=str(screenshots / "players-profile-chart-375x667.png"))
    page.set_viewport_size({"width": 1280, "height": 720})

    # the replay, from the profile's game: as the player's seat saw it, then every hand
    page.click(f"[data-testid=replay-{game_id}]")
    table = page.locator("[data-testid=replay-table]")
    expect(table).to_have_attribute("data-step", "0")
    assert page.evaluate("location.hash") == f"#/replay/{game_id}?seat=0"
    expect(page.locator("[data-testid=replay-move]")).to_contain_text("deals")
    expect(page.locator("[data-testid=replay-own-hand]")).to_have_attribute("data-count", "13")
    for step in range(1, 5):  # the four bids
        page.click("[data-testid=replay-next]")
        expect(table).to_have_attribute("data-step", str(step))
        expect(page.locator("[data-testid=replay-move]")).to_contain_text(" bids ")
    page.keyboard.press("ArrowRight")  # the first card
    expect(table).to_have_attribute("data-step", "5")
    expect(page.locator("[data-testid=replay-move]")).to_contain_text(" plays the ")
    expect(page.locator("[data-testid=trick] .card")).to_have_count(1)
    page.keyboard.press("PageDown")  # the next trick's first card
    expect(table).to_have_attribute("data-step", "9")
    expect(page.locator("[data-testid=trick] .card")).to_have_count(1)
    page.keyboard.press("ArrowLeft")  # back to the first trick, whole, its winner marked
    expect(page.locator("[data-testid=trick] .card")).to_have_count(4)
    expect(page.locator("[data-testid=trick] .trick-slot.won")).to_have_count(1)
    page.select_option("[data-testid=replay-seat]", "all")
    expect(page.locator("[data-testid=replay-hands] .replay-hand")).to_have_count(4)
    counts = page.locator("[data-testid=replay-hands] .replay-hand").evaluate_all(
        "els => els.map(e => +e.dataset.count)"
    )
    assert counts == [12, 12, 12, 12], "after the first trick every hand holds 12 cards"
    assert page.evaluate("location.hash") == f"#/replay/{game_id}"
    page.locator("[data-testid=replay-slider]").fill("57")  # the slider: the deal, 4 bids, 52 cards, the score
    expect(table).to_have_attribute("data-step", "57")
    expect(page.locator("[data-testid=replay-scored]")).to_be_visible()
    page.click("[data-testid=replay-summary]")
    expect(page.locator("dialog[open] [data-testid=round-summary]")).to_be_visible()
    assert_no_violations(page, "the replay's round summary")
    page.keyboard.press("Escape")
    rounds = len(record["rounds"])
    expect(page.locator("#replay-round option")).to_have_count(rounds)
    page.keyboard.press("End")
    expect(table).to_have_attribute("data-round", str(rounds))
    expect(page.locator("[data-testid=replay-next]")).to_be_disabled()
    page.keyboard.press("Home")
    expect(table).to_have_attribute("data-step", "0")

    def mid_trick(page: Page) -> None:  # the second trick, three cards down
        page.locator("[data-testid=replay-slider]").fill("11")
        expect(table).to_have_attribute("data-step", "11")

    at_each_size(page, "the replay (every hand)", "[data-testid=replay-table]", "replay", screenshots, mid_trick)
    page.select_option("[data-testid=replay-seat]", "0")
    at_each_size(
        page, "the replay (as South saw it)", "[data-testid=replay-own-hand]", "replay-seat", screenshots, mid_trick
    )

    # the leaderboards, from the profile: four games leave the player provisional, off the board; the rivals and
    # the levels, seasoned in the database (thirty games each are too long to play here), are on it
    season([*rivals, "computer-easy", "computer-hard"])
    page.goto(f"/play?pace=0#/players/{me['id']}")
    page.click(".crumbs >> text=Leaderboards")
    expect(page.locator("[data-testid=lb-me]")).to_contain_text("is provisional: you join the board after 30")
    expect(page.locator(f"[data-testid=leaderboard] tr[data-player='{me['id']}']")).to_have_count(0)
    for rival in rivals:
        expect(page.locator(f"[data-testid=leaderboard] tr[data-player='{rival}']")).to_be_visible()
    at_each_size(page, "the leaderboard", "[data-testid=leaderboard]", "leaderboard", screenshots)
    page.click("[data-testid=lb-kind-computer]")
    expect(page.locator("[data-testid=leaderboard] tr[data-player='computer-easy']")).to_be_visible()
    assert not page.js_errors

    token = me["token"]
    for exchange in recorder.exchanges:
        url = urlsplit(exchange.url)
        assert token not in exchange.url, "the player token never goes in an address"
        if url.path.startswith("/v1/"):
            check_exchange(exchange, web)
            assert exchange.headers.get("authorization") != f"Bearer {token}", "the player token only as Player-Token"
    sent = {(e.method, urlsplit(e.url).path) for e in recorder.api_calls() if e.headers.get("player-token") == token}
    assert ("POST", "/v1/games") in sent, "the new game's seat is bound with the player token"


def test_people_at_a_table_see_each_others_names_and_a_rename(new_page, web, screenshots):
    """A person with a name sets up a table with an open seat; another person with a name takes it from
    the invite link: each page shows the other's name at their seat. A rename in Settings is kept."""
    south = new_page()
    south.goto("/play?pace=0")
    ada = choose_name(south, f"Ada {secrets.token_hex(3)}")
    game_id = create_game(south, ["you", "ai:easy", "open", "ai:easy"])
    north = new_page()
    north.goto("/play?pace=0")
    bob = choose_name(north, f"Bob {secrets.token_hex(3)}")
    north.goto(f"/play?game={game_id}&seat=2&pace=0")
    north.click("[data-testid=claim]")
    expect(north.locator("[data-testid=table]")).to_be_visible()
    expect(north.locator("[data-testid=seat-0] .seat-kind")).to_have_text(ada["name"])
    # North's turn comes soon, its clock running: the name stays beside it
    expect(south.locator("[data-testid=seat-2] .seat-kind")).to_contain_text(bob["name"], timeout=LONG)
    expect(south.locator("[data-testid=seat-2]")).to_have_attribute("aria-label", f"North, {bob['name']}")
    for width, height in SIZES:
        south.set_viewport_size({"width": width, "height": height})
        expect(south.locator("[data-testid=seat-2] .seat-player")).to_have_text(bob["name"])
        south.screenshot(path=str(screenshots / f"players-table-names-{width}x{height}.png"))
    seats = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()["seats"]
    assert [s["player"]["id"] if s["player"] else None for s in seats][0::2] == [ada["id"], bob["id"]]

    renamed = f"Bea {secrets.token_hex(3)}"
    north.click("[data-testid=settings-button]")
    expect(north.locator("[data-testid=settings-name]")).to_have_text(bob["name"])
    north.click("[data-testid=rename]")
    north.fill("[data-testid=player-name]", ada["name"].upper())  # names are unique whatever their case
    north.click("[data-testid=player-name-save]")
    expect(north.locator("[data-testid=player-name-error]")).to_contain_text("Someone already plays under that name")
    north.fill("[data-testid=player-name]", renamed)
    north.click("[data-testid=player-name-save]")
    expect(north.locator("[data-testid=settings-name]")).to_have_text(renamed)
    assert requests.get(f"{web}/v1/players/{bob['id']}", timeout=30).json()["name"] == renamed
    assert not south.js_errors and not north.js_errors
