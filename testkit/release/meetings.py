"""Where the two releases met, read from the stores and the clients' answers: proof that the new release wrote
each of its four things and that the old one met each of them (``benchmarks.release``).

* **the field** (``meta.stamp``): :class:`StampReader` is the stall monitor's store reader; every game it loads
  (each new version it samples) tells whether it carries a stamp, and a stamp behind the game's version means an
  old process committed after the new one stamped it and kept the stamp.  A game seen stamped and later not is a
  stamp dropped.
* **the event** (``stamped``): :class:`EventCounts` counts the entries in the long polls' answers
  (``GET /v1/games/{id}/events``), by the release of the server that answered.
* **the argument** (``deadline_ms``): :class:`ResultWatch` reads every task result a broker node publishes (the
  channel Celery's Redis backend publishes each on): a new worker's answer echoes ``deadline_ms`` (null for an
  old API's task, which sends none), an old worker's names it in ``ignored``; a failed task is kept.
* **the column** (``game_records.rounds``): :func:`column_state` reads the column, its rows, and the schema's
  revision from the records database.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import psycopg
import redis
import requests

from services.api.games.record import GameRecord

from ..chaos_stores import StoreReader
from .rolling import Endpoints

FIELD, EVENT, ARGUMENT, COLUMN = "stamp", "stamped", "deadline_ms", "rounds"
RESULT_CHANNELS = "celery-task-meta-*"


class Stamps:
    """Each game's stamps as loaded, in order of its versions (see the module docstring)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.stamped: set[str] = set()  # games seen with a stamp
        self.kept_by_old: set[str] = set()  # games seen with a stamp behind their version
        self.dropped: dict[str, str] = {}  # games seen stamped, then at a later version without one
        self._last: dict[str, tuple[int, bool]] = {}  # game -> (version, stamped) of the last load

    def note(self, record: GameRecord) -> None:
        stamp = record.unknown.get(FIELD)
        with self.lock:
            last = self._last.get(record.game_id)
            if last is not None and record.version < last[0]:
                return  # an older read finishing late
            if stamp is not None:
                self.stamped.add(record.game_id)
                if stamp.get("version", record.version) < record.version:
                    self.kept_by_old.add(record.game_id)
            elif last is not None and last[1]:
                self.dropped[record.game_id] = f"stamped at v{last[0]}, none at v{record.version}"
            self._last[record.game_id] = (record.version, stamp is not None)

    def figures(self) -> dict[str, Any]:
        with self.lock:
            return {
                "games_stamped": len(self.stamped),
                "games_an_old_process_wrote_after_a_stamp_kept": len(self.kept_by_old),
                "stamps_dropped": len(self.dropped),
            }


class StampReader(StoreReader):
    """A :class:`StoreReader` whose every loaded game is noted in :attr:`stamps`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stamps = Stamps()

    def load(self, game_id: str) -> GameRecord | None:
        record = super().load(game_id)
        if record is not None:
            self.stamps.note(record)
        return record


class EventCounts:
    """A watcher of the clients' answers (:class:`testkit.chaos_observations.Observations`): the ``stamped``
    entries in long polls' answers, by the release of the server that answered."""

    MARK = f'"type":"{EVENT}"'.encode()

    def __init__(self, endpoints: Endpoints) -> None:
        self.endpoints = endpoints
        self.lock = threading.Lock()
        self.served: Counter = Counter()  # release -> entries served

    def __call__(self, response: requests.Response) -> None:
        request = response.request
        if request.method != "GET" or response.status_code != 200 or "/events" not in (request.url or ""):
            return
        count = response.content.count(self.MARK)
        if count:
            release = self.endpoints.release_of(request.url or "") or "?"
            with self.lock:
                self.served[release] += count


@dataclass
class Results:
    """What the decisions' answers say of who sent and who answered (see the module docstring)."""

    by_pair: Counter = field(default_factory=Counter)  # "<api> api, <worker> worker" -> answers
    failures: list[str] = field(default_factory=list)


class ResultWatch(threading.Thread):
    """Subscribes to every task result a broker node publishes and sorts the ``ai.decide`` answers by which
    release sent the task (with the argument: new) and which answered it (echoing it: new)."""

    def __init__(self, url: str, results: Results, lock: threading.Lock) -> None:
        super().__init__(name="release-result-watch", daemon=True)
        self.client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=2)
        self.results, self.lock = results, lock
        self._done = threading.Event()
        self._subscribed = threading.Event()

    def run(self) -> None:
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        pubsub.psubscribe(RESULT_CHANNELS)
        self._subscribed.set()
        while not self._done.is_set():
            try:
                message = pubsub.get_message(timeout=0.5)
            except redis.RedisError:
                continue
            if message is not None and message.get("type") == "pmessage":
                self.sort(json.loads(message["data"]))
        pubsub.close()

    def started(self, bound: float = 10.0) -> bool:
        return self._subscribed.wait(bound)

    def sort(self, meta: dict[str, Any]) -> None:
        result = meta.get("result")
        with self.lock:
            if meta.get("status") != "SUCCESS":
                self.results.failures.append(f"{meta.get('task_id')}: {meta.get('status')} {str(result)[:200]}")
                return
            if not isinstance(result, dict) or "move" not in result or "candidates" in result:
                return  # not a decision (a hint's analysis)
            if ARGUMENT in result:  # a new worker: the argument is echoed, null when the API sent none
                pair = "new api, new worker" if result[ARGUMENT] is not None else "old api, new worker"
            else:
                pair = "new api, old worker" if ARGUMENT in result.get("ignored", ()) else "old api, old worker"
            self.results.by_pair[pair] += 1

    def finish(self) -> None:
        self._done.set()
        self.join(timeout=10)


def column_state(url: str) -> dict[str, Any]:
    """The records database's revision and ``game_records.rounds``: whether it is there and takes NULL, and its
    rows: NULL, set, and set but not the document's count of rounds."""
    with psycopg.connect(url, connect_timeout=5) as connection:
        revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        column = connection.execute(
            "SELECT is_nullable FROM information_schema.columns WHERE table_name = 'game_records' AND column_name = %s",
            (COLUMN,),
        ).fetchone()
        state: dict[str, Any] = {"revision": revision[0] if revision else None, "column": column is not None}
        if column is None:
            state["rows"] = connection.execute("SELECT count(*) FROM game_records").fetchone()[0]
            return state
        null, set_, wrong = connection.execute(
            "SELECT count(*) FILTER (WHERE rounds IS NULL), count(*) FILTER (WHERE rounds IS NOT NULL),"
            " count(*) FILTER (WHERE rounds <> json_array_length(CAST(body AS json) -> 'rounds'))"
            " FROM game_records"
        ).fetchone()
    return {**state, "nullable": column[0] == "YES", "rows_null": null, "rows_set": set_, "rows_wrong": wrong}
