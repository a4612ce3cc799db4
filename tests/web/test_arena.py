"""An arena in real browsers: two people (Ada on a laptop in English, Bea on a phone in Indonesian) and two bots
(players of kind bot made through the API, their game played by plain requests in a thread).  Ada creates the
arena from the events page (format Arena, 30 minutes, partners drawn each game, one deal a game); Ada and Bea
join on its page and the bots through the API; Ada starts it; the pairing seats the four at one table, each
person's page shows "Play", both play their cards on the game's page, and back on the arena's page the
standings show the game scored: 2 points to each winner, 0 to each loser, in the order the API gives.
Screenshots of the arena as it starts and after the game at 1280×720 and 375×667, in English and Indonesian, go
to var/screenshots (docs/web-client.md shows copies of them in docs/img)."""

from __future__ import annotations

import random
import threading

import pytest
import requests
from playwright.sync_api import expect

from .driver import LONG, outside
from .players_api import make_player, play_to_end
from .test_events import SIZES, as_player, make_bot, play_game, shoot, signed_in, take_seat, take_seats

pytestmark = pytest.mark.integration


class ArenaBots(threading.Thread):
    """The bots' next game: each bot reads its entrant until it is paired, takes its seat, and the bots' seats
    are played to the end (random legal moves) by this thread."""

    def __init__(self, base: str, event_id: str, bots: list[dict]) -> None:
        super().__init__(name="arena-bots", daemon=True)
        self.base, self.event_id, self.bots = base, event_id, bots
        self.failures: list[BaseException] = []

    def run(self) -> None:
        try:
            seats: dict[int, str] = {}
            game_id = ""
            for bot in self.bots:
                entrant = {"status": "waiting"}
                while entrant["status"] != "playing":  # each read moves the arena on
                    url = f"{self.base}/v1/events/{self.event_id}/entrants/{bot['player']['id']}"
                    entrant = requests.get(url, timeout=30).json()
                game_id = entrant["game_id"]
                seats[entrant["seat"]] = take_seat(self.base, game_id, entrant["seat"], bot["token"])
            play_to_end(self.base, game_id, seats, random.Random(game_id))
        except BaseException as failure:  # reported by the test
            self.failures.append(failure)


def test_two_people_and_two_bots_play_an_arena_game_in_the_browser(new_page, web):
    ada, bea = make_player(web, "Ada Arena"), make_player(web, "Bea Arena")
    bots = [make_bot(web, name) for name in ("Robo Ari", "Robo Ina")]
    ada_page = signed_in(new_page, ada, 1280, 720)
    bea_page = signed_in(new_page, bea, 375, 667, "id-ID")

    ada_page.goto("/play?pace=0#/events")
    ada_page.click("[data-testid=event-create-open]")
    ada_page.fill("#event-name", "Friday arena")
    ada_page.select_option("[data-testid=event-format]", "arena")
    expect(ada_page.locator("#event-rounds")).to_be_hidden()  # a duplicate event's fields give way to the arena's
    expect(ada_page.locator("[data-testid=event-clock]")).to_have_value("normal")  # an arena needs a clock
    ada_page.fill("#event-minutes", "30")
    ada_page.select_option("[data-testid=event-seating]", "partners")
    ada_page.fill("#event-deals", "1")
    ada_page.click("[data-testid=event-create-submit]")
    expect(ada_page.locator("[data-testid=event][data-format=arena]")).to_be_visible()
    expect(ada_page.locator("[data-testid=event-status]")).to_have_text("Open")
    event_id = ada_page.url.rsplit("/", 1)[1]
    event_url = f"/play?pace=0#/events/{event_id}"
    summary = requests.get(f"{web}/v1/events/{event_id}", timeout=30).json()
    assert (summary["format"], summary["minutes"], summary["seating"], summary["deals_per_round"], summary["clock"]) == (
        "arena", 30, "partners", 1, "normal",
    )  # fmt: skip

    ada_page.click("[data-testid=join-arena]")
    expect(ada_page.locator("[data-testid=your-entrant]")).to_have_attribute("data-status", "waiting")
    bea_page.goto(event_url)
    bea_page.click("[data-testid=join-arena]")
    expect(bea_page.locator("[data-testid=your-entrant]")).to_contain_text("Menunggu meja")
    for bot in bots:
        joined = requests.post(f"{web}/v1/events/{event_id}/entrants", json={}, headers=as_player(bot), timeout=30)
        assert joined.status_code == 201, joined.text
    expect(ada_page.locator("[data-testid=standings] tbody tr")).to_have_count(4)  # the page read the arena again

    bots_thread = ArenaBots(web, event_id, bots)
    ada_page.click("[data-testid=start-event]")
    expect(ada_page.locator("[data-testid=event-status]")).to_have_text("Playing")
    bots_thread.start()
    for page, left in ((ada_page, "left"), (bea_page, "Sisa")):
        expect(page.locator("[data-testid=play-table]")).to_be_visible(timeout=LONG)
        expect(page.locator("[data-testid=arena-clock]")).to_contain_text(left)  # its time left, by the second
        assert outside(page, "[data-testid=play-table], [data-testid=standings]") == []
    shoot(ada_page, "arena-running-en", 1280, 720)
    shoot(bea_page, "arena-running-id", 375, 667)

    game_id, seats = take_seats(web, event_url, [ada_page, bea_page], [ada, bea])
    play_game(web, game_id, seats)
    bots_thread.join(timeout=LONG / 1000)
    assert not bots_thread.is_alive() and not bots_thread.failures, bots_thread.failures

    final = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()
    winners = {
        s["player"]["id"] for s in final["seats"] if final["scores"][s["seat"] % 2] > final["scores"][1 - s["seat"] % 2]
    }
    ada_page.goto(event_url)
    rows = ada_page.locator("[data-testid=standings] tbody tr")
    expect(rows.first.locator("[data-testid=points]")).to_have_text("2" if winners else "1", timeout=LONG)
    standings = requests.get(f"{web}/v1/events/{event_id}/standings", timeout=30).json()["standings"]
    assert [r["player_id"] for r in standings] == rows.evaluate_all("els => els.map(e => e.dataset.player)")
    assert {r["player_id"]: r["points"] for r in standings} == {
        s["player"]["id"]: (2 if s["player"]["id"] in winners else 0 if winners else 1) for s in final["seats"]
    }
    assert all(r["games"] == 1 for r in standings)
    for width, height in SIZES:
        for locale in ("en-US", "id-ID"):
            page = signed_in(new_page, ada, width, height, locale)
            page.goto(event_url)
            expect(page.locator("[data-testid=standings] tbody tr")).to_have_count(4)
            expect(page.locator("[data-testid=your-entrant]")).to_have_attribute("data-status", "waiting")
            shoot(page, f"arena-scored-{locale[:2]}", width, height)
            assert outside(page, "[data-testid=standings], [data-testid=your-entrant]") == []
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "no sideways scroll"
            page.context.close()
    assert not ada_page.js_errors and not bea_page.js_errors
