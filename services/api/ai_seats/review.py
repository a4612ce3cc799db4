"""Round reviews: for each of a seat's moves in a finished round, the hint level's move and figures.

``GET /v1/games/{id}/rounds/{round}/review`` with a seat's token replays the finished round with the
engine (:mod:`services.api.games.replay`) to the view that seat had at each of its decisions (its
bid and its 13 cards; with the house rules also its blind decision and the cards it gave in the nil
exchange), sends one ``ai.hint`` task per decision to the hint level's queue, all at
once, and waits for them under one bound (``REVIEW_TIMEOUT_SECONDS``) through the process's one AI
result listener (:class:`services.api.ai_seats.analysis.AnalysisTasks`).

* Only finished rounds: their deal is public in every view's ``history``, so showing the four hands
  and what the hint level would have done reveals nothing; the round in play is
  ``409 round_not_finished``.  Each analysis sees only the seat's view at that moment.
* Only the token's own seat, whoever played it (a computer standing in included).
* Seeds derive from the game's secret seed, the round, the decision and the seat: the same review
  every time, cached per process by (game, round, seat) — a finished round never changes.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from services.api.ai_seats.analysis import AnalysisTasks
from services.api.ai_seats.hints import checked_analysis
from services.api.games import fair_play
from services.api.games.record import GameRecord
from services.api.games.rendering import ViewCache, finished_rounds
from services.api.games.replay import check_finished, replay_round
from services.computers import HINT_LEVEL
from services.engine import Seed
from services.ratings import accuracy

log = logging.getLogger(__name__)


def review_seed(game_seed: Seed, round_no: int, trick: int | None, seat: int, step: str = "bid") -> int:
    """Reproducible from the (secret) game seed, unpredictable to players (as hint seeds are); the
    house rules' blind decision and pass get seeds of their own (``step``)."""
    extra = f":{step}" if step in ("blind", "pass") else ""
    digest = hashlib.sha256(f"{game_seed}:{round_no}:review:{trick or 0}{extra}:{seat}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def review_for(
    tasks: AnalysisTasks, cache: ViewCache | None, record: GameRecord, round_no: int, seat: int, request_id: str
) -> dict[str, Any]:
    """``seat``'s review of finished round ``round_no`` (404 / 409 first), cached by (game, round, seat)."""
    fair_play.check_no_engine_help(record, "round review")
    check_finished(record.state, round_no)
    key = ("review", record.game_id, round_no, seat)
    answer = cache.get(key) if cache is not None else None
    if answer is None:
        answer = review_round(tasks, cache, record, round_no, seat, request_id)
        if cache is not None:
            cache.put(key, answer)
    return answer


def review_round(
    tasks: AnalysisTasks, cache: ViewCache | None, record: GameRecord, round_no: int, seat: int, request_id: str
) -> dict[str, Any]:
    state = record.state
    hand_record = finished_rounds(record.game_id, state.history, state.rules, cache)[round_no - 1]
    replayed = replay_round(state, round_no, hand_record, seat)
    jobs = [
        {
            "view": decision.view,
            "game_id": record.game_id,
            "version": record.version,  # echoed back; the answer is matched by its task id
            "seat": seat,
            "seed": review_seed(state.seed, round_no, decision.trick, seat, decision.step),
            "request_id": request_id,
        }
        for decision in replayed.decisions
    ]
    results = tasks.run(jobs, record.game_id)
    decisions, scored = [], []
    for decision, result in zip(replayed.decisions, results, strict=True):
        try:
            best, candidates = checked_analysis(result, (record.game_id, record.version, seat), decision.view)
        except (KeyError, TypeError, ValueError) as error:
            log.error("a review answer was refused", extra={"game_id": record.game_id, "error": str(error)})
            raise tasks.unavailable("The AI worker's analysis was not usable; retry later.") from None
        took = None if decision.trick is None else took_trick(replayed.tricks[decision.trick - 1], seat, state)
        mark = accuracy.score(candidates, decision.made, took)
        scored.append(mark)
        entry = {
            "made": decision.made,
            "best": best,
            "candidates": candidates,
            "given_away": None if mark is None else mark.given_away,
            "accurate": None if mark is None else mark.accurate,
        }
        decisions.append(entry if decision.trick is None else {"trick": decision.trick, **entry})
    return {
        "game_id": record.game_id,
        "round": round_no,
        "seat": seat,
        "level": HINT_LEVEL,
        "record": hand_record,
        "tricks": replayed.tricks,
        "decisions": decisions,
        "accuracy": accuracy.total(scored).figures(),
    }


def took_trick(trick: dict[str, Any], seat: int, state: Any) -> bool:
    """Whether ``seat``'s side (its partner too, in a partnership game) took ``trick`` (as views show it)."""
    winner = trick["winner"]
    return winner == seat or (state.rules.partnership and winner == (seat + 2) % 4)
