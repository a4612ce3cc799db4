"""A seat follows its player: ``POST /v1/games/{id}/seats/{seat}/take`` with the ``Player-Token`` (a player token or
a device's session) of the player the seat is bound to gives this device a NEW token for the seat.

It is a rejoin without a code (:func:`services.api.games.rejoin.hand_over`, the same change): the seat's token hash
is replaced in one commit with ``seat_rejoined``, so the old device's token stops working and its open streams and
long polls end (:mod:`services.api.games.audience`); on its next request it is told it watches.  The credential is
the proof: the player a person's seat was taken with (``Seat.player_id``) may take it to any device it is signed
in on, and nobody else may (``403 seat_not_yours``: another player, or a seat taken without a player).  A seat the
computer plays for its player since they left it is theirs to claim back, and this route does that claim
(:func:`services.api.games.commands.claim_seat`, ``seat_claimed``), as is a seat no device holds since the
credential that took it died (:mod:`services.api.games.seat_release`: a new token, ``seat_rejoined``).  A finished
game's seats are not handed on (``409 game_over``); a player who deleted themselves has no credential left to send.
"""

from __future__ import annotations

from typing import Any

from services.api.games import commands, rejoin
from services.api.games.commands import Collaborators
from services.api.games.pipeline import load
from services.api.games.record import GameRecord, PlayerRef
from services.api.metrics import REJOINS
from services.api.problems import ApiError


def seat_not_yours(seat: int) -> ApiError:
    return ApiError(
        403,
        "seat_not_yours",
        f"Seat {seat} of this game is not held for your player: only the player a seat was taken with (its "
        "'Player-Token') can take it to another device. Another person's seat stays theirs.",
    )


def take_seat(
    ctx: Collaborators, game_id: str, seat: int, player: PlayerRef, client: str | None = None
) -> dict[str, Any]:
    """``player``'s seat with a new token for this device (the old one revoked), bound through ``player``'s
    credential (the request's); ``client``: who took it (:func:`services.api.games.fair_play.seat_taken`)."""
    if not 0 <= seat < 4:
        raise ApiError(404, "not_found", "Seats are numbered 0 to 3.")
    held = load(ctx.store, game_id).seats[seat]
    if held.stand_in and held.player_id == player.id:  # left to the computer: claimed back as the player
        return commands.claim_seat(ctx, game_id, seat, player, client)

    def check(record: GameRecord) -> None:
        now = record.seats[seat]
        if now.type != "human" or now.player_id != player.id:
            raise seat_not_yours(seat)
        if record.finished:
            raise ApiError(409, "game_over", "The game is over: its seats are not taken to another device.")

    answer = rejoin.hand_over(ctx, game_id, seat, check, client, player)
    REJOINS.labels("taken").inc()
    return answer
