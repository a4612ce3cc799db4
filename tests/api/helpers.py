"""Small helpers shared by the API tests: create games, auth headers, engine comparison."""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import requests
from prometheus_client.parser import text_string_to_metric_families

from services.engine import GameState, make_rules, new_game, view
from testkit.http_clients import auth, planned_moves  # noqa: F401 - auth re-exported for the API tests
from testkit.stored import stored_state  # noqa: F401 - re-exported for the API tests

API_ONLY_FIELDS = (
    "game_id",
    "version",
    "seats",
    "options",
    "seeded",
    "last_seq",
    "rematch",
    "reserved",
    "messages",
    "clock",
    "server_time_ms",
)


def holds_within(condition: Callable[[], object], bound: float) -> bool:
    """Whether ``condition()`` comes to hold within ``bound`` seconds (checked every 20 ms)."""
    deadline = time.monotonic() + bound
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True


def wait_until(condition: Callable[[], object], failure: str, bound: float = 60.0) -> None:
    """Return once ``condition()`` holds; fail with ``failure`` after ``bound`` seconds.

    Tests wait on something observable this way, never on a fixed sleep; the bound is
    generous, only there so a broken run ends rather than hangs."""
    assert holds_within(condition, bound), failure


def waiting(base: str) -> dict[str, float]:
    """The fan-out hubs' gauges from ``/metrics`` (summed over the live workers): waiting clients
    (``listeners``) and subscribed games (``subscriptions``)."""
    text = requests.get(f"{base}/metrics", timeout=10).text
    found = {"listeners": 0.0, "subscriptions": 0.0}
    for family in text_string_to_metric_families(text):
        for name in found:
            if family.name == f"spades_fanout_{name}":
                found[name] = sum(sample.value for sample in family.samples)
    return found


def ai_results(base: str) -> dict[str, float]:
    """The AI result listener's figures from ``/metrics`` (summed over the live workers): turns sent
    (``sent``), results received by kind (``decision``, ``abandoned_hint``, ``unclaimed``) and result
    channels subscribed now (``subscriptions``)."""
    text = requests.get(f"{base}/metrics", timeout=10).text
    found = {"sent": 0.0, "decision": 0.0, "abandoned_hint": 0.0, "unclaimed": 0.0, "subscriptions": 0.0}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "spades_ai_decisions_sent_total":
                found["sent"] += sample.value
            elif sample.name == "spades_ai_results_received_total":
                found[sample.labels["kind"]] += sample.value
            elif sample.name == "spades_ai_result_subscriptions":
                found["subscriptions"] += sample.value
    return found


def create_game(
    session,
    rules: dict[str, Any] | None = None,
    seats: list[dict] | None = None,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
):
    """A game the test drives at its own pace: without a turn clock unless ``options`` gives one (the clocks'
    own tests: tests/api/test_turn_clocks.py), so no timeout moves for it, and no ``turn_clock`` entries."""
    body: dict[str, Any] = {"rules": rules or {"preset": "partnership"}, "options": options or {"clock": "none"}}
    if seats is not None:
        body["seats"] = seats
    if seed is not None:
        body["seed"] = seed
    response = session.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def engine_part(api_view: dict[str, Any]) -> dict[str, Any]:
    """The API view without the fields the API adds on top of the engine's view."""
    return {k: v for k, v in api_view.items() if k not in API_ONLY_FIELDS}


def assert_matches_engine(api_view: dict[str, Any], state: GameState, seat: int | None) -> None:
    expected = view(state, seat)
    assert engine_part(api_view) == expected


def choose_move(api_view: dict[str, Any], rng: random.Random, bidding: str = "modest") -> tuple[str, dict[str, Any]]:
    """A legal move from a seat's view: a modest (1-4) or the highest bid, or a random legal card."""
    legal = api_view["legal"]
    assert legal, "asked to move with nothing legal"
    if api_view["phase"] == "bidding":
        if bidding == "high":
            return "bids", {"bid": max(legal)}
        modest = [b for b in legal if 1 <= b <= 4] or legal
        return "bids", {"bid": rng.choice(modest)}
    return "plays", {"card": rng.choice(legal)}


def hands_visible_in(obj: Any) -> set[str]:
    """Every card code found under a 'hand' key anywhere in a JSON document."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "hand" and isinstance(value, list):
                found.update(value)
            else:
                found |= hands_visible_in(value)
    elif isinstance(obj, list):
        for item in obj:
            found |= hands_visible_in(item)
    return found


def planned_game(session, seed: int) -> tuple[dict[str, Any], deque]:
    """A four-human partnership game and every request of it, worked out with the engine
    (:func:`testkit.http_clients.planned_moves`: bids of at least 2, the first legal card)."""
    created = create_game(session, seats=[{"type": "human"}] * 4, seed=seed)
    tokens = [s["token"] for s in created["seats"]]
    return created, planned_moves(created["game_id"], tokens, new_game(make_rules("partnership"), seed))


def play_planned(session, plan: deque, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Send the plan's moves until a response view satisfies ``until``; returns that view."""
    while True:
        path, body, headers = plan.popleft()
        response = session.post(path, data=body, headers={**headers, "Content-Type": "application/json"})
        assert response.status_code == 200, response.text
        if until(response.json()):
            return response.json()
