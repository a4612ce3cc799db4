"""Simulated players over HTTP, shared by benchmarks and integration tests.

They use only the published contract (requests + the JSON of openapi.yaml),
plus :func:`replay_events`, which checks an event log against the engine.
"""

from __future__ import annotations

import random
import time
from typing import Any

import requests

from services.engine import Bid, GameState, Play, apply, make_rules, new_game, parse_card


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def random_move(http: requests.Session, base: str, game_id: str, token: str, rng: random.Random) -> requests.Response:
    """Read the seat's view and make a uniformly random legal move."""
    view = http.get(f"{base}/v1/games/{game_id}", headers=auth(token), timeout=10).json()
    choice = rng.choice(view["legal"])
    path, body = ("bids", {"bid": choice}) if view["phase"] == "bidding" else ("plays", {"card": choice})
    return http.post(f"{base}/v1/games/{game_id}/{path}", json=body, headers=auth(token), timeout=10)


def wait_for_turn(http: requests.Session, base: str, game_id: str, seat: int, timeout: float = 60.0) -> dict[str, Any]:
    """The spectator view once ``seat`` is to move (or the game is over)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = http.get(f"{base}/v1/games/{game_id}", timeout=10).json()
        if view["turn"] == seat or view["phase"] == "game_over":
            return view
        time.sleep(0.02)
    raise TimeoutError(f"seat {seat} never got the turn")


def replay_events(rules: dict[str, Any], seed: int, events: list[dict[str, Any]]) -> GameState:
    """The engine state reached by applying every bid/card event in order:
    raises unless each move was legal and is in the log exactly once."""
    overrides = {k: v for k, v in rules.items() if k != "preset"}
    state = new_game(make_rules(rules["preset"], **overrides), seed=seed)
    for event in events:
        data = event["data"]
        if event["type"] == "bid":
            state = apply(state, data["seat"], Bid(data["bid"]))
        elif event["type"] == "card_played":
            state = apply(state, data["seat"], Play(parse_card(data["card"])))
    return state
