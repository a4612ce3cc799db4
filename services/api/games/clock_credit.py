"""The commits that give a running turn the service's outages back, so its people see the time come back.

Every commit gives a running turn its outages (:func:`services.api.games.clocks.after_change`), and no deadline is
acted on without them (:func:`services.api.games.clocks.computer_seat`), so a clock is never charged for an outage
whether or not anyone commits.  These commits only make it seen: :func:`credit_clock` commits nothing but the credit
(``clock_credited``, then ``turn_clock`` with the later deadline; the hooks register it in the timers), for the
sweeper that finds a stored deadline passed but not the credited one, and :func:`credit_running` for every game in
the timers whose deadline had not passed when an outage began, run once by the process whose beat recorded it.
A credit is a commit like any other: a move pinned (``If-Match``) to the version before it is a ``412``.
"""

from __future__ import annotations

import logging

from services.api.games import clocks, pipeline
from services.api.games.commands import Collaborators
from services.api.games.pipeline import Answer, Change
from services.api.games.record import GameRecord
from services.api.problems import ApiError

log = logging.getLogger(__name__)
PASS_LIMIT = 10_000  # games one pass after an outage looks at, soonest deadline first (the rest: at their deadline)


def credit_clock(ctx: Collaborators, game_id: str) -> bool:
    """Commit the outages the game's running turn went through, if it has any not given yet: True once committed."""

    def credit(record: GameRecord) -> Change | Answer:
        clock = record.clock
        if clock is None or record.state.phase == "game_over" or clock.deadline_ms is None:
            return Answer(False)
        if clocks.credited(clock, ctx.outages.current()) is clock:
            return Answer(False)  # nothing to give (or given already)
        return Change(record.successor(), by="credit")

    try:
        return isinstance(pipeline.run(ctx, game_id, credit), Change)
    except ApiError:  # gone (404), busy or the store slow (503): its deadline's sweep gives it back
        return False


def credit_running(ctx: Collaborators, since: float, limit: int = PASS_LIMIT) -> int:
    """After an outage that began at ``since`` (Unix s): every game whose deadline is in the timers at or after it
    given its time back now; how many were.  One game's failure does not stop the rest."""
    credited = 0
    for game_id in ctx.store.due_turns(float("inf"), limit, since=since):
        try:
            credited += credit_clock(ctx, game_id)
        except Exception:  # a store error on one game: its deadline's sweep gives it back
            log.exception("could not give a clock its outage back", extra={"game_id": game_id})
    return credited
