"""A person back at the table: ``POST /v1/games/{id}/seats/{seat}/back`` with the seat's token.

An away seat (:mod:`services.api.games.clocks`: two timeouts in a row) is played by the computer at once until
its person moves or says they are back; this is the saying.  The commit clears the seat's away mark and its
timeouts, appends ``seat_back {seat}`` (and ``turn_clock`` when it is the seat's turn: its clock starts now),
and a computer's decision already sent for the turn is then refused by ``apply_ai_move`` (the one rule,
:func:`services.api.games.clocks.computer_seat`, no longer picks the seat).
"""

from __future__ import annotations

from typing import Any

from services.api.games import pipeline
from services.api.games.auth import seat_for
from services.api.games.commands import Collaborators
from services.api.games.pipeline import Answer, Change
from services.api.games.record import GameRecord
from services.api.games.rendering import game_view
from services.api.problems import ApiError


def come_back(ctx: Collaborators, game_id: str, seat: int, token: str) -> dict[str, Any]:
    """The seat's view once it is no longer away (unchanged, no event, when it was not away: a second press,
    or the person's own move got there first)."""

    def back(record: GameRecord) -> Change | Answer:
        if seat_for(record, token) != seat:
            raise ApiError(403, "forbidden", "A token may only bring back its own seat.")
        ctx.note_seat(seat)
        if not record.away(seat):
            return Answer(game_view(record, seat, ctx.cache))
        return Change(record.successor(), by="back", seat=seat)

    done = pipeline.run(ctx, game_id, back)
    return done.value if isinstance(done, Answer) else game_view(done.nxt, seat, ctx.cache)
