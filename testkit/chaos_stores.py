"""What the chaos drill reads from the stores themselves: each game from the Redis Cluster (its state, replayed
into the moves it holds, and its kept event log), the records database's rows, and a monitor that samples the
games' versions during the run to find any that stopped moving.

Read the way the service reads them (:class:`~services.api.store.redis_store.RedisStore`), never through the
API: the invariants (:mod:`testkit.chaos_invariants`) judge what was kept, not what a server answers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
import redis
from redis.cluster import RedisCluster

from services.api.games.record import GameRecord
from services.api.store.redis_keys import game_key
from services.api.store.redis_record_outbox import outbox_set
from services.api.store.redis_store import RedisStore
from services.engine import Bid, GameState, Play, apply, card_code, new_game, turn

from .chaos_invariants import Move, RecordRow, Stall, StoredGame

GAME_KEY_PATTERN = "game:{*}"
LOG_PAGE = 100_000  # the kept log is two rounds (~120 events): one read takes it all


def history_moves(state: GameState) -> list[Move]:
    """Every move ``state`` holds, in the order made, replayed through the engine from the game's deal: raises
    the engine's error if one is illegal there (a card played twice, a bid out of turn), ValueError if the
    replay does not end in ``state`` itself.  The drill's games have no house rules (blind bids, passing)."""
    if state.rules.blind_decisions or state.rules.nil_pass_cards:
        raise ValueError("house rules are not replayed here")
    replay = new_game(state.rules, seed=state.seed)
    rounds = [(finished.bids, finished.plays) for finished in state.history]
    if state.phase != "game_over":
        rounds.append((state.bids, state.plays))
    moves: list[Move] = []
    for bids, plays in rounds:
        while replay.phase == "bidding":
            seat = turn(replay)
            assert seat is not None
            if bids[seat] is None:
                break  # the round in play is still bidding
            replay = apply(replay, seat, Bid(bids[seat]))
            moves.append((seat, {"bid": bids[seat]}))
        for card in plays:
            seat = turn(replay)
            assert seat is not None
            replay = apply(replay, seat, Play(card))
            moves.append((seat, {"card": card_code(card)}))
    if replay != state:
        raise ValueError("the replayed moves do not give the stored state")
    return moves


def stored_game(record: GameRecord, log: list[dict[str, Any]], commits_before_moves: int | None) -> StoredGame:
    state = record.state
    try:
        moves, error = tuple(history_moves(state)), None
    except Exception as failure:  # an illegal move in the history is the finding, not a crash
        moves, error = (), f"{type(failure).__name__}: {failure}"
    return StoredGame(
        record.game_id,
        record.version,
        state.phase == "game_over",
        moves,
        tuple(log),
        record.first_seq,
        record.seq,
        error,
        commits_before_moves,
    )


class StoreReader:
    """The game store (a cluster client) and the records database, read directly."""

    def __init__(self, client: RedisCluster, records_url: str) -> None:
        self.client = client
        self.store = RedisStore(GameRecord.from_stored, client, ttl_seconds=60, idem_ttl=60, recent_size=0)
        self.records_url = records_url

    def load(self, game_id: str) -> GameRecord | None:
        return self.store.load(game_id)

    def version(self, game_id: str) -> int | None:
        version = self.client.hget(game_key(game_id), "v")
        return None if version is None else int(version)

    def game(self, game_id: str, commits_before_moves: int | None = 1) -> StoredGame | None:
        record = self.store.load(game_id)
        if record is None:
            return None
        log = self.store.events_after(game_id, record.first_seq - 1, LOG_PAGE)
        return stored_game(record, log, commits_before_moves)

    def game_ids(self) -> set[str]:
        """Every game the cluster holds (its masters' ``game:{id}`` hashes)."""
        found = set()
        for key in self.client.scan_iter(match=GAME_KEY_PATTERN, _type="hash", count=1000):
            text = key.decode() if isinstance(key, bytes) else key
            if text.endswith("}"):
                found.add(text[len("game:{") : -1])
        return found

    def outbox_due(self, game_id: str) -> float | None:
        """When the game's record is due in the outbox (Unix seconds), None without an entry."""
        return self.client.zscore(outbox_set(game_id), game_id)

    def records(self) -> list[RecordRow]:
        with psycopg.connect(self.records_url, connect_timeout=5) as connection:
            rows = connection.execute("SELECT game_id, version, outcome FROM game_records").fetchall()
        return [RecordRow(game_id, version, outcome) for game_id, version, outcome in rows]


@dataclass
class _Watch:
    version: int
    since: float
    seat: int
    computer: bool
    active: bool


class StallMonitor(threading.Thread):
    """Samples every unfinished game's version and turn from the store every ``interval`` seconds and keeps each
    wait at one version (a :class:`~testkit.chaos_invariants.Stall`) longer than ``keep`` seconds.

    ``games()`` names the games to watch; ``player_active(game, seat)`` whether a person's seat has its player
    (a wait counts as the player's only while the player is there at every sample).  A failed read (a master
    being failed over) skips the game for that sample."""

    def __init__(
        self,
        reader: StoreReader,
        games: Callable[[], list[str]],
        player_active: Callable[[str, int], bool],
        clock: Callable[[], float],
        interval: float = 1.0,
        keep: float = 2.0,
    ) -> None:
        super().__init__(name="chaos-stall-monitor", daemon=True)
        self.reader, self.games, self.player_active, self.clock = reader, games, player_active, clock
        self.interval, self.keep = interval, keep
        self.stalls: list[Stall] = []
        self.samples = 0
        self._watching: dict[str, _Watch] = {}
        self._over: set[str] = set()
        self._done = threading.Event()
        self._lock = threading.Lock()

    def run(self) -> None:
        while not self._done.wait(self.interval):
            for game_id in self.games():
                if game_id not in self._over:
                    self._sample(game_id)

    def _sample(self, game_id: str) -> None:
        try:
            version = self.reader.version(game_id)
            with self._lock:
                watch = self._watching.get(game_id)
            record = None if watch is not None and watch.version == version else self.reader.load(game_id)
        except redis.RedisError:
            return
        now = self.clock()
        self.samples += 1
        if record is None:  # the same version as the last sample (or the game is gone)
            if watch is not None and not watch.computer:
                active = self.player_active(game_id, watch.seat)
                with self._lock:
                    watch.active = watch.active and active
            return
        seat = turn(record.state)
        if record.state.phase == "game_over" or seat is None:
            self._over.add(game_id)
            self._close(game_id, now)
            return
        computer = record.seats[seat].type == "ai"
        active = computer or self.player_active(game_id, seat)
        self._close(game_id, now)
        with self._lock:
            self._watching[game_id] = _Watch(record.version, now, seat, computer, active)

    def _close(self, game_id: str, now: float) -> None:
        with self._lock:
            watch = self._watching.pop(game_id, None)
            if watch is not None and now - watch.since > self.keep:
                self.stalls.append(Stall(game_id, watch.since, now, watch.seat, watch.computer, watch.active))

    def finish(self) -> list[Stall]:
        """Stop sampling; every wait still open ends now (as a stall if longer than ``keep``)."""
        self._done.set()
        self.join(timeout=30)
        now = self.clock()
        for game_id in list(self._watching):
            self._close(game_id, now)
        return list(self.stalls)


def wait_until(condition: Callable[[], bool], bound: float, pause: float = 0.5) -> float | None:
    """Poll ``condition`` (errors count as not yet) until it holds: the seconds it took, or None after ``bound``."""
    started = time.monotonic()
    while True:
        try:
            if condition():
                return time.monotonic() - started
        except Exception:
            pass
        if time.monotonic() - started > bound:
            return None
        time.sleep(pause)
