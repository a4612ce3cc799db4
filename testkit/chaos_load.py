"""The chaos drill's load: people against computers, tables of people, and bots through ``spades_client``, all
over HTTP on loopback.

* **people against computers**: a thread creates a game of one or two human seats and computers of random
  levels, plays its human seats to the end (a random legal move after a short think), reads the game's record,
  and starts another;
* **tables of people**: four human seats, each played by a thread of its own (a person per seat);
* **bots**: ``spades_client``'s :class:`~spades_client.runner.GamePlayer` (the runner's game loop: a push
  stream, ``If-Match`` and an ``Idempotency-Key`` per move) plays two seats of a game against two computers;
* **games at rest** (``resting``, none by default): created before the rest starts (four people's seats, no clock,
  to 500), then one thread visits one at random at a time and makes its next move.  They are many games each
  moving rarely, as most of a big store's are: their keys are in many slots, which a resharding drill moves
  while they are played.  They are not watched for stalls (nobody sits at them between visits).

Every session records what it is answered (:class:`~testkit.chaos_observations.Observations`).  A move is
retried with its ``Idempotency-Key`` after a lost connection, a 5xx or a 429, for at most ``RETRY_SECONDS``;
then the player gives up (and the game counts as left by its player).
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import requests

from spades_client.client import SpadesClient
from spades_client.models import GameView
from spades_client.runner import GamePlayer, Tally

from .chaos_observations import Observations

LEVELS = ("easy", "basic", "normal", "standard", "pro", "hard", "expert")
RETRY_SECONDS = 90.0  # a move (or read) retried this long at most, then the player gives up
WAIT_SECONDS = 2  # a long poll's wait (a player told to stop notices within it)


def rules(win_score: int) -> tuple[dict[str, Any], ...]:
    """The two kinds of game: partnership (to ``win_score`` or down to minus it) and individual (cutthroat)."""
    return (
        {"preset": "partnership", "win_score": win_score, "lose_score": -win_score},
        {"preset": "individual", "win_score": win_score},
    )


class GaveUp(Exception):
    """A request kept failing for ``RETRY_SECONDS``."""


def choose(legal: list[Any], rng: random.Random) -> Any:
    """A random legal move, bids of 1 to 4 when there are any (random bids would set every contract)."""
    bids = [m for m in legal if isinstance(m, int) and 1 <= m <= 4]
    return rng.choice(bids or legal)


@dataclass
class LoadSettings:
    people: int = 3  # threads each playing games of people against computers
    tables: int = 1  # tables of four people (a thread a seat)
    bots: int = 2  # bot games at once
    think: tuple[float, float] = (0.05, 0.3)  # a person's seconds before a move
    win_score: int = 100  # short games: most end in two or three rounds
    resting: int = 0  # games at rest (see the module docstring)


class Seats:
    """A person (or two partners) at one game: plays its seats until the game is over or the run stops."""

    def __init__(self, http: requests.Session, base: str, game_id: str, tokens: dict[int, str],
                 rng: random.Random, think: tuple[float, float], stop: threading.Event) -> None:  # fmt: skip
        self.http, self.base, self.game_id, self.tokens = http, base, game_id, tokens
        self.rng, self.think, self.stop = rng, think, stop
        self.url = f"{base}/v1/games/{game_id}"

    def play(self) -> bool:
        """True once the game is over; False when the run stopped first."""
        while not self.stop.is_set():
            view, mine = self.look()
            if view["phase"] == "game_over":
                return True
            if mine is not None:
                time.sleep(self.rng.uniform(*self.think))
                self.move(mine)
                continue
            self._wait(view["last_seq"])
        return False

    def look(self) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The game as the first of these seats sees it, and the view of the seat to move when it is one of these
        (None when it is not, or the game is over)."""
        seat, token = next(iter(self.tokens.items()))
        view = self._send("GET", self.url, headers={"Authorization": f"Bearer {token}"}).json()
        if view["phase"] != "game_over" and view["turn"] in self.tokens:
            mine = view if view["turn"] == seat else self._view(view["turn"])
            if mine["turn"] == mine["you"] and mine["legal"]:
                return view, mine
        return view, None

    def _view(self, seat: int) -> dict[str, Any]:
        return self._send("GET", self.url, headers={"Authorization": f"Bearer {self.tokens[seat]}"}).json()

    def move(self, view: dict[str, Any]) -> None:
        """A random legal move of the seat whose view this is, with its own ``Idempotency-Key``."""
        move = choose(view["legal"], self.rng)
        path, body = ("bids", {"bid": move}) if view["phase"] == "bidding" else ("plays", {"card": move})
        headers = {
            "Authorization": f"Bearer {self.tokens[view['you']]}",
            "Idempotency-Key": uuid.uuid4().hex,
            "If-Match": f'"{view["version"]}"',
        }
        # 409 not_your_turn or 412 version_conflict: the game moved meanwhile (a race); the caller reads it again
        self._send("POST", f"{self.url}/{path}", json=body, headers=headers, done=(409, 412))

    def _wait(self, after: int) -> None:
        """Until the game moves past ``after`` (a long poll; a 410 or a failure just ends the wait)."""
        try:
            self.http.get(
                f"{self.url}/events", params={"after": after, "wait": WAIT_SECONDS}, timeout=WAIT_SECONDS + 10
            )
        except requests.RequestException:
            time.sleep(0.2)

    def _send(self, method: str, url: str, done: tuple[int, ...] = (), **kwargs: Any) -> requests.Response:
        """The request, again (same headers and body) after a lost connection, a 5xx or a 429, for at most
        ``RETRY_SECONDS``."""
        deadline, pause = time.monotonic() + RETRY_SECONDS, 0.1
        while True:
            try:
                response = self.http.request(method, url, timeout=15, **kwargs)
                if response.ok or response.status_code in done:
                    return response
                if response.status_code < 500 and response.status_code != 429:
                    raise RuntimeError(f"{method} {url}: {response.status_code} {response.text[:200]}")
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise GaveUp(f"{method} {url}")
            time.sleep(pause)
            pause = min(1.0, pause * 2)


class Load:
    """The whole load (see the module docstring) against ``bases`` (each game on one, picked at random)."""

    def __init__(self, bases: list[str], observations: Observations, settings: LoadSettings, seed: int) -> None:
        self.bases, self.obs, self.settings = bases, observations, settings
        self.rng = random.Random(seed)
        self.stop_creating = threading.Event()  # no new games; the ones in play are played on
        self.stop = threading.Event()  # every player leaves
        self.threads: list[threading.Thread] = []
        self.tally = Tally()  # the bots' runner figures
        self.finished: Counter = Counter()

    def start(self) -> None:
        """The games at rest created (this takes a while), then every thread started."""
        resting = self._create_resting()
        loops = [(self._people, "people")] * self.settings.people + [(self._table, "table")] * self.settings.tables
        loops += [(self._bots, "bots")] * self.settings.bots
        if resting:
            thread = threading.Thread(target=self._visit, args=(resting,), name="chaos-resting", daemon=True)
            self.threads.append(thread)
            thread.start()
        for index, (loop, name) in enumerate(loops):
            rng = random.Random(self.rng.random())
            thread = threading.Thread(target=self._guarded, args=(loop, rng), name=f"chaos-{name}-{index}", daemon=True)
            self.threads.append(thread)
            thread.start()

    def _guarded(self, loop: Callable[[random.Random], None], rng: random.Random) -> None:
        """A loop of games; a game whose player gave up (or failed) is counted and the next one started."""
        while not self.stop_creating.is_set():
            try:
                loop(rng)
            except Exception as error:
                with self.obs.lock:
                    self.obs.left[type(error).__name__] += 1
                time.sleep(0.5)

    def _create(self, http: requests.Session, base: str, seats: list[dict[str, Any]], rng: random.Random) -> dict:
        body = {"rules": rng.choice(rules(self.settings.win_score)), "seats": seats}
        response = http.post(f"{base}/v1/games", json=body, timeout=15)  # not resent: a lost answer is a lost game
        if response.status_code != 201:
            raise RuntimeError(f"create: {response.status_code} {response.text[:200]}")
        return response.json()

    def _create_resting(self) -> list[tuple[str, str, dict[int, str]]]:
        """The games at rest, as (server, game id, tokens), created through an unwatched session (their creates are
        no game of the load's: nobody plays them to their end)."""
        http, games = requests.Session(), []
        body = {"rules": {"preset": "partnership"}, "options": {"clock": "none"}, "seats": [{"type": "human"}] * 4}
        for index in range(self.settings.resting):
            base = self.bases[index % len(self.bases)]
            created = http.post(f"{base}/v1/games", json=body, timeout=15)
            created.raise_for_status()
            game = created.json()
            games.append((base, game["game_id"], {s["seat"]: s["token"] for s in game["seats"]}))
        return games

    def _visit(self, games: list[tuple[str, str, dict[int, str]]]) -> None:
        """A move at a time, in a game at rest picked at random, until the run stops."""
        http, rng = self.obs.session("resting"), random.Random(self.rng.random())
        while not self.stop.is_set():
            base, game_id, tokens = rng.choice(games)
            try:
                _, mine = (seats := Seats(http, base, game_id, tokens, rng, (0, 0), self.stop)).look()
                if mine is not None:
                    seats.move(mine)
            except Exception as error:
                with self.obs.lock:
                    self.obs.left[f"resting {type(error).__name__}"] += 1

    def _people(self, rng: random.Random) -> None:
        http, base = self.obs.session("people"), rng.choice(self.bases)
        humans = rng.sample(range(4), rng.choice((1, 2)))
        seats = [{"type": "human"} if s in humans else {"type": "ai", "level": rng.choice(LEVELS)} for s in range(4)]
        created = self._create(http, base, seats, rng)
        game_id, tokens = created["game_id"], {s["seat"]: s["token"] for s in created["seats"] if s.get("token")}
        with self.obs.playing(game_id, list(tokens)):
            if Seats(http, base, game_id, tokens, rng, self.settings.think, self.stop).play():
                self._finished("people")
                with contextlib.suppress(requests.RequestException):  # what a player reads after a game
                    http.get(f"{base}/v1/games/{game_id}/record", timeout=15)

    def _table(self, rng: random.Random) -> None:
        http, base = self.obs.session("table"), rng.choice(self.bases)
        created = self._create(http, base, [{"type": "human"}] * 4, rng)
        game_id = created["game_id"]
        outcomes: list[bool] = []

        def person(seat: int, token: str, seed: float) -> None:
            with self.obs.playing(game_id, [seat]):
                session = self.obs.session("table")
                outcomes.append(Seats(session, base, game_id, {seat: token}, random.Random(seed), self.settings.think,
                                      self.stop).play())  # fmt: skip

        people = [
            threading.Thread(target=person, args=(s["seat"], s["token"], rng.random()), daemon=True)
            for s in created["seats"]
        ]
        for thread in people:
            thread.start()
        for thread in people:
            thread.join()
        if len(outcomes) == 4 and all(outcomes):
            self._finished("table")
        elif len(outcomes) < 4:
            raise GaveUp(f"a person left table {game_id}")

    def _bots(self, rng: random.Random) -> None:
        client = SpadesClient(rng.choice(self.bases), session=self.obs.session("bots"), max_retries=12)
        seats = [{"type": "human"}, {"type": "ai", "level": rng.choice(LEVELS)}] * 2
        created = client.create_game(rules=rng.choice(rules(self.settings.win_score)), seats=seats)
        tokens = {s.seat: s.token for s in created.seats if s.token is not None}

        def bot(view: GameView) -> Any:
            return choose(view.legal, rng)

        with self.obs.playing(created.game_id, list(tokens)):
            final = GamePlayer(client, created.game_id, tokens, bot, self.tally, stop=self.stop).play()
        if final.over:
            self._finished("bots")

    def _finished(self, kind: str) -> None:
        with self.obs.lock:
            self.finished[kind] += 1

    def end(self, bound: float) -> list[str]:
        """Stop every player; the names of the threads still running after ``bound`` seconds."""
        self.stop_creating.set()
        self.stop.set()
        deadline = time.monotonic() + bound
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return [thread.name for thread in self.threads if thread.is_alive()]
