"""The accuracy collector: a rated game's people's moves scored against expert's analysis, off every request path.

One :class:`AccuracyCollector` per API process that runs the AI and the records writer (a daemon thread, like the
records writer).  Every ``interval`` seconds it claims the due jobs (:mod:`services.api.ratings.accuracy_jobs`: a
rated game with people in it is queued in the transaction that applies it) and moves each one step, never waiting
on a worker:

1. **not sent**: the game's record document is read, each person's decisions are replayed from it to the seat's
   view at that moment (``decisions``, :func:`services.api.games.replay.record_decisions`), and one ``ai.hint``
   task per decision is sent to the bulk expert queue (``send``: it returns the task id), and for each card
   decision with a choice that is scored on the true deal (:func:`services.ratings.accuracy.true_deal_scored`: a
   partnership game's, at most 8 tricks left) one ``ai.true_deal`` task too (:data:`TRUE_DEAL`: the view and the
   finished round's complete plays, which the worker refuses for anything else); no task is sent for an earlier
   card, which is not scored; the task ids are stored with the job, due again in ``interval``;
2. **sent**: each stored task's result is read from the result backend and deleted (``fetch``: Celery's result
   meta, or None while there is none), scored at once (:func:`services.ratings.accuracy.score`, and
   :func:`services.ratings.accuracy.true_agrees` for a true-deal answer) and stored in its place; when every
   decision has its scores, the game's rows are written and the flag rule run
   (:func:`services.api.ratings.accuracy_jobs.finish`);
3. **lost**: answers missing ``wait`` seconds after the send (expired on the queue, the worker failed, the result
   expired unread) are sent again, up to ``max_sends`` sends in all; then the game is given up unscored.

Each analysis sees only the seat's view at that moment, as a round review's does; a true-deal evaluation is asked
only here, of a rated game's record, whose rounds are all finished (their deals public); the seeds derive from the game,
the round, the decision and the seat, so a job's resend asks the same questions.  The made move is scored against
the worker's candidates (a candidate with no finite ``value`` is not weighed); a decision with one legal move, or
whose made move is not among them, is not scored.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Engine

from services.api.ratings import accuracy_jobs
from services.api.ratings.accuracy_jobs import Job
from services.ratings import accuracy, policy
from services.ratings.accuracy import Accuracy, Scored

log = logging.getLogger(__name__)

HINT = "ai.hint"  # a decision's analysis from the seat's view
TRUE_DEAL = "ai.true_deal"  # a finished round's card decision valued on its true deal

#: A person's decisions in a finished game (document, seat): each ``{"round", "trick", "step", "view", "made",
#: "took"}`` (``took``: for a card, whether its side took the trick; else None), in play order.
Decisions = Callable[[Mapping[str, Any], int], Sequence[Mapping[str, Any]]]
Send = Callable[[dict[str, Any], str, str], str]  # (kwargs, game id, task name) → the task's id; sent, not waited for
Fetch = Callable[[str, str], dict[str, Any] | None]  # (task id, game id) → its result meta, deleted; None: none yet


def analysis_seed(game_id: str, decision: Mapping[str, Any], seat: int) -> int:
    """The analysis seed of one decision: the same for every send of it."""
    key = f"{game_id}:{decision['round']}:accuracy:{decision['trick'] or 0}:{decision['step']}:{seat}"
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:7], "big")


def people_seats(document: Mapping[str, Any]) -> list[tuple[int, str]]:
    """The seats people bound to a player sat in, with their player ids."""
    return [
        (seat, player)
        for seat, player in enumerate(policy.seat_players(document))
        if player is not None and not policy.is_computer(player)
    ]


def scored_answer(meta: Mapping[str, Any], echo: tuple[str, int], item: Mapping[str, Any]) -> Scored | bool | None:
    """A fetched result scored for its decision (``item``: its ``made`` and ``took``): a :class:`Scored`, None when
    the decision is not scored, False when the answer is unusable (failed, or for another game or seat)."""
    result = meta.get("result")
    if meta.get("status") != "SUCCESS" or not isinstance(result, dict):
        return False
    if (result.get("game_id"), result.get("seat")) != echo or not isinstance(result.get("candidates"), list):
        return False
    candidates = []
    for each in result["candidates"]:
        value = each.get("value") if isinstance(each, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            candidates.append(each)
    return accuracy.score(candidates, item["made"], item["took"])


def true_answer(meta: Mapping[str, Any], echo: tuple[str, int], item: Mapping[str, Any]) -> tuple[bool, bool | None]:
    """A fetched true-deal result for its card decision: (usable, whether the card agrees with the true deal; None:
    not scored); unusable when failed, or for another game or seat."""
    result = meta.get("result")
    if meta.get("status") != "SUCCESS" or not isinstance(result, dict):
        return False, None
    if (result.get("game_id"), result.get("seat")) != echo or not isinstance(result.get("candidates"), list):
        return False, None
    candidates = [each for each in result["candidates"] if isinstance(each, dict)]
    valued = [c for c in candidates if isinstance(c.get("value"), int | float) and math.isfinite(c["value"])]
    return True, accuracy.true_agrees(valued, item["made"]) if len(valued) == len(candidates) else None


def needs_true_deal(decision: Mapping[str, Any]) -> bool:
    """A card decision with more than one legal card, scored on the true deal too (a partnership game's, at most
    8 tricks left: :func:`services.ratings.accuracy.true_deal_scored`)."""
    view = decision["view"]
    return decision["step"] == "card" and len(view["legal"]) > 1 and accuracy.true_deal_scored(view)


def done(item: Mapping[str, Any]) -> bool:
    """Every answer of a decision scored."""
    return "mark" in item and ("truth" not in item or "agrees" in item)


class AccuracyCollector:
    """Scores queued rated games (see the module doc); ``step`` once for tests, ``start`` for the thread."""

    def __init__(
        self,
        engine: Engine,
        decisions: Decisions,
        send: Send,
        fetch: Fetch,
        interval: float = 5.0,
        wait: float = 900.0,
        max_sends: int = 3,
        batch: int = 20,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.decisions = decisions
        self.send = send
        self.fetch = fetch
        self.interval = interval
        self.wait = wait
        self.max_sends = max_sends
        self.batch = batch
        self.clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="accuracy-collector", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.step()
            except Exception:  # the database or the broker down: tried again next interval
                log.warning("accuracy collection failed", exc_info=True)

    def step(self) -> int:
        """Claim the due jobs and move each one step; how many were claimed."""
        now = self._now()
        lease = int(max(self.interval * 4, 60.0) * 1000)
        jobs = accuracy_jobs.claim(self.engine, now, lease, self.batch)
        for job in jobs:
            self._advance(job, now)
        return len(jobs)

    def _now(self) -> int:
        return int(self.clock() * 1000)

    def _advance(self, job: Job, now: int) -> None:
        document = accuracy_jobs.document_of(self.engine, job.game_id)
        if document is None:
            log.warning("an accuracy job's record is gone", extra={"game_id": job.game_id})
            accuracy_jobs.drop(self.engine, job.game_id)
            return
        work = job.work
        if work is None:
            items = [
                {
                    "seat": seat,
                    "player": player,
                    "made": decision["made"],
                    "took": decision["took"],
                    "task": None,
                    **({"truth": None} if needs_true_deal(decision) else {}),
                }
                for seat, player in people_seats(document)
                for decision in self.decisions(document, seat)
            ]
            work = {"items": items, "sent_ms": now}
            self._send_missing(document, work)
            accuracy_jobs.save(self.engine, job.game_id, job.sends + 1, work, now + self._interval_ms())
            return
        for item in work["items"]:
            if "mark" not in item and item["task"] is not None:
                meta = self.fetch(item["task"], job.game_id)
                if meta is None:
                    continue
                answer = scored_answer(meta, (job.game_id, item["seat"]), item)
                item["task"] = None  # read and deleted; a usable answer is stored, an unusable one sent again
                if answer is not False:
                    item["mark"] = None if answer is None else [answer.given_away, answer.accurate, answer.trick_excess]
            if "agrees" not in item and item.get("truth") is not None:
                meta = self.fetch(item["truth"], job.game_id)
                if meta is None:
                    continue
                usable, agrees = true_answer(meta, (job.game_id, item["seat"]), item)
                item["truth"] = None
                if usable:
                    item["agrees"] = agrees
        missing = [item for item in work["items"] if not done(item)]
        if not missing:
            flagged = accuracy_jobs.finish(self.engine, job.game_id, self._scores(work["items"]), now)
            for player, flag in flagged.items():
                log.warning("accuracy flag", extra={"player_id": player, "flag_id": flag, "game_id": job.game_id})
            return
        sends = job.sends
        unasked = [
            item for item in missing if ("mark" not in item and item["task"] is None) or item.get("truth", 1) is None
        ]
        lost = bool(unasked) or now - work["sent_ms"] >= self.wait * 1000
        if lost:
            if sends >= self.max_sends:
                log.warning("accuracy answers lost; game not scored", extra={"game_id": job.game_id})
                accuracy_jobs.drop(self.engine, job.game_id)
                return
            self._send_missing(document, work)
            work["sent_ms"], sends = now, sends + 1
        accuracy_jobs.save(self.engine, job.game_id, sends, work, now + self._interval_ms())

    def _interval_ms(self) -> int:
        return int(self.interval * 1000)

    def _send_missing(self, document: Mapping[str, Any], work: dict[str, Any]) -> None:
        """Send an analysis (and a true-deal evaluation) for each decision with no score yet (its task id stored in
        its place)."""
        game_id = document["game_id"]
        by_seat: dict[int, Sequence[Mapping[str, Any]]] = {}
        counters: dict[int, int] = {}
        for item in work["items"]:
            seat = item["seat"]
            if seat not in by_seat:
                by_seat[seat] = self.decisions(document, seat)
            index = counters.get(seat, 0)
            counters[seat] = index + 1
            if done(item):
                continue
            decision = by_seat[seat][index]
            kwargs = {
                "view": decision["view"],
                "game_id": game_id,
                "version": document["version"],
                "seat": seat,
                "seed": analysis_seed(game_id, decision, seat),
                "request_id": f"accuracy-{game_id}",
            }
            if "mark" not in item:
                item["task"] = self.send(kwargs, game_id, HINT)
            if "truth" in item and "agrees" not in item:
                plays = document["rounds"][decision["round"] - 1]["plays"]  # a finished round's: its deal is public
                item["truth"] = self.send({**kwargs, "plays": plays}, game_id, TRUE_DEAL)

    @staticmethod
    def _scores(items: Sequence[Mapping[str, Any]]) -> dict[int, tuple[str, Accuracy]]:
        marks: dict[int, list[Scored | None]] = {}
        agreements: dict[int, list[bool | None]] = {}
        players: dict[int, str] = {}
        for item in items:
            players[item["seat"]] = item["player"]
            mark = item["mark"]
            marks.setdefault(item["seat"], []).append(None if mark is None else Scored(*mark))
            agreements.setdefault(item["seat"], []).append(item.get("agrees"))
        return {seat: (players[seat], accuracy.total(each, agreements[seat])) for seat, each in marks.items()}
