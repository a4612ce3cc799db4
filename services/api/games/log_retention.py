"""How much of a game's event log is kept, and the answer for a client that fell behind it.

The log keeps the events of the last :data:`KEPT_ROUNDS` rounds: when a round starts, the events
before the previous round's ``round_started`` are trimmed in the same commit.  That is all a client
needs to resume after a dropped connection; finished rounds stay readable as hand records (the view's
``history``).  A client asking for events the log no longer holds gets ``410 too_far_behind`` with the
oldest ``seq`` still kept: it reloads the game view and resumes from the view's ``last_seq``.
"""

from __future__ import annotations

from typing import Any

from services.api.games.record import GameRecord
from services.api.problems import ApiError

KEPT_ROUNDS = 2  # the current round's events and the previous round's


def start_round(record: GameRecord, seq: int) -> None:
    """Note that the round whose ``round_started`` event is ``seq`` began; advance ``first_seq``
    past the rounds no longer kept (the commit trims the log below it)."""
    starts = (*record.round_starts, seq)
    if len(starts) > KEPT_ROUNDS:
        starts = starts[-KEPT_ROUNDS:]
        record.first_seq = starts[0]
    record.round_starts = starts


def too_far_behind(first_seq: int) -> ApiError:
    return ApiError(
        410,
        "too_far_behind",
        f"The events after that seq are no longer kept (the oldest kept is {first_seq}). "
        "Reload the game view (GET /v1/games/{game_id}) and resume from its last_seq.",
        first_seq=first_seq,
    )


def check_resumable(record: GameRecord, after: int) -> None:
    """410 ``too_far_behind`` when events right after ``after`` were trimmed (no Redis call:
    the record knows its ``first_seq``).  Routes call it before reading or waiting."""
    if after + 1 < record.first_seq:
        raise too_far_behind(record.first_seq)


def skipped_past(after: int, found: list[dict[str, Any]]) -> bool:
    """Whether a read after ``after`` came back with a gap at its start: the log was trimmed past
    ``after`` between the record's load and the read (seqs have no other gaps)."""
    return bool(found) and found[0]["seq"] > after + 1
