"""A small duplicate event in real browsers: two people (two browser contexts, Ada on a laptop, Bea on a phone)
and four bots (players of kind bot made through the API, their moves made by a loop of plain requests in a
thread) in 3 pairs over 2 rounds of 1 deal (the odd field evened by a computer pair: two tables a round).  Ada
creates the event from the events page, with the expert's par, and joins with Bea picked from whom she follows;
Bea accepts on her page; Ada starts it; each round both take their seats with "Play" and play their cards on the
game's page; the event page's standings appear after round 1 and change after round 2; the first board's
scoresheet shows every table with the expert's par (read again until the experts have played it) and a replay
opens from it.  Screenshots of the list, the event and the scoresheet at 1280×720 and 375×667, in English and
Indonesian, go to var/screenshots (docs/web-client.md shows copies of them in docs/img)."""

from __future__ import annotations

import json
import random
import threading

import pytest
import requests
from playwright.sync_api import Page, expect

from .conftest import SCREENSHOTS
from .driver import LONG, click_card, outside, past, table_at, view_of
from .players_api import make_player, play_to_end

pytestmark = pytest.mark.integration

IMG = SCREENSHOTS  # git-ignored; the ones docs/web-client.md shows are copied to docs/img
SIZES = [(1280, 720), (375, 667)]
PAR_WAIT = 300_000  # ms: four expert computers play the round's deal on the one AI worker


def signed_in(new_page, made: dict, width: int, height: int, locale: str = "en-US") -> Page:
    page = new_page(width, height, locale=locale)
    stored = {"id": made["player"]["id"], "name": made["player"]["name"], "kind": "person", "token": made["token"]}
    page.add_init_script(f"localStorage.setItem('spades.player', {json.dumps(json.dumps(stored))})")
    return page


def as_player(made: dict) -> dict[str, str]:
    return {"Player-Token": made["token"]}


def make_bot(base: str, name: str) -> dict:
    """A new bot called ``name`` (with a few letters more if a test before took it): {player, token}."""
    answer = requests.post(f"{base}/v1/players", json={"name": name, "kind": "bot"}, timeout=30)
    if answer.status_code == 409:
        answer = requests.post(
            f"{base}/v1/players", json={"name": f"{name} {random.randrange(10**4)}", "kind": "bot"}, timeout=30
        )
    assert answer.status_code == 201, answer.text
    return answer.json()


def take_seat(base: str, game_id: str, seat: int, player_token: str) -> str:
    """The seat bound to the token's player taken with it (``POST …/seats/{seat}/take``); the seat's token."""
    taken = requests.post(
        f"{base}/v1/games/{game_id}/seats/{seat}/take", json={}, headers={"Player-Token": player_token}, timeout=30
    )
    assert taken.status_code == 200, taken.text
    return taken.json()["token"]


class Bots(threading.Thread):
    """Plays the bots' seats at every table of every round until the event is over: each table the bots sit at
    is played by a thread of its own (random legal moves), which takes the bots' seats with their player tokens."""

    def __init__(self, base: str, event_id: str, bots: list[dict]) -> None:
        super().__init__(name="event-bots", daemon=True)
        self.base, self.event_id = base, event_id
        self.tokens = {b["player"]["id"]: b["token"] for b in bots}
        self.done = threading.Event()
        self.tables: list[threading.Thread] = []
        self.failures: list[BaseException] = []

    def play(self, game_id: str, seats: dict[int, str]) -> None:
        try:
            play_to_end(self.base, game_id, seats, random.Random(game_id))
        except BaseException as failure:  # reported by the test
            self.failures.append(failure)

    def run(self) -> None:
        try:
            self.seat_bots()
        except BaseException as failure:  # reported by the test
            self.failures.append(failure)

    def seat_bots(self) -> None:
        started: set[str] = set()
        while not self.done.is_set():
            event = requests.get(f"{self.base}/v1/events/{self.event_id}", timeout=30).json()
            if event["status"] == "finished":
                return
            for table in event["current_round"]["tables"]:
                if table["game_id"] in started:
                    continue
                started.add(table["game_id"])
                view = requests.get(f"{self.base}/v1/games/{table['game_id']}", timeout=30).json()
                seats = {}
                for seat in view["seats"]:
                    holder = (seat.get("player") or {}).get("id")
                    if holder in self.tokens:
                        seats[seat["seat"]] = take_seat(self.base, table["game_id"], seat["seat"], self.tokens[holder])
                if seats:
                    thread = threading.Thread(target=self.play, args=(table["game_id"], seats), daemon=True)
                    thread.start()
                    self.tables.append(thread)
            self.done.wait(0.3)  # a poll of the event: its next round's tables


def play_game(base: str, game_id: str, pages: dict[int, Page]) -> None:
    """The people's seats of the game played through their pages (the bots and computers move meanwhile) until
    the game is over."""
    while True:
        view = view_of(base, game_id)
        if view["phase"] == "game_over":
            return
        version, seat = view["version"], view["turn"]
        page = pages.get(seat)
        if page is None:  # a bot's or a computer's turn: wait for the game's next event
            requests.get(
                f"{base}/v1/games/{game_id}/events", params={"after": view["last_seq"], "wait": 10}, timeout=30
            )
            continue
        bid, card = (
            f"{table_at(version)} .bid-buttons button",
            f"{table_at(version)} .hand.my-turn .card[data-playable=yes]",
        )
        page.locator(f"{bid}, {card}").or_(page.locator(past(version))).first.wait_for(timeout=LONG)
        if page.locator(bid).count():
            bids = page.locator(bid).evaluate_all("els => els.map(e => Number(e.dataset.bid))")
            page.click(f"{bid}[data-bid='{3 if 3 in bids else next(b for b in bids if b)}']")
        elif page.locator(card).count():
            click_card(page.locator(card).first)


def take_seats(base: str, event_url: str, pages: list[Page], people: list[dict]) -> tuple[str, dict[int, Page]]:
    """Each person clicks "Play" on the event page: its seat taken here, its game opened; the game and the seats."""
    game_id = ""
    for page in pages:
        page.goto(event_url)
        page.click("[data-testid=play-table]")
        page.wait_for_selector("[data-testid=table][data-synced=yes]")
        game_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    seats = {}
    for seat in view_of(base, game_id)["seats"]:
        for page, made in zip(pages, people, strict=True):
            if (seat.get("player") or {}).get("id") == made["player"]["id"]:
                seats[seat["seat"]] = page
    assert len(seats) == 2
    return game_id, seats


def shoot(page: Page, name: str, width: int, height: int) -> None:
    page.screenshot(path=str(IMG / f"{name}-{width}x{height}.png"))


def test_two_people_and_bots_play_a_duplicate_event_in_the_browser(new_page, web):
    ada, bea = make_player(web, "Ada Events"), make_player(web, "Bea Events")
    bots = [make_bot(web, name) for name in ("Robo Rita", "Robo Rex", "Kit Bot", "Kat Bot")]
    follows = requests.put(
        f"{web}/v1/players/me/following/{bea['player']['id']}", json={}, headers=as_player(ada), timeout=30
    )
    assert follows.status_code in (200, 201, 204), follows.text
    ada_page = signed_in(new_page, ada, 1280, 720)
    bea_page = signed_in(new_page, bea, 375, 667)

    # Ada: the lobby's link, the events page, "Create an event"
    ada_page.goto("/play?pace=0")
    ada_page.click("[data-testid=events-link]")
    expect(ada_page.locator("[data-testid=events]")).to_be_visible()
    ada_page.click("[data-testid=event-create-open]")
    ada_page.fill("#event-name", "Club night")
    ada_page.fill("#event-rounds", "2")
    ada_page.fill("#event-deals", "1")
    expect(ada_page.locator("#event-par")).to_be_checked()  # the expert's par on every board
    ada_page.click("[data-testid=event-create-submit]")
    expect(ada_page.locator("[data-testid=event-status]")).to_have_text("Open")
    event_id = ada_page.url.rsplit("/", 1)[1]
    event_url = f"/play?pace=0#/events/{event_id}"

    # Ada joins with Bea, picked from whom she follows; Bea accepts on her phone
    expect(ada_page.locator(f"[data-testid=partner-pick] option[value='{bea['player']['id']}']")).to_have_count(1)
    ada_page.select_option("[data-testid=partner-pick]", bea["player"]["id"])
    ada_page.click("[data-testid=join-event]")
    expect(ada_page.locator("[data-testid=your-pair]")).to_contain_text("Bea Events")
    bea_page.goto(event_url)
    expect(bea_page.locator("[data-testid=invitation]")).to_contain_text("Ada Events")
    bea_page.click("[data-testid=accept-pair]")
    expect(bea_page.locator("[data-testid=your-pair]")).to_contain_text("Ada Events and Bea Events")

    for first, second in (bots[0:2], bots[2:4]):  # the bots' two pairs, through the API
        joined = requests.post(
            f"{web}/v1/events/{event_id}/pairs",
            json={"partner": second["player"]["id"]},
            headers=as_player(first),
            timeout=30,
        )
        assert joined.status_code == 201, joined.text
        accepted = requests.post(
            f"{web}/v1/events/{event_id}/pairs/{joined.json()['pair_id']}/accept",
            json={},
            headers=as_player(second),
            timeout=30,
        )
        assert accepted.status_code == 200, accepted.text
    expect(ada_page.locator("[data-testid=event-pairs] li")).to_have_count(3)  # the page read the event again
    for width, height in SIZES:
        for locale in ("en-US", "id-ID"):
            page = signed_in(new_page, ada, width, height, locale)
            page.goto("/play?pace=0#/events")
            expect(page.locator(f"[data-testid=event-row-{event_id}]")).to_be_visible()
            shoot(page, f"events-list-{locale[:2]}", width, height)
            assert outside(page, f"[data-testid=event-row-{event_id}], [data-testid=event-create-open]") == []
            page.context.close()

    ada_page.click("[data-testid=start-event]")
    expect(ada_page.locator("[data-testid=event-status]")).to_have_text("Playing")
    expect(ada_page.locator("[data-testid=standings-empty]")).to_be_visible()
    bots_thread = Bots(web, event_id, bots)
    bots_thread.start()
    try:
        seen: list[str] = []
        for number in (1, 2):
            for page in (ada_page, bea_page):
                page.goto(event_url)
                expect(page.locator("[data-testid=event-round]")).to_have_attribute(
                    "data-round", str(number), timeout=LONG
                )
                expect(page.locator("[data-testid=play-table]")).to_be_visible()
                assert outside(page, "[data-testid=play-table], [data-testid=your-table]") == []
            if number == 2:  # the event as it runs: round 2, the standings after round 1
                shoot(ada_page, "events-running-en", 1280, 720)
                shoot(bea_page, "events-running-en", 375, 667)
            game_id, seats = take_seats(web, event_url, [ada_page, bea_page], [ada, bea])
            play_game(web, game_id, seats)
            ada_page.goto(event_url)  # back to the event: the standings once both tables have finished the board
            top = str(2 * number)
            expect(ada_page.locator("[data-testid=standing-1] td.num").first).to_contain_text(f"of {top}", timeout=LONG)
            seen.append(ada_page.locator("[data-testid=standings]").inner_text())
        expect(ada_page.locator("[data-testid=event-status]")).to_have_text("Finished", timeout=LONG)
        assert seen[0] != seen[1] and "of 2" in seen[0] and "of 4" in seen[1]  # the standings changed with round 2
        expect(ada_page.locator("[data-testid=standings] tbody tr")).to_have_count(3)  # the computer pair is not ranked
    finally:
        bots_thread.done.set()
        bots_thread.join(timeout=60)
        for table in bots_thread.tables:
            table.join(timeout=LONG / 1000)
    assert not bots_thread.failures, bots_thread.failures

    # the event page and board 1's scoresheet, each size and language; a replay opened from the sheet
    for width, height in SIZES:
        for locale in ("en-US", "id-ID"):
            lang = locale[:2]
            page = signed_in(new_page, ada, width, height, locale)
            page.goto(event_url)
            expect(page.locator("[data-testid=standings] tbody tr")).to_have_count(3)
            shoot(page, f"events-final-{lang}", width, height)
            assert outside(page, "[data-testid=standings], [data-testid=board-link-2]") == []
            page.click("[data-testid=board-link-1]")
            expect(page.locator("[data-testid=scoresheet] tbody")).to_have_count(2)
            expect(page.locator("[data-testid=par-head]")).to_be_visible()
            par = page.locator("[data-testid=scoresheet] [data-testid=par]")
            expect(par.first).not_to_have_text("—", timeout=PAR_WAIT)  # the sheet reads again until the experts played
            expect(page.locator("[data-testid=par-replay]")).to_be_visible()
            pars = par.all_inner_texts()
            assert len(pars) == 4 and "—" not in pars and all("-" not in p for p in pars)
            scores = page.locator("[data-testid=scoresheet] [data-testid=score]").all_inner_texts()
            assert len(scores) == 4 and all("-" not in s for s in scores)  # a negative score has U+2212
            assert all(m not in ("…", "") for m in page.locator("[data-testid=matchpoints]").all_inner_texts())
            shoot(page, f"events-board-{lang}", width, height)
            assert outside(page, "[data-testid=scoresheet], [data-testid=replay-1], [data-testid=replay-2]") == []
            if (width, lang) == (1280, "en"):
                page.click("[data-testid=replay-1]")
                expect(page.locator("[data-testid=replay-table]")).to_be_visible(timeout=LONG)
                shoot(page, "events-replay-en", width, height)
            page.context.close()
