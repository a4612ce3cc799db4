"""The Celery tasks: ``ai.decide``, a computer player's move, ``ai.hint``,
the hint level's move for a person with the figures behind it, and
``ai.true_deal``, a finished round's card decision valued on its true deal.

The API sends them by name (``send_task("ai.decide", kwargs=..., queue=f"ai.{level}")``,
``send_task("ai.hint", kwargs=..., queue="ai.expert")``) and never imports this
package.  Inputs and output are plain JSON.  Both take the keyword arguments
of :class:`Request`; ``ai.decide`` also takes ``level``, ``ai.true_deal`` the
finished round's complete ``plays`` (and refuses any other: :mod:`.true_deal`).

During a rolling upgrade an API of the next release may send an argument this
worker does not know: it is left out of the decision and named in the answer
(``ignored``), never a failure (docs/operations.md, "Deploy": a new argument is
optional on both sides until the old release is gone).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from .celery_app import celery
from .dispatch import analyse, decide
from .true_deal import evaluation

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Request:
    """What both tasks are asked with: ``view`` is the view of seat ``seat``
    at state ``version`` of ``game_id``; ``request_id`` is only logged."""

    view: dict[str, Any]
    game_id: str
    version: int
    seat: int
    seed: int
    request_id: str | None = None
    ignored: tuple[str, ...] = ()  # arguments sent that this release does not know (a newer API's)

    @classmethod
    def of(cls, arguments: dict[str, Any]) -> Request:
        """The request in a task's keyword arguments; any this release does not know is set aside (logged once
        per name and process, named in the answer)."""
        unknown = arguments.keys() - _ARGUMENTS
        if not unknown:
            return cls(**arguments)
        if unknown - _WARNED:
            _WARNED.update(unknown)
            log.warning("task arguments not known to this worker, ignored (a newer API?): %s", sorted(unknown))
        known = {name: value for name, value in arguments.items() if name in _ARGUMENTS}
        return cls(**known, ignored=tuple(sorted(unknown)))


_ARGUMENTS = frozenset(f.name for f in fields(Request)) - {"ignored"}
_WARNED: set[str] = set()


def _answer(task: str, request: Request, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``work``'s answer (it names ``level`` and ``move``) with the echo of the
    request's ids (the API drops an answer for a stale version, another game or
    seat) and the time it took, logged; ``ignored`` names the arguments it did not know."""
    started = time.perf_counter()
    if request.view.get("you") != request.seat:
        raise ValueError(f"view is for seat {request.view.get('you')}, not seat {request.seat}")
    answer = work()
    elapsed_ms = round((time.perf_counter() - started) * 1000, 3)
    log.info(
        "%s request_id=%s game_id=%s version=%s seat=%s level=%s move=%s elapsed_ms=%s",
        task, request.request_id, request.game_id, request.version, request.seat, answer["level"], answer["move"],
        elapsed_ms,
    )  # fmt: skip
    ids = {"game_id": request.game_id, "version": request.version, "seat": request.seat}
    if request.ignored:
        return {**ids, **answer, "elapsed_ms": elapsed_ms, "ignored": list(request.ignored)}
    return {**ids, **answer, "elapsed_ms": elapsed_ms}


@celery.task(name="ai.decide")
def decide_task(*, level: str, **request: Any) -> dict[str, Any]:
    """The move of a ``level`` computer for the request's seat:
    ``{game_id, version, seat, level, move, elapsed_ms}``."""
    asked = Request.of(request)
    return _answer("ai.decide", asked, lambda: {"level": level, "move": decide(asked.view, level, asked.seed)})


@celery.task(name="ai.hint")
def hint_task(**request: Any) -> dict[str, Any]:
    """A hint for the person in the request's seat: the hint level's move and,
    per candidate move, the figures behind it (:func:`.dispatch.analyse`):
    ``{game_id, version, seat, level, move, candidates, elapsed_ms}``."""
    asked = Request.of(request)
    return _answer("ai.hint", asked, lambda: analyse(asked.view, asked.seed))


@celery.task(name="ai.true_deal")
def true_deal_task(*, plays: list[str], **request: Any) -> dict[str, Any]:
    """A card decision of a finished round valued on its true deal (:func:`.true_deal.evaluation`; ``plays``: the
    round's every card in play order, refused unless complete and this view's round):
    ``{game_id, version, seat, level, move, candidates, exact, elapsed_ms}`` (``move`` null and no candidates for a
    card not valued: before 8 tricks left, or an individual game's)."""
    asked = Request.of(request)
    return _answer("ai.true_deal", asked, lambda: {"level": "expert", **evaluation(asked.view, plays)})
