"""The /play web client in a real browser (Debian's chromium via Playwright) against the real
gunicorn and Celery worker: whole games, two players, reloads, refused moves, a phone screen.

Computer moves are shown at full speed (?pace=0, the page's display setting); every wait is on
what the page shows, never a sleep."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
import requests
from playwright.sync_api import expect

from .driver import (
    BID,
    CARD,
    LONG,
    Player,
    card_label,
    card_name,
    click_card,
    create_game,
    enabled_cards,
    hand,
    seat_token,
)
from .recorder import Recorder, check_exchange

pytestmark = pytest.mark.integration

README_IMAGE = Path(__file__).resolve().parents[2] / "docs" / "img" / "table.png"
UNPLAYABLE = ".hand.my-turn .card[aria-disabled=true]"
SUIT_NAMES = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}


def test_a_person_plays_a_whole_game_against_three_computers(new_page, web, screenshots):
    """Lobby to game over; every server call the page makes is a documented /v1 operation."""
    page = new_page()
    recorder = Recorder(page)
    page.goto("/play?pace=0")
    expect(page.locator("#win_score")).to_have_value("500")
    catalogue = requests.get(f"{web}/v1/levels", timeout=30).json()["levels"]
    levels = [level["name"] for level in sorted(catalogue, key=lambda level: level["strength"])]
    expect(page.locator("#seat-1 option[value^='ai:']")).to_have_count(len(levels))  # once GET /v1/levels answers
    offered = page.locator("#seat-1 option").evaluate_all("els => els.map(e => e.value)")
    assert [v.removeprefix("ai:") for v in offered if v.startswith("ai:")] == levels  # the server's list, weakest first
    page.screenshot(path=str(screenshots / "lobby.png"), full_page=True)
    game_id = create_game(page, ["you", "ai:easy", "ai:standard", "ai:easy"])
    player = Player(page, shots={n: str(screenshots / f"{n}.png") for n in ("bidding", "trick", "summary", "over")})
    # a hint on the first turn: hard's suggestion, shown as a sentence and marked on the table
    while player.state() not in ("bid", "card"):
        player.step()
    page.click("[data-testid=hint-button]")
    expect(page.locator("[data-testid=hint-text]")).to_contain_text("Suggested", timeout=LONG)
    player.play_to_end()
    expect(page.locator("[data-testid=winner]")).not_to_have_text("")
    assert page.locator("main").inner_text().count("Game over") == 1, "said once, in the turn line"
    expect(page.locator("[data-testid=score-history] tbody tr")).to_have_count(player.summaries)
    assert player.summaries >= 1 and player.moves >= 14
    assert not player.shots, f"screenshots not taken: {list(player.shots)}"
    assert not page.js_errors

    token = seat_token(page, game_id)["token"]
    calls = recorder.api_calls()
    assert {(c.method, urlsplit(c.url).path.rsplit("/", 1)[-1]) for c in calls} >= {
        ("GET", "rules"), ("GET", "levels"), ("POST", "games"), ("GET", game_id), ("GET", "stream"), ("POST", "bids"),
        ("POST", "plays"), ("GET", "hint"),
    }  # fmt: skip
    for exchange in recorder.exchanges:
        url = urlsplit(exchange.url)
        assert url.netloc == urlsplit(web).netloc, exchange.url
        assert token not in exchange.url
        if url.path.startswith("/v1/"):
            check_exchange(exchange, web)
            auth = exchange.headers.get("authorization")
            assert auth in (None, f"Bearer {token}"), "the page sends only its own seat's token"
        else:
            assert exchange.method == "GET" and (url.path == "/play" or url.path.startswith("/play/")), exchange.url
            assert exchange.status in (200, 304), exchange.url  # 304: revalidated (no-cache + ETag)


def test_two_people_never_see_each_others_cards(new_page, web):
    """Two browser contexts, one game with two computers: neither page ever holds a card of the other's hand.
    No turn clock: the test drives one page at a time, and on a busy machine a person's clock could run out
    (and the computer move for them) while the test looks at the other page."""
    south = new_page()
    game_id = create_game(south, ["you", "ai:easy", "open", "ai:easy"], clock="none")
    invite = south.locator("[data-testid=invite-2]").input_value()
    assert urlsplit(invite).query == f"game={game_id}&seat=2", "an invite carries the game and the seat only"
    north = new_page()
    north.goto(invite + "&pace=0")
    north.click("[data-testid=claim]")
    expect(north.locator("[data-testid=table]")).to_have_attribute("data-you", "2")
    expect(south.locator("[data-testid=invites]")).to_have_count(0, timeout=LONG)

    players = [Player(south), Player(north)]
    seats = {id(players[0]): 0, id(players[1]): 2}
    tokens = {id(p): seat_token(p.page, game_id)["token"] for p in players}
    auth = {"Authorization": f"Bearer {tokens[id(players[0])]}"}
    assert requests.get(f"{web}/v1/games/{game_id}", headers=auth, timeout=30).json()["options"]["clock"] == "none"
    checks = 0
    while not all(p.summaries for p in players):
        for me, other in ((players[0], players[1]), (players[1], players[0])):
            if me.summaries:
                continue
            assert_no_leak(me.page, lambda other=other: server_hand(web, game_id, tokens[id(other)]))
            checks += 1
            view = requests.get(f"{web}/v1/games/{game_id}", headers=auth, timeout=30).json()
            if view["turn"] in (1, 3):  # a computer's move: wait for its event on the server, then look again
                events = f"{web}/v1/games/{game_id}/events"
                requests.get(events, params={"after": view["last_seq"], "wait": 10}, headers=auth, timeout=30)
                continue
            if view["turn"] == seats[id(other)] and not other.summaries:
                continue  # the other person is to move: this page has nothing to do until then
            me.step()  # this person's move (or the round's summary), waited for on the page
    assert checks > 20
    assert not south.js_errors and not north.js_errors


def server_hand(web: str, game_id: str, token: str) -> set[str]:
    view = requests.get(f"{web}/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
    return set(view["hand"] or [])


def assert_no_leak(page, other_hand) -> None:
    """No card the other person holds throughout the page's snapshot appears in it (their hand is
    read from the server before and after: a card in both was in their hand all along)."""
    before = other_hand()
    if page.locator("dialog[open]").count():  # a round summary shows the finished round's (public) deal
        return
    html = page.content().lower()
    held = before & other_hand()
    for code in held:
        assert f'data-card="{code.lower()}"' not in html, code
        assert card_name(code) not in html, code


def test_reload_mid_round_resumes_the_same_seat(new_page, web):
    page = new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    game_id = create_game(page, ["ai:easy", "you", "ai:easy", "ai:easy"])
    player = Player(page)
    while player.moves < 4:  # a bid and three cards
        assert player.step() in ("bid", "card")
    player.state()
    before = (page.get_attribute("[data-testid=table]", "data-round"), hand(page))
    assert page.get_attribute("[data-testid=table]", "data-you") == "1"
    page.reload()
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", "1")
    player.state()
    assert (page.get_attribute("[data-testid=table]", "data-round"), hand(page)) == before
    assert seat_token(page, game_id)["seat"] == 1
    assert "token" not in page.url and seat_token(page, game_id)["token"] not in page.url

    # the look chosen in Settings is kept in the browser
    page.click("[data-testid=settings-button]")
    page.select_option("#background", "ocean")
    page.select_option("#cardBack", "crimson")
    page.click("[data-testid=settings-close]")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-background", "ocean")
    expect(page.locator("body")).to_have_attribute("data-card-back", "crimson")

    # leaving: a computer takes the seat over, and this page goes back to the lobby
    page.click("[data-testid=leave-button]")
    page.click("[data-testid=leave-leave]")
    expect(page.locator("[data-testid=play-now]")).to_be_visible()
    assert "game=" not in page.url and seat_token(page, game_id) is None
    view = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()
    assert view["seats"][1]["type"] == "ai" and view["seats"][1]["claimable"], "a computer plays on, the seat open"
    assert console == [], "no request with the dead token: no 401 in the console"


def test_an_illegal_card_cannot_be_played_and_a_stale_move_is_explained(new_page, short_stream_web):
    page = new_page(base=short_stream_web)
    cut = False  # while set, every new connection to the event stream fails like a dropped network
    page.route("**/stream*", lambda route: route.abort() if cut else route.continue_())
    game_id = create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"])
    player = Player(page)
    plays = []
    page.on("request", lambda r: plays.append(r.url) if r.method == "POST" and r.url.endswith("/plays") else None)
    while True:  # to a turn with two playable cards and one that may not be played
        if player.state() == "card" and len(enabled_cards(page)) >= 2 and page.locator(UNPLAYABLE).count():
            break
        player.step()
    illegal = page.locator(UNPLAYABLE).first
    code = illegal.get_attribute("data-card")
    expect(illegal).to_have_attribute("aria-label", f"{card_label(code)} (can't be played now)")
    sent = len(plays)
    click_card(illegal, force=True)
    trick = page.locator("[data-testid=trick] [data-card]")  # empty when this seat leads
    led = trick.first.get_attribute("data-card") if trick.count() else None
    reason = f"You must follow {SUIT_NAMES[led[1]]}" if led else "Spades aren't broken yet"
    expect(page.locator("[data-testid=toast]")).to_contain_text(reason)  # said, and read out (role=status)
    assert page.get_attribute("[data-testid=toast]", "role") == "status"
    assert len(plays) == sent and code in hand(page)

    # The feed drops (the server ends the open stream; reconnecting fails; the page says so); the seat
    # moves elsewhere; the page's move is then stale.
    cut = True
    expect(page.locator("[data-testid=connection]")).to_have_attribute("data-state", "reconnecting", timeout=LONG)
    held = seat_token(page, game_id)
    auth = {"Authorization": f"Bearer {held['token']}"}
    view = requests.get(f"{short_stream_web}/v1/games/{game_id}", headers=auth, timeout=30).json()
    elsewhere = view["legal"][0]
    moved = requests.post(
        f"{short_stream_web}/v1/games/{game_id}/plays", json={"card": elsewhere}, headers=auth, timeout=30
    )
    assert moved.status_code == 200
    stale = next(c for c in enabled_cards(page) if c != elsewhere)
    click_card(page.locator(f"{CARD}[data-card='{stale}']"))
    expect(page.locator("[data-testid=message]")).to_contain_text("table changed")
    expect(page.locator(f"[data-testid=hand] [data-card='{elsewhere}']")).to_have_count(0)
    cut = False
    expect(page.locator("[data-testid=connection]")).to_have_attribute("data-state", "live", timeout=LONG)


def test_the_page_follows_the_game_across_the_servers_stream_ends(new_page, short_stream_web):
    """The server ends each stream after a few seconds; the page reconnects with Last-Event-ID and
    plays on. What its streams carried, joined, is the server's event log after the point the page
    started from: nothing missed, nothing repeated; at each turn the table shows the server's view."""
    page = new_page(base=short_stream_web)
    recorder = Recorder(page)
    game_id = create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"])
    auth = {"Authorization": f"Bearer {seat_token(page, game_id)['token']}"}
    player = Player(page)
    turns = 0
    while turns < 2:  # two turns made just after the server ended the stream: computers then move
        if player.state() in ("bid", "card"):  # while the page is between two connections
            recorder.wait_for_ended_streams(len(recorder.ended) + 1)
            turns += 1
            view = requests.get(f"{short_stream_web}/v1/games/{game_id}", headers=auth, timeout=30).json()
            assert sorted(hand(page)) == sorted(view["hand"])
            assert page.get_attribute("[data-testid=table]", "data-round") == str(view["round"])
        player.step()
    recorder.wait_for_ended_streams(len(recorder.ended) + 1)  # the stream that carried those moves
    assert not page.js_errors

    streams = list(recorder.ended)
    assert len(streams) > turns and all(e.status == 200 for e in streams)
    for exchange in streams:
        check_exchange(exchange, short_stream_web)
    start = int(dict(parse_qsl(urlsplit(streams[0].url).query))["after"])
    carried: list[int] = []
    for exchange in streams:  # each connection resumes after the last id the ones before carried
        resumed = exchange.headers.get("last-event-id") or dict(parse_qsl(urlsplit(exchange.url).query))["after"]
        assert int(resumed) == (carried[-1] if carried else start), exchange.url
        carried += stream_ids(exchange.response_body)
    logged = server_seqs(short_stream_web, game_id, auth, start)
    assert carried and carried == [seq for seq in logged if seq <= carried[-1]]


def test_a_feed_too_far_behind_reloads_the_view_and_follows_on_from_it(new_page, short_stream_web):
    """A stream connection answered 410 too_far_behind (the log no longer holds what follows the
    resume point): the page reads the view and follows on after the view's last_seq (from a server
    whose views have none, after the problem's first_seq - 1), then plays on."""
    page = new_page(base=short_stream_web)
    gone: list[dict] = []  # the problem to answer the next stream connection with, once
    refused: list = []  # the stream request answered with it
    requests_seen: list = []
    page.on("request", lambda request: requests_seen.append(request))

    def stream(route) -> None:
        if gone:
            refused.append(route.request)
            route.fulfill(status=410, content_type="application/problem+json", body=json.dumps(gone.pop()))
        else:
            route.continue_()

    def is_stream(request) -> bool:
        return urlsplit(request.url).path.endswith("/stream")

    page.route("**/stream*", stream)
    game_id = create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"])
    auth = {"Authorization": f"Bearer {seat_token(page, game_id)['token']}"}
    player = Player(page)
    while player.state() not in ("bid", "card"):  # a quiet table: nothing moves until this seat does
        player.step()
    view = requests.get(f"{short_stream_web}/v1/games/{game_id}", headers=auth, timeout=30).json()
    first_seq = server_seqs(short_stream_web, game_id, auth, 0)[-1]
    problem = {"type": "urn:spades:problem:too_far_behind", "title": "Too far behind", "status": 410}
    # The connection that follows the refused one (a quiet stream's own reconnection may also carry
    # ?after=, so the refusal, not the URL, tells them apart).
    with page.expect_request(lambda r: is_stream(r) and refused and r is not refused[0], timeout=LONG) as resumed:
        gone.append({**problem, "code": "too_far_behind", "first_seq": first_seq})  # the next connection
    after = dict(parse_qsl(urlsplit(resumed.value.url).query))["after"]
    assert int(after) == view.get("last_seq", first_seq - 1)
    assert "last-event-id" not in resumed.value.headers
    between = requests_seen[requests_seen.index(refused[0]) : requests_seen.index(resumed.value)]
    views = [r for r in between if r.method == "GET" and r.url == f"{short_stream_web}/v1/games/{game_id}"]
    assert views, "the view is read again"

    moves = player.moves
    while player.moves < moves + 3:  # the game goes on, and the page shows the server's table
        assert player.step() in ("bid", "card", "summary")
    player.state()
    view = requests.get(f"{short_stream_web}/v1/games/{game_id}", headers=auth, timeout=30).json()
    assert sorted(hand(page)) == sorted(view["hand"])
    assert not page.js_errors


def stream_ids(body: bytes) -> list[int]:
    """The `id:` of each message of a recorded SSE body."""
    return [int(found) for found in re.findall(rb"^id: ([0-9]+)\r?$", body, re.MULTILINE)]


def server_seqs(base: str, game_id: str, auth: dict[str, str], after: int) -> list[int]:
    """Every seq of the game's event log after `after` so far, read from /events."""
    seqs: list[int] = []
    while True:
        page = requests.get(
            f"{base}/v1/games/{game_id}/events", params={"after": after, "wait": 0}, headers=auth, timeout=30
        )
        events = page.json()["events"]
        if not events:
            return seqs
        seqs += [event["seq"] for event in events]
        after = events[-1]["seq"]


def test_a_phone_screen_plays_a_trick(new_page, web, screenshots):
    page = new_page(375, 812)
    create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"])
    player = Player(page)
    while player.state() != "card":
        player.step()
    # keyboard play: on your turn a playable card has the focus; arrows move it, Enter plays
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused in enabled_cards(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.card") == focused
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(12)
    assert focused not in hand(page)
    expect(page.locator("[data-testid=seat-0] .seat-tricks")).to_be_visible()
    # the trick ends: every seat has played one card, and the table is handed back to someone
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-synced", "yes", timeout=LONG)
    won = page.locator("[data-testid^=tricks-]").filter(has_not_text="Won 0")
    expect(won).not_to_have_count(0, timeout=LONG)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=str(screenshots / "phone.png"), full_page=True)


def test_readme_screenshot(new_page, web, screenshots):
    """The README's picture, a trick in progress, taken like the others into the
    screenshots folder; ``UPDATE_README_SCREENSHOT=1`` also copies it to docs/img/table.png."""
    page = new_page(1280, 720)
    create_game(page, ["you", "ai:standard", "ai:standard", "ai:standard"])
    player = Player(page, shots={"trick": str(screenshots / "table.png")})
    while player.shots:
        player.step()
    assert (screenshots / "table.png").stat().st_size > 10_000
    if os.environ.get("UPDATE_README_SCREENSHOT"):
        README_IMAGE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(screenshots / "table.png", README_IMAGE)


def test_the_table_stays_put_between_your_turn_and_the_others(new_page, web):
    """On your turn the status row holds the hint button beside the turn line; on the others' it does not: the
    row is as tall either way, so the felt and your hand never jump (at each size)."""
    page = new_page(1280, 720)
    create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"], pace=2500, hints=True)
    sizes = [(1280, 720), (375, 667), (667, 375)]
    mine = page.locator("[data-testid=turn].mine")

    def felt_tops() -> list[float]:
        tops = []
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            # measured in the page in one step: the table redrawn between finding the felt and measuring it
            # (an easy computer's bid) would leave Playwright's bounding_box a detached node and no box
            tops.append(page.locator("[data-testid=felt]").evaluate("(felt) => felt.getBoundingClientRect().y"))
        return tops

    expect(page.locator("[data-testid=table]")).to_have_attribute("data-phase", "bidding", timeout=LONG)
    if mine.count():
        yours = felt_tops()
        page.locator(BID).first.click()
        expect(mine).to_have_count(0, timeout=LONG)
        theirs = felt_tops()
    else:
        theirs = felt_tops()
        expect(mine).to_have_count(1, timeout=LONG)
        expect(page.locator("[data-testid=hint-button]")).to_have_count(1)
        yours = felt_tops()
    assert yours == theirs, {"your turn": yours, "the others'": theirs}
