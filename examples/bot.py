"""A third-party Spades bot that uses only the published contract (openapi.yaml).

    python examples/bot.py --api http://127.0.0.1:8000 --game <game_id> [--seat 2]

It claims an open seat (the first one, or ``--seat``), then loops: long-poll
``/events`` (from its view's ``last_seq``; after a ``410 too_far_behind``, from
a fresh view's) until something happens, read its view, and when ``turn`` is its
own seat, bid or play.  Every move carries ``If-Match`` (the version it saw)
and an ``Idempotency-Key``, so a retry after a network error is safe and a
stale move is refused instead of misapplied.  A ``429`` (rate limited) or
``503`` (briefly unavailable) answer is retried after its ``Retry-After``.

Its strategy is deliberately simple: bid one trick per ace, king and spade
beyond the third; play the lowest card that wins the trick when a partner
isn't already winning it, else the lowest legal card.  Needs only
``requests``.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from typing import Any

import requests

RANKS = "23456789TJQKA"
RETRY_STATUSES = (429, 503)
MAX_RETRIES = 20


def rank(card: str) -> int:
    return RANKS.index(card[0])


def beats(card: str, best: str) -> bool:
    """Whether ``card`` beats ``best`` in a trick (spades are trump)."""
    if card[1] == best[1]:
        return rank(card) > rank(best)
    return card[1] == "S"


def winning_play(trick: list[dict[str, Any]]) -> dict[str, Any] | None:
    best = None
    for play in trick:
        if best is None or beats(play["card"], best["card"]):
            best = play
    return best


def choose_bid(view: dict[str, Any]) -> int:
    hand = view["hand"]
    spades = [c for c in hand if c[1] == "S"]
    estimate = sum(c[0] in "AK" for c in hand) + max(0, len(spades) - 3)
    legal = view["legal"]
    non_nil = [b for b in legal if b > 0] or legal
    return min(non_nil, key=lambda b: (abs(b - estimate), b))


def choose_card(view: dict[str, Any]) -> str:
    legal = sorted(view["legal"], key=lambda c: (rank(c), c[1]))
    trick = view["trick"]
    best = winning_play(trick)
    partnership = view["rules"]["scoring"] == "partnership"
    if best is not None and partnership and (best["seat"] - view["you"]) % 4 == 2:
        return legal[0]  # partner is winning: don't overtake
    winners = [c for c in legal if best is None or beats(c, best["card"])]
    return winners[0] if winners else legal[0]


class Bot:
    def __init__(self, api: str, game_id: str, timeout: float = 40.0) -> None:
        self.api = api.rstrip("/")
        self.game_id = game_id
        self.http = requests.Session()
        self.timeout = timeout
        self.token: str | None = None
        self.seat: int | None = None

    def url(self, path: str = "") -> str:
        return f"{self.api}/v1/games/{self.game_id}{path}"

    def request(self, method: str, path: str = "", **kwargs: Any) -> requests.Response:
        """One call, repeated after ``Retry-After`` while the service answers 429 or 503.

        A repeated move is safe: it carries the same ``Idempotency-Key`` and ``If-Match``."""
        for _ in range(MAX_RETRIES):
            response = self.http.request(method, self.url(path), timeout=self.timeout, **kwargs)
            if response.status_code not in RETRY_STATUSES:
                return response
            retry_after = response.headers.get("Retry-After", "1")
            time.sleep(min(60, int(retry_after) if retry_after.isdigit() else 1))
        return response

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def claim(self, seat: int | None = None) -> int:
        if seat is None:
            response = self.request("GET")
            response.raise_for_status()
            seats = response.json()["seats"]
            seat = next(s["seat"] for s in seats if s["type"] == "open")
        response = self.request("POST", f"/seats/{seat}/claim", json={})
        response.raise_for_status()
        self.token, self.seat = response.json()["token"], seat
        return seat

    def view(self) -> dict[str, Any]:
        response = self.request("GET", headers=self.headers())
        response.raise_for_status()
        return response.json()

    def move(self, view: dict[str, Any]) -> None:
        if view["phase"] == "bidding":
            path, body = "/bids", {"bid": choose_bid(view)}
        else:
            path, body = "/plays", {"card": choose_card(view)}
        headers = {**self.headers(), "If-Match": f'"{view["version"]}"', "Idempotency-Key": uuid.uuid4().hex}
        response = self.request("POST", path, json=body, headers=headers)
        if response.status_code in (409, 412):
            return  # the game moved on under us: read it again
        response.raise_for_status()

    def play(self, max_polls: int = 100_000) -> dict[str, Any]:
        """Play until the game is over; returns the final view."""
        after = None
        for _ in range(max_polls):
            view = self.view()
            if view["phase"] == "game_over":
                return view
            if after is None:
                after = view["last_seq"]  # follow from the view, not from 0: the log keeps only the last rounds
            if view["turn"] == self.seat and view["legal"]:
                self.move(view)
                continue
            response = self.request("GET", "/events", params={"after": after, "wait": 30}, headers=self.headers())
            if response.status_code == 410:  # too_far_behind: resume from the next view's last_seq
                after = None
                continue
            response.raise_for_status()
            events = response.json()["events"]
            if events:
                after = events[-1]["seq"]
        raise RuntimeError("the game did not end")


def main() -> int:
    parser = argparse.ArgumentParser(description="Claim an open seat and play it to the end.")
    parser.add_argument("--api", default="http://127.0.0.1:8000")
    parser.add_argument("--game", required=True, help="game id")
    parser.add_argument("--seat", type=int, default=None, help="seat to claim (default: the first open one)")
    args = parser.parse_args()
    bot = Bot(args.api, args.game)
    seat = bot.claim(args.seat)
    print(f"playing seat {seat} of game {args.game}", file=sys.stderr)
    final = bot.play()
    print(f"game over: scores {final['scores']}, winner seats {final['winner']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
