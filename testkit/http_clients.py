"""Simulated players over HTTP, shared by benchmarks and integration tests.

They use only the published contract (requests + the JSON of openapi.yaml),
plus :func:`replay_events`, which checks an event log against the engine,
:class:`EventFollower`, which keeps a whole game's log as it happens, and
:func:`planned_moves`, a whole game's requests worked out with the engine.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import deque
from typing import Any

import requests
import requests.adapters

from services.engine import (
    Bid,
    GameState,
    Look,
    Play,
    apply,
    card_code,
    hand_hidden,
    legal_moves,
    make_rules,
    new_game,
    turn,
)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class _SourceAddress(requests.adapters.HTTPAdapter):
    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


def from_address(session: requests.Session, address: str) -> requests.Session:
    """``session`` with its connections made from ``address`` (a loopback address such as 127.0.0.2: all
    of 127.0.0.0/8 is the loopback interface), so a server on 127.0.0.1 sees a client of that address."""
    session.mount("http://", _SourceAddress(address))
    return session


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


def planned_moves(game_id: str, tokens: list[str], state: GameState) -> deque[tuple[str, bytes, dict[str, str]]]:
    """Every request of a whole game, worked out with the engine before any is
    sent: a move's timing then holds no client-side engine work (which runs on
    the same cores as the servers).  Each seat bids at least 2 when it may and
    plays its first legal card."""
    plan: deque[tuple[str, bytes, dict[str, str]]] = deque()
    while state.phase != "game_over":
        seat = turn(state)
        moves = legal_moves(state, seat)
        move = next((m for m in moves if isinstance(m, Bid) and m.tricks >= 2), moves[0])
        body = {"bid": move.tricks} if isinstance(move, Bid) else {"card": card_code(move.card)}
        path = f"/v1/games/{game_id}/{'bids' if isinstance(move, Bid) else 'plays'}"
        plan.append((path, json.dumps(body).encode(), auth(tokens[seat])))
        state = apply(state, seat, move)
    return plan


def replay_events(rules: dict[str, Any], seed: int, events: list[dict[str, Any]]) -> GameState:
    """The engine state reached by applying every bid/card event in order:
    raises unless each move was legal and is in the log exactly once."""
    overrides = {k: v for k, v in rules.items() if k != "preset"}
    state = new_game(make_rules(rules["preset"], **overrides), seed=seed)
    for event in events:
        data = event["data"]
        if event["type"] == "bid":
            if hand_hidden(state, data["seat"]) and not data.get("blind"):
                state = apply(state, data["seat"], Look())  # the hand_shown event carries no move of its own
            state = apply(state, data["seat"], Bid(data["bid"], blind=data.get("blind", False)))
        elif event["type"] == "card_played":
            state = apply(state, data["seat"], Play(state.rules.deck.parse(data["card"])))
    return state


class EventFollower(threading.Thread):
    """Long-polls a game's events from its start and keeps every one, as a client that never falls
    behind: the server keeps only the last rounds' events, so one read at the end of a long game
    would find only those.  Read failures (a killed API worker, a 503) are retried after a short pause.

    ``start()`` it before the game moves (or enter it: ``with EventFollower(...) as follower``);
    :meth:`finish` returns the events once ``game_over`` was seen, or, when asked to stop first, once a
    last read found nothing new.  :meth:`close` (the ``with`` block's end) stops it whatever it has read:
    a follower left running would poll a stopped server for the rest of the process."""

    RETRY_PAUSE = 0.05  # seconds between a failed read and the next: a server that is down is not spun on

    def __init__(self, base: str, game_id: str, token: str | None = None) -> None:
        super().__init__(daemon=True, name=f"EventFollower-{game_id}")
        self.url = f"{base}/v1/games/{game_id}/events"
        self.headers = auth(token) if token else {}
        self.events: list[dict[str, Any]] = []
        self.problem: dict[str, Any] | None = None  # a 4xx answer ends the follower (e.g. 410 too_far_behind)
        self._stopping = threading.Event()
        self._closed = threading.Event()

    def __enter__(self) -> EventFollower:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def run(self) -> None:
        with requests.Session() as http:
            while not self._closed.is_set():
                stopping = self._stopping.is_set()
                after = self.events[-1]["seq"] if self.events else 0
                try:
                    params = {"after": after, "wait": 0 if stopping else 1}
                    response = http.get(self.url, params=params, headers=self.headers, timeout=10)
                except requests.RequestException:
                    self._closed.wait(self.RETRY_PAUSE)
                    continue
                if 400 <= response.status_code < 500:
                    self.problem = response.json()
                    return
                if response.status_code != 200:
                    self._closed.wait(self.RETRY_PAUSE)
                    continue
                page = response.json()["events"]
                self.events += page
                if (page and page[-1]["type"] == "game_over") or (stopping and not page):
                    return

    def finish(self, timeout: float = 120.0) -> list[dict[str, Any]]:
        self._stopping.set()
        self.join(timeout)
        assert not self.is_alive(), "the event follower did not finish"
        assert self.problem is None, f"the event follower was refused: {self.problem}"
        return self.events

    def close(self, timeout: float = 15.0) -> None:
        """Stop following without waiting for the game: after the read in flight (at most its 10 s timeout)."""
        self._closed.set()
        if self.is_alive():
            self.join(timeout)
