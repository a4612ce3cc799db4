"""A profile's recent games on the real stack (gunicorn, the AI worker, the records database): Ada plays a
partnership game with a computer partner against Bea (a person with a name) and a computer, and an individual
game against three computers, both through the API; her profile then lists each game with its final score
from her seat (her side's first, or her own points in individual play), her partner and opponents by name (a
computer by its level), won or lost, and a link to its replay. It fits a phone without sideways scrolling and
axe-core finds nothing on it (screenshots: var/screenshots/profile-games-*)."""

from __future__ import annotations

import random

import pytest
import requests
from playwright.sync_api import expect

from tests.api.helpers import wait_until

from .axe import assert_no_violations
from .players_api import make_player, play_to_end

pytestmark = pytest.mark.integration

MINUS = "\u2212"


def shown(n: int) -> str:
    """A score as the page writes it: a true minus sign."""
    return f"{MINUS}{-n}" if n < 0 else str(n)


def played(base: str, host: dict, preset: str, seats: list[dict], claims: dict[int, dict], rng) -> str:
    """A game to 1 point (one or two rounds) created by ``host`` on seat 0, the ``claims`` (seat -> player)
    claimed with their player tokens, played to its end through the API; its id."""
    body = {"rules": {"preset": preset, "win_score": 1}, "seats": seats, "options": {"hints": False, "clock": "none"}}
    created = requests.post(f"{base}/v1/games", json=body, headers={"Player-Token": host["token"]}, timeout=30)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    tokens = {0: created.json()["seats"][0]["token"]}
    for seat, player in claims.items():
        claim = f"{base}/v1/games/{game_id}/seats/{seat}/claim"
        claimed = requests.post(claim, headers={"Player-Token": player["token"]}, timeout=30)
        assert claimed.status_code == 200, claimed.text
        tokens[seat] = claimed.json()["token"]
    return play_to_end(base, game_id, tokens, rng)


def test_a_profile_lists_each_game_with_its_score_partner_opponents_result_and_replay(new_page, web, screenshots):
    rng = random.Random(47)
    ada, bea = make_player(web, "Ada Games"), make_player(web, "Bea Games")
    me = ada["player"]["id"]
    human, open_seat = {"type": "human", "player": True}, {"type": "open"}
    computer = lambda level: {"type": "ai", "level": level}  # noqa: E731
    team = played(web, ada, "partnership", [human, open_seat, computer("hard"), computer("easy")], {1: bea}, rng)
    alone = played(web, ada, "individual", [human, computer("basic"), computer("easy"), computer("hard")], {}, rng)
    listed = lambda: requests.get(f"{web}/v1/players/{me}/games", timeout=30).json()["games"]  # noqa: E731
    wait_until(lambda: len(listed()) == 2, "both games reach Ada's list once recorded")
    games = {game["game_id"]: game for game in listed()}
    scores = {g: requests.get(f"{web}/v1/games/{g}/record", timeout=30).json()["result"]["scores"] for g in games}

    page = new_page(1280, 720, bypass_csp=True)  # axe
    page.goto(f"/play#/players/{me}")
    for game_id, score, people in (
        (team, f"{shown(scores[team][0])}–{shown(scores[team][1])}", f"with Computer · hard · against {bea['player']['name']} and Computer · easy"),
        (alone, f"{shown(scores[alone][0])} point{'' if scores[alone][0] == 1 else 's'}", "against Computer · basic, Computer · easy, and Computer · hard"),
    ):  # fmt: skip
        item = page.locator(f"[data-testid=game-{game_id}]")
        expect(item.locator(".game-result")).to_have_text("Won" if games[game_id]["won"] else "Lost")
        expect(item.locator(f"[data-testid=score-{game_id}]")).to_have_text(score)
        expect(item.locator(f"[data-testid=people-{game_id}]")).to_have_text(people)
        expect(item.locator(f"[data-testid=replay-{game_id}]")).to_have_attribute(
            "href", f"/play#/replay/{game_id}?seat=0"
        )
    assert_no_violations(page, "a profile's recent games")
    page.locator("[data-testid=games]").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "profile-games-1280x720.png"))

    page.set_viewport_size({"width": 375, "height": 667})
    expect(page.locator(f"[data-testid=people-{team}]")).to_be_visible()
    sideways = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert sideways[0] <= sideways[1], f"the recent games scroll sideways on a phone: {sideways}"
    assert_no_violations(page, "a profile's recent games on a phone")
    page.locator("[data-testid=games]").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "profile-games-375x667.png"))

    page.click(f"[data-testid=replay-{team}]")  # the replay of that game, as Ada saw it
    expect(page.locator("[data-testid=replay]")).to_be_visible()
