"""Tables with people in a real browser: the lobby's quick match (a countdown in the server's time,
Cancel, seated into the game) and open tables (listed live, a free seat claimed); at the table the
clock on the seat to move, away and "I'm back", connection dots, quick messages, seat news, rematch,
a rejoin link for another device; your turn announced while the tab is hidden. Laid out at 1280×720
and 375×667 without scrolling (screenshots in var/screenshots), and checked with axe-core.

Games are real (the `web` server and AI worker), and so are table life (presence, quick messages,
rematch, rejoin codes) and the lobby (quick match, public tables and their stream). The tests that say
[clocks] in their docstring set the clock's state at will (a seat away, so many seconds left) through
``people_api.PeopleApi`` (one fixture file), to check the layout at a chosen instant; the real clocks
run out, go away and come back in test_people_table.py.
"""

from __future__ import annotations

import re
import uuid

import pytest
import requests
from playwright.sync_api import Page, expect

from .axe import assert_no_violations
from .driver import LONG, assert_fits, outside, seat_token
from .people_api import PeopleApi, now_ms

pytestmark = pytest.mark.integration

SIZES = [(1280, 720), (375, 667)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
HUMAN, OPEN, EASY = {"type": "human"}, {"type": "open"}, {"type": "ai", "level": "easy"}
CLOCK = {"control": "normal", "move_ms": 25_000, "reserve_ms": [60_000, 42_000, 60_000, 0]}


def new_game(web: str, seats: list[dict], headers: dict | None = None, **rules) -> tuple[str, list[str | None]]:
    body = {"seats": seats, **({"rules": {"preset": "partnership", **rules}} if rules else {})}
    created = requests.post(f"{web}/v1/games", json=body, headers=headers, timeout=30).json()
    return created["game_id"], [s.get("token") for s in created["seats"]]


def hold(page: Page, game_id: str, seat: int, token: str) -> None:
    """This browser holds the seat (as if it had created or claimed it)."""
    page.goto("/play?pace=0")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"spades.seat.{game_id}", f'{{"seat":{seat},"token":"{token}"}}']
    )


def move_as(web: str, game_id: str, token: str) -> None:
    """The seat's first legal bid or card, over the API."""
    auth = {"Authorization": f"Bearer {token}"}
    view = requests.get(f"{web}/v1/games/{game_id}", headers=auth, timeout=30).json()
    kind, key = ("bids", "bid") if view["phase"] == "bidding" else ("plays", "card")
    headers = {**auth, "If-Match": f'"{view["version"]}"'}
    requests.post(f"{web}/v1/games/{game_id}/{kind}", json={key: view["legal"][0]}, headers=headers, timeout=30)


def finished_game(web: str, west: str | None = None) -> tuple[str, list[str | None]]:
    """South and West (people, over the API; West the player of the token ``west``, if any) with two computers,
    played to the end."""
    seats = [HUMAN, {**HUMAN, "player": True} if west else HUMAN, EASY, EASY]
    headers = {"Player-Token": west} if west else None
    game_id, tokens = new_game(web, seats, headers, win_score=30, lose_score=-30)
    for _ in range(3000):
        view = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()
        if view["phase"] == "game_over":
            return game_id, tokens
        if view["turn"] in (0, 1):
            move_as(web, game_id, tokens[view["turn"]])
        else:
            requests.get(f"{web}/v1/games/{game_id}/events", params={"after": view["last_seq"], "wait": 5}, timeout=30)
    raise AssertionError("the game did not end")


def created_match(page: Page) -> dict:
    """The page's quick match request as the server answered it (its id and secret)."""
    with page.expect_response(lambda r: r.url.endswith("/v1/matches") and r.request.method == "POST") as answer:
        page.click("[data-testid=find-players]")
    assert answer.value.status == 202
    return answer.value.json()


def match_state(web: str, match: dict) -> dict:
    return requests.get(f"{web}/v1/matches/{match['match_id']}", headers=auth(match["secret"]), timeout=30).json()


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_quick_match_counts_down_in_server_time_and_cancels(new_page, web, screenshots, width, height):
    """The real server: POST /v1/matches, its long poll, DELETE."""
    page = new_page(width, height, bypass_csp=True)
    page.add_init_script(
        "{ const real = Date.now; Date.now = () => real() + 3_600_000; }"
    )  # the local clock an hour fast
    sent: list[dict] = []
    page.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/v1/matches") else None)
    page.goto("/play?pace=0")
    page.click("[data-testid=tab-people]")
    page.check("[data-testid=qm-clock-fast]")
    page.select_option("#qm-wait", "30")
    level = page.locator("#qm-level").input_value()
    assert outside(page, "[data-testid=find-players]") == [], "quick match needs no scrolling"
    assert_no_violations(page, "people tab")
    match = created_match(page)

    countdown = page.locator("[data-testid=match-countdown]")
    expect(countdown).to_have_text(re.compile(r"^0:(2\d|30)$"))  # from expires_ms - server_time_ms, not Date.now()
    assert sent == [{"rules": {"preset": "partnership"}, "clock": "fast", "max_wait_seconds": 30, "fill_level": level}]
    expect(page.locator("[data-testid=match-wait]")).to_contain_text("Partnership · fast clock")
    for shown in ("[data-testid=match-countdown]", "[data-testid=match-cancel]"):  # on the first screen
        assert outside(page, shown) == [], shown
    assert_no_violations(page, "quick match wait")
    page.screenshot(path=str(screenshots / f"people-lobby-waiting-{width}x{height}.png"))

    page.click("[data-testid=match-cancel]")
    expect(page.locator("[data-testid=message]")).to_contain_text("Quick match cancelled.")
    assert match_state(web, match)["status"] == "cancelled"
    assert page.evaluate("sessionStorage.getItem('spades.match')") is None
    assert not page.js_errors


def test_two_people_quick_match_into_one_game(new_page, web):
    """The real server: two requests for the same game sit together when the wait ends (computers fill
    the rest); one page is reloaded while it waits and waits on."""
    pages = [new_page(), new_page(375, 667)]
    matches = []
    for page in pages:
        page.goto("/play?pace=0")
        page.click("[data-testid=tab-people]")
        page.check("[data-testid=qm-clock-relaxed]")
        page.select_option("#qm-wait", "10")
        matches.append(created_match(page))
    pages[1].reload()  # the request waits on in this tab after a reload
    expect(pages[1].locator("[data-testid=match-wait]")).to_be_visible()
    for page in pages:
        expect(page.locator("[data-testid=table]")).to_be_visible(timeout=LONG)
    states = [match_state(web, match) for match in matches]
    assert [s["status"] for s in states] == ["seated", "seated"] and states[0]["game_id"] == states[1]["game_id"]
    game_id = states[0]["game_id"]
    for page, state in zip(pages, states, strict=True):
        expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", str(state["seat"]))
        assert seat_token(page, game_id)["token"] == state["token"] and state["token"] not in page.url
        assert not page.js_errors


def public_table(web: str, seats: list[dict], host: str | None = None) -> tuple[str, list[str | None]]:
    """A public table; ``host``: the player token whose player takes seat 0."""
    if host:
        seats = [{**seats[0], "player": True}, *seats[1:]]
    body = {"seats": seats, "options": {"public": True}}
    headers = {"Player-Token": host} if host else None
    created = requests.post(f"{web}/v1/games", json=body, headers=headers, timeout=30).json()
    return created["game_id"], [s.get("token") for s in created["seats"]]


def test_open_tables_are_listed_live_and_a_free_seat_is_claimed(new_page, web, screenshots):
    """The real server: GET /v1/tables, the lobby stream from its `last_seq`, a claim."""
    hana = requests.post(f"{web}/v1/players", json={"name": f"Hana {uuid.uuid4().hex[:6]}"}, timeout=30).json()
    listed, _ = public_table(web, [HUMAN, OPEN, OPEN, EASY], host=hana["token"])
    closing, _ = public_table(web, [HUMAN, HUMAN, OPEN, EASY])
    page = new_page(375, 667)
    pages: list[dict] = []
    page.on("response", lambda r: pages.append(r.json()) if "/v1/tables?" in r.url else None)
    streams: list[str] = []
    page.on("request", lambda r: streams.append(r.url) if "/v1/tables/stream" in r.url else None)
    page.goto("/play?pace=0")
    page.click("[data-testid=tab-people]")
    expect(page.locator(f"[data-testid=table-{listed}]")).to_contain_text(
        "Partnership · normal clock · 1 person, computers: easy"  # seats for three people: a clock
    )
    expect(page.locator(f"[data-testid=table-title-{listed}]")).to_have_text(
        f"{hana['player']['name']}'s table · to 500 points"  # who hosts it and what it plays to
    )
    expect(page.locator(f"[data-testid=table-{listed}] button")).to_have_count(2)
    expect(page.locator("[data-testid=tables-state]")).to_have_text("Live")
    assert streams == [f"{web}/v1/tables/stream?after={pages[0]['last_seq']}"], "no change missed between the two"

    opened, _ = public_table(web, [HUMAN, OPEN, EASY, EASY])  # the stream's changes, as they happen
    expect(page.locator("[data-testid=open-tables] .open-table").first).to_have_attribute("data-game", opened)
    requests.post(f"{web}/v1/games/{listed}/seats/2/claim", json={}, timeout=30)
    expect(page.locator(f"[data-testid=table-{listed}] button")).to_have_count(1)  # North taken meanwhile
    requests.post(f"{web}/v1/games/{closing}/seats/2/claim", json={}, timeout=30)
    expect(page.locator(f"[data-testid=table-{closing}]")).to_have_count(0)  # full: no longer listed
    page.screenshot(path=str(screenshots / "people-lobby-tables-375x667.png"))

    page.click(f"[data-testid=sit-{listed}-1]")
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", "1", timeout=LONG)
    assert seat_token(page, listed)["seat"] == 1
    assert not page.js_errors


def test_a_table_set_up_with_friends_can_be_public_with_a_clock(new_page, web):
    """[clocks] options.clock in POST /v1/games (taken out before the real server); `public` is real."""
    page = new_page()
    people = PeopleApi(page, strip_clock_option=True).install()
    page.goto("/play?pace=0")
    expect(page.locator("#win_score")).to_have_value("500")
    page.select_option("#seat-1", "open")
    page.check("[data-testid=public]")
    page.select_option("[data-testid=clock]", "fast")
    page.click("[data-testid=create]")
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", "0", timeout=LONG)
    (body,) = people.requests("POST", r"^/v1/games$")
    assert body["options"] == {"hints": True, "public": True, "clock": "fast"}
    game_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    listing = requests.get(f"{web}/v1/tables", params={"limit": 100}, timeout=30).json()["tables"]
    assert game_id in [t["game_id"] for t in listing], "listed among the open tables"


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def say(web: str, game_id: str, token: str, code: str) -> None:
    requests.post(f"{web}/v1/games/{game_id}/messages", json={"code": code}, headers=auth(token), timeout=30)


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_a_table_of_people_shows_the_clock_away_seats_dots_and_messages(new_page, web, screenshots, width, height):
    """[clocks] the view's `clock` and `server_time_ms`. Presence (`seats[i].connected`, the `presence`
    frame) and quick messages (the view's `messages`, the `message` frame) are the real server's."""
    game_id, tokens = new_game(web, [HUMAN, HUMAN, HUMAN, EASY])  # West bids first
    west = new_page()  # West's page is open: West is connected; nobody holds North's seat
    hold(west, game_id, 1, tokens[1])
    west.goto(f"/play?game={game_id}&pace=0")
    expect(west.locator("[data-testid=connection]")).to_have_attribute("data-state", "live")
    page = new_page(width, height, bypass_csp=True)
    PeopleApi(page, clock={**CLOCK, "away": [False, False, True, False]}).install()
    hold(page, game_id, 0, tokens[0])
    say(web, game_id, tokens[1], "hello")  # before the page reads the view: in its `messages`
    with page.expect_response(lambda r: "/stream" in r.url and r.status == 200):  # the page follows the table…
        page.goto(f"/play?game={game_id}&pace=0")
    say(web, game_id, tokens[2], "good_game")  # …and gets this one as a `message` frame
    clock = page.locator("[data-testid=clock-1]")
    expect(clock).to_be_visible()
    # the quick messages first (a bubble stays 5 s)
    expect(page.locator("[data-testid=bubble-1]")).to_have_text("Hello!")
    expect(page.locator("[data-testid=bubble-2]")).to_have_text("Good game")
    shown = ["[data-testid=clock-1]", "[data-testid=away-2]", "[data-testid=bubble-1]", "[data-testid=bubble-2]"]
    assert_fits(page, {"[data-testid=felt] .seat": 4, "[data-testid=hand] .card": 13, **{s: 1 for s in shown}})
    for bubble in ("[data-testid=bubble-1]", "[data-testid=bubble-2]"):
        assert not overlaps(page, bubble, "[data-testid=seat-0]"), f"{bubble} covers your seat"
    page.screenshot(path=str(screenshots / f"people-table-clock-away-{width}x{height}.png"))
    expect(page.locator("#announcer")).to_have_text("North: Good game")

    expect(clock.locator(".clock-main")).to_have_text(re.compile(r"^0:1[0-8]$"))  # 18 s left, ticking down
    expect(clock.locator(".clock-reserve")).to_have_text("+0:42")
    assert re.fullmatch(r"1\d seconds to move, then 42 seconds of reserve", clock.get_attribute("aria-label"))
    expect(page.locator("[data-testid=away-2]")).to_contain_text("Away")
    expect(page.locator("[data-testid=seat-2]")).to_have_class(re.compile(r"\bis-away\b"))
    for seat, state in ((0, "on"), (1, "on"), (2, "off")):
        expect(page.locator(f"[data-testid=conn-{seat}]")).to_have_attribute("data-state", state)
    expect(page.locator("[data-testid=conn-3]")).to_have_count(0)  # a computer has no dot
    expect(page.locator("[data-testid=reserve-0]")).to_have_text("Reserve 1:00")
    expect(page.locator("[data-testid=say-button]")).to_be_visible()
    assert_no_violations(page, "table of people")

    north = new_page()  # North's person opens the table: its dot fills (a `presence` frame)
    hold(north, game_id, 2, tokens[2])
    north.goto(f"/play?game={game_id}&pace=0")
    expect(page.locator("[data-testid=conn-2]")).to_have_attribute("data-state", "on", timeout=LONG)
    assert not page.js_errors


def overlaps(page: Page, a: str, b: str) -> bool:
    ra, rb = page.locator(a).bounding_box(), page.locator(b).bounding_box()
    return not (
        ra["x"] + ra["width"] <= rb["x"] or rb["x"] + rb["width"] <= ra["x"]
        or ra["y"] + ra["height"] <= rb["y"] or rb["y"] + rb["height"] <= ra["y"]
    )  # fmt: skip


def test_away_and_back_quick_messages_and_what_the_table_is_told(new_page, web):
    """[clocks] `clock.away`, POST …/back, the log events seat_away, turn_timed_out, seat_back (a
    stand-in stream). The quick message is the real server's."""
    game_id, tokens = new_game(web, [HUMAN, HUMAN, EASY, EASY])
    page = new_page(375, 667, bypass_csp=True)
    people = PeopleApi(page, clock={**CLOCK, "seat": None, "away": [True, False, False, False]}).install()
    hold(page, game_id, 0, tokens[0])
    page.goto(f"/play?game={game_id}&pace=0")
    expect(page.locator("[data-testid=away-0]")).to_contain_text("Away")
    assert_no_violations(page, "your seat away")
    people.clock = {**CLOCK, "away": [False, False, False, False]}
    page.click("[data-testid=back-button]")
    expect(page.locator("[data-testid=back-button]")).to_have_count(0)
    expect(page.locator("[data-testid=away-0]")).to_have_count(0)
    assert people.requests("POST", rf"^/v1/games/{game_id}/seats/0/back$") == [{}]

    page.click("[data-testid=say-button]")
    assert_no_violations(page, "quick messages")
    page.click("[data-testid=say-good_game]")
    expect(page.locator("[data-testid=bubble-0]")).to_have_text("Good game")
    messages = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()["messages"]
    assert [(m["seat"], m["code"]) for m in messages] == [(0, "good_game")]

    view = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()
    seq, version = view["last_seq"], view["version"]
    news = [("seat_away", {"seat": 1}), ("turn_timed_out", {"seat": 1, "level": "easy"}), ("seat_back", {"seat": 1})]
    people.stream_frames = [
        (kind, {"seq": seq + i, "type": kind, "version": version + i, "data": data})
        for i, (kind, data) in enumerate(news, 1)
    ]
    toasts: list[str] = []
    page.expose_function("noteToast", lambda text: toasts.append(text))
    page.add_init_script(
        "addEventListener('DOMContentLoaded', () => new MutationObserver(() => window.noteToast("
        "document.getElementById('toast').textContent)).observe(document.getElementById('toast'), {childList: true}))"
    )
    page.reload()
    expect(page.locator("[data-testid=toast]")).to_have_text("West is back.")
    assert toasts[-3:] == [
        "West is away: the computer plays for them.",
        "West ran out of time: the computer moved for them.",
        "West is back.",
    ]
    assert page.get_attribute("[data-testid=toast]", "data-place") == "top"  # over the scores, clear of the seats
    assert not page.js_errors


def test_im_back_and_say_wait_for_the_connection_as_the_moves_do(new_page, web):
    """[clocks] `clock.away`. With the network gone nothing could be sent: "I'm back" and "Say" are disabled and
    say why, as the move controls are; back, they work again."""
    game_id, tokens = new_game(web, [HUMAN, HUMAN, EASY, EASY])
    page = new_page(375, 667, bypass_csp=True)
    PeopleApi(page, clock={**CLOCK, "seat": None, "away": [True, False, False, False]}).install()
    hold(page, game_id, 0, tokens[0])
    page.goto(f"/play?game={game_id}&pace=0")
    buttons = [page.locator(f"[data-testid={b}]") for b in ("back-button", "say-button")]
    for button in buttons:
        expect(button).to_be_enabled()
    page.context.set_offline(True)
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-offline", "yes")
    for button in buttons:
        expect(button).to_be_disabled()
        expect(button).to_have_attribute("title", "Reconnecting… This waits until the connection is back.")
    page.context.set_offline(False)
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-offline", "no")
    for button in buttons:
        expect(button).to_be_enabled()
    assert not page.js_errors


def test_the_clock_stands_still_while_the_service_is_out_of_reach_and_gets_the_time_back(new_page, web, screenshots):
    """[clocks] the view's `clock`; the stream answering 503 (the service failing over), then the log events
    clock_credited and turn_clock (a stand-in stream)."""
    game_id, tokens = new_game(web, [HUMAN, HUMAN, EASY, EASY])  # West bids first
    page = new_page(375, 667, bypass_csp=True)
    people = PeopleApi(page, clock=CLOCK, stream_status=503).install()
    hold(page, game_id, 0, tokens[0])
    page.goto(f"/play?game={game_id}&pace=0")
    clock = page.locator("[data-testid=clock-1]")
    expect(clock).to_have_attribute("data-state", "paused")
    expect(clock.locator(".clock-reserve")).to_have_text("paused")
    label = clock.get_attribute("aria-label")
    assert re.fullmatch(r"clock paused with \d+ seconds left: the service is interrupted", label), label
    stood = clock.locator(".clock-main").text_content()
    with page.expect_request(lambda r: "/stream" in r.url):  # the page tries again, a second and more later…
        pass
    assert clock.locator(".clock-main").text_content() == stood, "…and its clock has not moved meanwhile"
    assert_no_violations(page, "a clock paused")
    page.screenshot(path=str(screenshots / "people-clock-paused-375x667.png"))

    view = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()
    seq, version, later = view["last_seq"], view["version"], now_ms() + 80_000
    given = {"seat": 1, "outage_ms": 20_000, "given_ms": 20_000, "back_ms": now_ms()}
    shown = {"seat": 1, "deadline_ms": later, "reserve_ms": 42_000, "move_ms": 25_000, "server_time_ms": now_ms()}
    people.stream_frames = [
        ("clock_credited", {"seq": seq + 1, "type": "clock_credited", "version": version + 1, "data": given}),
        ("turn_clock", {"seq": seq + 2, "type": "turn_clock", "version": version + 1, "data": shown}),
    ]
    people.left_ms = 38_000  # the view read once it is back holds the later deadline too
    people.stream_status = None
    expect(page.locator("[data-testid=toast]")).to_have_text(
        "The service was interrupted: West's clock got 20 seconds back.", timeout=LONG
    )
    expect(clock).not_to_have_attribute("data-state", "paused")
    expect(clock.locator(".clock-main")).to_have_text(re.compile(r"^0:3[0-8]$"))  # 38 s to move, running again
    page.screenshot(path=str(screenshots / "people-clock-given-back-375x667.png"))
    assert not page.js_errors


def test_rematch_at_the_end_goes_to_the_next_game(new_page, web, screenshots):
    """The real server: West (a named player) asks for the rematch first; South's page sees it, by West's name,
    and joins."""
    wendy = requests.post(f"{web}/v1/players", json={"name": f"Wendy {uuid.uuid4().hex[:6]}"}, timeout=30).json()
    over, tokens = finished_game(web, west=wendy["token"])
    page = new_page(375, 667, bypass_csp=True)
    hold(page, over, 0, tokens[0])
    page.goto(f"/play?game={over}&pace=0")
    expect(page.locator("[data-testid=rematch-button]")).to_have_text("Rematch")
    asked = requests.post(f"{web}/v1/games/{over}/rematch", json={}, headers=auth(tokens[1]), timeout=30).json()
    following = asked["game_id"]
    offered = page.locator("[data-testid=rematch-offered]")
    expect(offered).to_have_text(f"{wendy['player']['name']} offered a rematch.", timeout=LONG)  # the view's `rematch`
    expect(page.locator("[data-testid=rematch-button]")).to_have_text("Join the rematch")
    assert_fits(page, {"[data-testid=rematch-button]": 1, "[data-testid=new-game]": 1})
    page.screenshot(path=str(screenshots / "people-rematch-375x667.png"))
    assert_no_violations(page, "rematch offered")
    page.click("[data-testid=rematch-button]")
    expect(page).to_have_url(re.compile(rf"game={following}"))
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", "0", timeout=LONG)
    expect(page.locator("[data-testid=table]")).not_to_have_attribute("data-phase", "waiting", timeout=LONG)
    held = seat_token(page, following)
    assert held["seat"] == 0 and held["token"] not in (tokens[0], asked["token"])
    assert not page.js_errors


def test_a_rejoin_link_takes_the_seat_to_another_device(new_page, web):
    """The real server: a rejoin code made, stopped, made again; the link on a laptop takes the seat
    (the phone's token dies, it watches); the laptop is told when West leaves; a typed code on a
    third device takes it again."""
    game_id, tokens = new_game(web, [HUMAN, HUMAN, EASY, EASY])
    phone = new_page(375, 667, bypass_csp=True)
    hold(phone, game_id, 0, tokens[0])
    phone.goto(f"/play?game={game_id}&pace=0")
    phone.click("[data-testid=rejoin-button]")
    phone.click("[data-testid=rejoin-make]")
    first = phone.locator("[data-testid=rejoin-link]").input_value()
    assert_no_violations(phone, "rejoin dialog")
    assert re.fullmatch(rf"http://[^/]+/play#rejoin={game_id}\.[0-9A-Z]{{4}}-[0-9A-Z]{{4}}-[0-9A-Z]{{4}}", first)
    phone.click("[data-testid=rejoin-revoke]")
    expect(phone.locator("[data-testid=rejoin-stopped]")).to_be_visible()
    phone.click("[data-testid=rejoin-make]")
    expect(phone.locator("[data-testid=rejoin-link]")).not_to_have_value(first)
    link = phone.locator("[data-testid=rejoin-link]").input_value()
    phone.click("[data-testid=rejoin-close]")
    stopped = requests.post(f"{web}/v1/games/{game_id}/rejoin", json={"code": first.rsplit(".", 1)[1]}, timeout=30)
    assert stopped.status_code == 403, "a stopped code takes nothing"

    laptop = new_page()
    laptop.goto(link.replace("/play#", "/play?pace=0#"))
    expect(laptop.locator("[data-testid=table]")).to_have_attribute("data-you", "0", timeout=LONG)
    assert "#" not in laptop.url and "rejoin" not in laptop.url
    held = seat_token(laptop, game_id)
    assert held["seat"] == 0 and held["token"] != tokens[0]
    expect(phone.locator("[data-testid=table]")).to_have_attribute("data-you", "spectator", timeout=LONG)
    expect(phone.locator("[data-testid=message]")).to_contain_text("you are watching")

    requests.post(f"{web}/v1/games/{game_id}/seats/1/leave", json={}, headers=auth(tokens[1]), timeout=30)
    expect(laptop.locator("[data-testid=toast]")).to_have_text("West left the table: a computer plays the seat.")

    laptop.click("[data-testid=rejoin-button]")
    laptop.click("[data-testid=rejoin-make]")
    code = laptop.locator("[data-testid=rejoin-code]").inner_text()
    laptop.click("[data-testid=rejoin-close]")
    desktop = new_page()
    desktop.goto("/play?pace=0")
    desktop.fill("#join", code)
    desktop.click(".join button[type=submit]")
    expect(desktop.locator("[data-testid=table]")).to_have_attribute("data-you", "0", timeout=LONG)
    assert seat_token(desktop, game_id)["token"] not in (tokens[0], held["token"])
    assert not (phone.js_errors or laptop.js_errors or desktop.js_errors)


def test_a_seat_left_from_another_device_turns_this_page_into_a_spectators(new_page, web):
    """The seat's token leaves from elsewhere and a stranger takes the seat: this page's stream ends, the page
    drops the token and watches; the new holder's cards never reach it."""
    game_id, tokens = new_game(web, [HUMAN, HUMAN, EASY, EASY])
    page = new_page(375, 667)
    hold(page, game_id, 0, tokens[0])
    page.goto(f"/play?game={game_id}&pace=0")
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", "0", timeout=LONG)
    left = requests.post(f"{web}/v1/games/{game_id}/seats/0/leave", json={}, headers=auth(tokens[0]), timeout=30)
    assert left.status_code == 200
    claimed = requests.post(f"{web}/v1/games/{game_id}/seats/0/claim", json={}, timeout=30).json()
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-you", "spectator", timeout=LONG)
    expect(page.locator("[data-testid=message]")).to_contain_text("you are watching")
    assert seat_token(page, game_id) is None
    shown = page.locator("[data-testid=hand] [data-focus-key]").evaluate_all(
        "cards => cards.map(c => c.dataset.focusKey)"
    )
    assert not {f"card-{code}" for code in claimed["state"]["hand"]} & set(shown)
    assert not page.js_errors


HIDDEN_TAB = """
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", { get: () => window.__hidden, configurable: true });
Object.defineProperty(Document.prototype, "visibilityState", { get: () => (window.__hidden ? "hidden" : "visible"), configurable: true });
window.__notes = [];
window.Notification = class {
  static permission = "default";
  static requestPermission() { window.Notification.permission = "granted"; return Promise.resolve("granted"); }
  constructor(title, options) { window.__notes.push([title, options.body]); }
  close() {}
};
window.__alerts = [];
document.addEventListener("spades:turn-alert", (e) => window.__alerts.push(e.detail));
"""


def test_a_table_of_people_offers_alerts_at_your_turn_in_one_click(new_page, web, screenshots):
    """At a table of people the status row offers "Alert me" while notifications are neither on nor refused: one
    click asks the browser, turns them on, and the offer goes; a turn in a hidden tab then rings with a sound."""
    game_id, tokens = new_game(web, [HUMAN, HUMAN, EASY, EASY])
    page = new_page(375, 667)
    page.add_init_script(HIDDEN_TAB)
    hold(page, game_id, 0, tokens[0])
    page.goto(f"/play?game={game_id}&pace=0")
    offer = page.locator("[data-testid=alert-me]")
    expect(offer).to_have_text("Alert me", timeout=LONG)
    assert_fits(page, {"[data-testid=alert-me]": 1, "[data-testid=say-button]": 1, "[data-testid=turn]": 1})
    page.screenshot(path=str(screenshots / "people-alert-me-375x667.png"))
    offer.click()
    expect(offer).to_have_count(0)
    settings = page.evaluate("JSON.parse(localStorage.getItem('spades.settings'))")
    assert (settings["notify"], settings["sound"]) == (True, True)


def set_hidden(page: Page, hidden: bool) -> None:
    page.evaluate("(h) => { window.__hidden = h; document.dispatchEvent(new Event('visibilitychange')); }", hidden)


def test_your_turn_is_announced_while_the_tab_is_hidden(new_page):
    """The real server only: Play now against computers with the tab in the background."""
    page = new_page(bypass_csp=True)
    page.add_init_script(HIDDEN_TAB)
    page.goto("/play?pace=300")
    page.click("[data-testid=settings-button]")
    assert_no_violations(page, "settings")
    expect(page.locator("[data-testid=sound]")).to_be_checked()  # on unless turned off
    expect(page.locator("[data-testid=notify]")).not_to_be_checked()  # off until the person allows it
    page.check("[data-testid=notify]")  # asks for the permission from this click
    expect(page.locator("[data-testid=notify]")).to_be_checked()
    page.click("[data-testid=settings-close]")
    assert page.evaluate("JSON.parse(localStorage.getItem('spades.settings'))")["notify"] is True

    page.check("[data-testid=level-easy]")
    set_hidden(page, True)
    page.click("[data-testid=play-now]")  # West, North and East bid first, unseen
    expect(page).to_have_title("● Your turn — Spades", timeout=LONG)
    assert page.get_attribute("link[rel=icon]", "href") == "/play/img/icon-turn.svg"
    assert page.evaluate("window.__notes") == [["Your turn at Spades", "Your turn: bid"]]
    assert page.evaluate("window.__alerts") == [{"text": "Your turn: bid", "sound": True, "notify": True}]

    set_hidden(page, False)  # looked at: back to the plain title, and no second ring for this turn
    expect(page).to_have_title("Spades")
    assert page.get_attribute("link[rel=icon]", "href") == "/play/img/icon.svg"
    set_hidden(page, True)
    expect(page).to_have_title("● Your turn — Spades")
    assert len(page.evaluate("window.__notes")) == 1
    assert not page.js_errors
