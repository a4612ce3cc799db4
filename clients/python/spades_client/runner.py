"""The bot runner: give it a function from a seat's view to a move, and it plays games with it.

A :class:`GamePlayer` plays the bot's seats of one game to the end: it follows the game on one push stream
(resumed with ``Last-Event-ID`` after a cut), re-reads each of its seats' views when the game moves past
the version it saw, and answers every turn a view offers (:attr:`GameView.my_turn`: a bid, a card, a blind
decision or cards to give in the nil exchange) with the bot's move for that view, sent with ``If-Match`` and
an ``Idempotency-Key``.  The bot sees each seat's own view and nothing
else, so it needs no change when the server adds a phase or a kind of move: the view says which, and the
bot's answer is posted as it is (:mod:`spades_client.moves`).

A :class:`Runner` plays many games at once (one thread each), stops starting new ones after :meth:`stop`,
and counts what happened: games finished, moves made, moves refused by a race (``409 not_your_turn`` or
``412 version_conflict``: the game moved between the view and the move, and the seat reads it again),
stream reconnects, and seats lost: a seat that changed hands elsewhere (left or taken back on another device)
refuses its token (``401``), and the game is given up, as a spectator's final view, rather than raised.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from spades_client.client import SpadesClient
from spades_client.errors import NotYourTurn, TooFarBehind, Unauthorized, VersionConflict
from spades_client.models import Event, GameView
from spades_client.sse import EventStream

log = logging.getLogger(__name__)

Bot = Callable[[GameView], Any]  # a seat's view → a move (see spades_client.moves for the forms it takes)
EventHook = Callable[[str, Event, EventStream], None]  # (game id, event, its stream): for logs and drills
RACES = (NotYourTurn, VersionConflict)  # refusals that only mean the game moved on: read it again


@dataclass
class Tally:
    """What a runner saw, summed over its games (thread-safe through :meth:`add`)."""

    counts: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)  # problem code → how many moves it refused
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, name: str, n: int = 1) -> None:
        with self.lock:
            self.counts[name] += n

    def refused(self, code: str) -> None:
        with self.lock:
            self.refusals[code] += 1


class GamePlayer:
    """The bot's seats (``tokens``: seat → token) of one game, played until the game is over."""

    def __init__(self, client: SpadesClient, game_id: str, tokens: dict[int, str], bot: Bot,
                 tally: Tally | None = None, on_event: EventHook | None = None,
                 stop: threading.Event | None = None) -> None:  # fmt: skip
        self.game_id = game_id
        self.seats = {seat: client.as_seat(token) for seat, token in sorted(tokens.items())}
        self.spectator = client
        self.bot = bot
        self.tally = tally or Tally()
        self.on_event = on_event
        self.stop = stop or threading.Event()
        self._stream: EventStream | None = None
        self._events: Generator[Event, None, None] | None = None

    def play(self) -> GameView:
        """Play every turn of the bot's seats; returns the final view of its first seat, or the spectator's view
        once a seat's token stopped holding it (the seat changed hands elsewhere: nothing more to play here)."""
        try:
            return self._play()
        except Unauthorized as lost:
            self.tally.add("seats_lost")
            log.warning("game %s: a seat's token no longer holds it (%s); leaving the game", self.game_id, lost.code)
            return self.spectator.get_game(self.game_id)

    def _play(self) -> GameView:
        views = self._read_views()
        try:
            while True:
                views = self._answer_turns(views)
                first = next(iter(views.values()))
                if first.over or (self.stop.is_set() and not any(v.my_turn for v in views.values())):
                    return first
                try:
                    self._wait_for_change(
                        min(v.version for v in views.values()), min(v.last_seq for v in views.values())
                    )
                except TooFarBehind:
                    log.info("game %s: resume point trimmed from the log; reloading the views", self.game_id)
                    self._close_stream()
                views = self._read_views()
        finally:
            self._close_stream()

    def _read_views(self) -> dict[int, GameView]:
        return {seat: client.get_game(self.game_id) for seat, client in self.seats.items()}

    def _answer_turns(self, views: dict[int, GameView]) -> dict[int, GameView]:
        """Each seat whose view offers a move makes it; the move's answer is the seat's next view.  Its
        partner's view is stale then: the wait that follows returns at the move's own event, and every view
        is read again."""
        for seat, client in self.seats.items():
            while views[seat].my_turn:
                view = views[seat]
                answer = self.bot(view)
                try:
                    views[seat] = client.move(self.game_id, answer, version=view.version)
                    self.tally.add("moves")
                except RACES as race:
                    self.tally.refused(race.code)
                    log.info("game %s seat %d: %s (a race); reading the game again", self.game_id, seat, race.code)
                    views[seat] = client.get_game(self.game_id)
        return views

    def _wait_for_change(self, version: int, after: int) -> None:
        """Follow the game's one stream (opened from ``after`` if none is open) until an event of a version
        past ``version``, or its end.  ``version`` is the oldest of the seats' views: after one seat's move
        its partner's view is stale, and the move's own event wakes the partner to read it again."""
        if self._events is None:
            self._stream = self.spectator.stream_events(self.game_id, after)
            self._events = iter(self._stream)
        for event in self._events:
            self.tally.add("events")
            if self.on_event is not None:
                self.on_event(self.game_id, event, self._stream)
            if event.version > version:
                return
        self._close_stream()  # the stream ended: game over (or 204)

    def _close_stream(self) -> None:
        if self._stream is not None:
            self.tally.add("reconnects", self._stream.reconnects)
        if self._events is not None:
            self._events.close()
        self._stream, self._events = None, None


class Runner:
    """Plays games with ``bot``, ``parallel`` at a time, through ``client``."""

    def __init__(self, client: SpadesClient, bot: Bot, parallel: int = 4, on_event: EventHook | None = None) -> None:
        self.client = client
        self.bot = bot
        self.parallel = parallel
        self.on_event = on_event
        self.tally = Tally()
        self.stopping = threading.Event()

    def stop(self) -> None:
        """Start no new game; games in play are finished."""
        self.stopping.set()

    def play_game(self, game_id: str, tokens: dict[int, str]) -> GameView:
        player = GamePlayer(self.client, game_id, tokens, self.bot, self.tally, self.on_event)
        final = player.play()
        self.tally.add("games_finished" if final.over else "games_left")
        log.info("game %s: %s, scores %s", game_id, final.phase, final.scores)
        return final

    def join(self, game_id: str, seat: int | None = None) -> GameView:
        """Claim ``seat`` (or the first claimable one) of someone's game and play it to the end."""
        if seat is None:
            view = self.client.get_game(game_id)
            seat = next(s.seat for s in view.seats if s.claimable)
        claimed = self.client.claim_seat(game_id, seat)
        log.info("claimed seat %d of game %s", seat, game_id)
        return self.play_game(game_id, {seat: claimed.token})

    def create_and_play(self, seats: list[dict[str, Any]], rules: dict[str, Any] | None = None,
                        seed: int | None = None) -> GameView:  # fmt: skip
        """Create a game (the bot plays its ``human`` seats) and play it to the end.  Without hints: a bot plays on
        its own, so its game against the computers can be rated (docs/api.md, "Which games are rated")."""
        created = self.client.create_game(rules=rules, seats=seats, seed=seed, options={"hints": False})
        tokens = {s.seat: s.token for s in created.seats if s.token is not None}
        return self.play_game(created.game_id, tokens)

    def run_all(self, jobs: Iterable[Callable[[], Any]]) -> list[Any]:
        """Run ``jobs`` (each one game), ``parallel`` at a time; the results in order, skipped after stop."""

        def guarded(job: Callable[[], Any]) -> Any:
            return None if self.stopping.is_set() else job()

        with ThreadPoolExecutor(self.parallel, thread_name_prefix="spades-bot") as pool:
            return list(pool.map(guarded, jobs))
