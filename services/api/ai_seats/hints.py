"""Hints for people: the hint level's move for a seat, computed by the AI workers.

``GET /v1/games/{id}/hint`` with a seat's token, on that seat's turn, sends the
task ``ai.hint`` by name to the hint level's queue (``ai.expert``) with the seat's
own view, and waits a bounded time (``HINT_TIMEOUT_SECONDS``) for the answer
through the process's one AI result listener
(:class:`services.api.ai_seats.analysis.AnalysisTasks` says how).

The hint is for the token's own seat only and is computed from that seat's
view alone (finished rounds left out, as for ``ai.decide``): it can reveal
nothing the seat can't see.  Its seed derives from the game's secret seed,
the version and the seat, so a player can't predict it, and asking again at
the same version gives the same hint (cached per process).

With the house rules a hint is also given at a blind decision (the seat's hand
is hidden: the hint is computed from the view without it, and names looking or
a blind bid) and in the nil exchange (the cards to give), on that seat's turn.
"""

from __future__ import annotations

import hashlib
import logging
import math
from typing import Any

from services.api.ai_seats.analysis import AnalysisTasks
from services.api.games import fair_play
from services.api.games.record import GameRecord
from services.api.games.rendering import ViewCache
from services.api.problems import ApiError
from services.computers import HINT_LEVEL
from services.engine import Seed, turn, view

log = logging.getLogger(__name__)
FIGURES = ("value", "make_chance", "trick_chance")  # the numbers a candidate may carry


def hint_seed(game_seed: Seed, version: int, seat: int) -> int:
    """Reproducible from the (secret) game seed, so asking again gives the same
    hint, yet unpredictable to players, who never see that seed."""
    digest = hashlib.sha256(f"{game_seed}:{version}:hint:{seat}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def check_hint_allowed(record: GameRecord, seat: int, enabled: bool) -> None:
    """403 when the game turned hints off; 409 when it is not ``seat``'s turn to move."""
    if not enabled:
        raise ApiError(403, "hints_disabled", "This game was created with hints turned off (options.hints).")
    phase = record.state.phase
    if record.waiting:
        raise ApiError(409, "not_your_turn", "The game waits until every seat is taken.", reason="wrong_phase")
    if phase == "game_over":
        raise ApiError(409, "not_your_turn", "The game is over.", reason="game_over")
    if phase not in ("bidding", "passing", "playing") or turn(record.state) != seat:
        raise ApiError(
            409, "not_your_turn", f"It is seat {turn(record.state)}'s turn, not {seat}'s.", reason="not_your_turn"
        )


def hint_for(
    client: HintClient, cache: ViewCache | None, record: GameRecord, seat: int, request_id: str
) -> dict[str, Any]:
    """The hint for ``seat`` at ``record.version``, checked allowed, and cached
    by (game, version, seat): same version, same seed, the same hint."""
    fair_play.check_no_engine_help(record, "hint")
    check_hint_allowed(record, seat, record.options.hints)
    key = ("hint", record.game_id, record.version, seat)
    answer = cache.get(key) if cache is not None else None
    if answer is None:
        answer = client.ask(record, seat, request_id)
        if cache is not None:
            cache.put(key, answer)
    return answer


def _move_of(item: dict[str, Any]) -> dict[str, Any]:
    """The move a worker names, reduced to the fields the API shows: ``{"bid": n}``, ``{"bid": n,
    "blind": true}``, ``{"look": true}``, ``{"card": "QS"}`` or ``{"pass": ["AS", "KH"]}``."""
    if item.get("look") is True:
        return {"look": True}
    if "bid" in item:
        bid = item["bid"]
        if not isinstance(bid, int) or isinstance(bid, bool):
            raise TypeError(f"a bid is an integer, not {bid!r}")
        return {"bid": bid, "blind": True} if item.get("blind") is True else {"bid": bid}
    if "pass" in item:
        cards = item["pass"]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise TypeError(f"a pass is a list of card codes, not {cards!r}")
        return {"pass": list(cards)}
    if not isinstance(item["card"], str):
        raise TypeError(f"a card is a card code, not {item['card']!r}")
    return {"card": item["card"]}


def is_legal(move: dict[str, Any], seat_view: dict[str, Any]) -> bool:
    """Whether ``move`` (:func:`_move_of`) is one ``seat_view`` allows: a bid in ``legal``, a blind bid
    in ``legal_blind``, a look when ``legal`` offers it, a card in ``legal``, and a pass of
    ``pass_count`` distinct cards among ``legal`` (the hand, in the exchange)."""
    legal = seat_view["legal"]
    if "look" in move:
        return "look" in legal
    if "pass" in move:
        cards = move["pass"]
        return (
            seat_view["phase"] == "passing"
            and len(cards) == seat_view.get("pass_count")
            and len(set(cards)) == len(cards)
            and all(c in legal for c in cards)
        )
    if move.get("blind"):
        return move["bid"] in (seat_view.get("legal_blind") or [])
    if "bid" in move:
        return seat_view["phase"] == "bidding" and move["bid"] in legal
    return seat_view["phase"] == "playing" and move["card"] in legal


def checked_analysis(
    result: dict[str, Any], echo: tuple[str, int, int], seat_view: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A worker's ``ai.hint`` answer, checked: for the (game, version, seat) it was asked for
    (``echo``), a legal move in ``seat_view`` (:func:`is_legal`), and candidates reduced to a legal
    move each plus the known figures as finite numbers (nothing else a worker returns leaves the
    service).  ``(move, candidates)``."""
    if (result.get("game_id"), result.get("version"), result.get("seat")) != echo:
        raise ValueError("the answer is for another game, version or seat")
    move = _move_of(result["move"])
    if not is_legal(move, seat_view):
        raise ValueError(f"the analysed move {move} is not legal")
    candidates = []
    for item in result.get("candidates") or []:
        candidate = _move_of(item)
        if not is_legal(candidate, seat_view):
            continue
        for name in FIGURES:
            number = item.get(name)
            if isinstance(number, int | float) and not isinstance(number, bool) and math.isfinite(number):
                candidate[name] = float(number)
        candidates.append(candidate)
    return move, candidates


def public_hint(result: dict[str, Any], record: GameRecord, seat: int, seat_view: dict[str, Any]) -> dict[str, Any]:
    """The worker's answer as the API shows it (:func:`checked_analysis`)."""
    move, candidates = checked_analysis(result, (record.game_id, record.version, seat), seat_view)
    return {
        "game_id": record.game_id,
        "seat": seat,
        "version": record.version,
        "level": str(result.get("level") or HINT_LEVEL),
        "move": move,
        "candidates": candidates,
    }


class HintClient:
    """Sends ``ai.hint`` for one seat's turn and waits for its answer (:class:`AnalysisTasks`)."""

    def __init__(self, tasks: AnalysisTasks) -> None:
        self.tasks = tasks

    def ask(self, record: GameRecord, seat: int, request_id: str) -> dict[str, Any]:
        """The hint for ``seat`` at ``record.version`` (the caller checked it is its turn)."""
        seat_view = view(record.state, seat, history=False)  # no strategy reads finished rounds
        kwargs = {
            "view": seat_view,
            "game_id": record.game_id,
            "version": record.version,
            "seat": seat,
            "seed": hint_seed(record.state.seed, record.version, seat),
            "request_id": request_id,
        }
        (result,) = self.tasks.run([kwargs], record.game_id)
        try:
            return public_hint(result, record, seat, seat_view)
        except (KeyError, TypeError, ValueError) as error:
            log.error("a hint answer was refused", extra={"game_id": record.game_id, "error": str(error)})
            raise self.tasks.unavailable("The AI worker's hint was not usable; retry later.") from None
