"""A seat released when the player credential that took it dies: a revoked session, a rotated player token, a
deleted player.

A seat bound to a player remembers which of the player's credentials took it (``Seat.credential``: a device
session's id, ``ses_…``, or the player token's mark, ``spt:…``, :func:`services.api.players.tokens.token_mark`;
never a secret).  A claim, a creation, a take and a rematch with a ``Player-Token`` bind that request's credential;
a redeemed rejoin code and a rematch without one carry the seat's own (a seat handed on from a stolen device is
still the stolen device's); a quick match carries its request's.

:func:`settle` finds the player's games in play through its index (:mod:`services.api.games.live_games`), asks
the players (:class:`services.api.games.seat_players.Players`, one read of the records database) which of the
credentials its seats were taken through are dead, and releases each such seat in one commit per game
(:func:`release`, a change function):

- a live player's seat keeps its player but no token holds it (``seat_released {seat}``, which hands it on: the
  old device's stream and long poll end, :mod:`services.api.games.audience`, and its next request is ``401``).  The
  clock plays it as any seat whose person stopped moving (:mod:`services.api.games.clocks`: its turns time out,
  then it is away and the takeover level plays it at once); without a clock its turn waits.  Only its player
  takes it back, from a device whose credential is live (``POST .../take``, :mod:`services.api.games.take_back`);
- a deleted player's seat is left as by a leave (``seat_left``): a stand-in of the takeover level keeps it for the
  game's record, else it opens; so is a seat of theirs released before, which no device can take back now.  A
  seat that names no credential (taken by a process that predates them) plays on with its token.

When: the routes that kill a credential (a session revoked, sign-out everywhere, a rotation, a deletion) settle
after their database commit, and never fail for it: the credential is dead in the database first, which every
later player request reads, and a store that does not answer leaves the seats to the next settling, which the
player's own listing of their games (any device) and each later revocation or rotation do again.  The change
is idempotent: a seat released already, or taken again since by a live credential, is left as it is.

Races: a seat bound through a credential revoked while the binding was made is caught by :func:`recheck`, which
the binding command calls after its commit: the revocation's own settling reads the games after its database
commit, so the binding either committed before that read (and is found) or looked its credential up after the
revocation (and releases itself).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from services.api.games import fair_play, pipeline
from services.api.games.events import event
from services.api.games.pipeline import Answer, Change
from services.api.games.record import GameRecord, PlayerRef, Seat
from services.api.metrics import SEAT_RELEASES
from services.api.problems import ApiError

if TYPE_CHECKING:
    from services.api.games.commands import Collaborators

log = logging.getLogger(__name__)


def left_seat(record: GameRecord, seat: int) -> Seat:
    """What a person's leave makes of ``seat``: while the game is on, a stand-in of the takeover level playing it for
    its player (a rated game's result and record still name them), else an open seat."""
    takeover = fair_play.stand_in_level(record)
    if takeover and record.state.phase != "game_over":
        left = record.seats[seat]
        return Seat("ai", takeover, None, True, left.player_id, left.name, left.player_kind)
    return Seat("open")


def held_through(seat: Seat, player_id: str, credentials: Collection[str] | None = None) -> bool:
    """``seat`` is a person's, bound to ``player_id``, held by a token that one of ``credentials`` took (None: any
    credential; a seat that names none is never released)."""
    return (
        seat.type == "human"
        and seat.player_id == player_id
        and seat.token_hash is not None
        and seat.credential is not None
        and (credentials is None or seat.credential in credentials)
    )


def _released(seat: Seat, player_id: str, dead: Collection[str], gone: bool) -> bool:
    """Whether the change releases ``seat``: held through a ``dead`` credential; once the player is ``gone``, also
    a seat released already (no device holds it, and none ever will)."""
    if gone and seat.type == "human" and seat.player_id == player_id and seat.token_hash is None:
        return True
    return held_through(seat, player_id, None if gone else dead)


def release(player_id: str, dead: Collection[str], gone: bool = False) -> Callable[[GameRecord], Change | Answer]:
    """The change function that releases ``player_id``'s seats held through one of the ``dead`` credentials
    (``gone``: the player is deleted, so each seat any credential of theirs took, or that no device holds, is left
    instead); an :class:`Answer` of ``0`` when none is."""

    def change(record: GameRecord) -> Change | Answer:
        seats = [i for i, s in enumerate(record.seats) if _released(s, player_id, dead, gone)]
        if record.finished or not seats:
            return Answer(0)
        nxt = record.successor()
        told = []
        for i in seats:
            if gone:
                nxt.seats[i] = left_seat(record, i)
                told.append(("seat_left", {"seat": i, "ai_takeover": nxt.seats[i].level}))
            else:
                was = record.seats[i]
                nxt.seats[i] = Seat("human", None, None, False, was.player_id, was.name, was.player_kind)
                told.append(("seat_released", {"seat": i}))
        return Change(nxt, lambda n: [event(n, kind, data) for kind, data in told])

    return change


def settle(ctx: Collaborators, player_id: str, gone: bool = False) -> int:
    """Release every seat of ``player_id``'s games in play held through a credential that is no longer the
    player's (``gone``, the player deleted: leave each one a credential took or no device holds); how many games
    changed.  Raises what the store or the records database raise, at the first: the caller decides
    (:func:`settle_quietly`)."""
    found = []
    for game_id in ctx.store.player_games(player_id):
        record = ctx.store.load(game_id)
        if record is not None and not record.finished and any(s.player_id == player_id for s in record.seats):
            found.append(record)
    dead: frozenset[str] = frozenset()
    if not gone:
        credentials = {s.credential for r in found for s in r.seats if held_through(s, player_id) and s.credential}
        dead = ctx.players.lapsed(player_id, credentials) if credentials else dead
    changed = 0
    for record in found:
        if any(_released(s, player_id, dead, gone) for s in record.seats):
            changed += _release_in(ctx, record.game_id, player_id, dead, gone)
    return changed


def settle_quietly(ctx: Collaborators, player_id: str, gone: bool = False) -> int | None:
    """:func:`settle` for a route whose own change is made already (a revocation committed): never raises; None
    when the store or the database failed (logged and counted: the next settling releases what is left)."""
    try:
        return settle(ctx, player_id, gone)
    except Exception:
        SEAT_RELEASES.labels("failed").inc()
        log.warning("seats of a dead credential not released yet", extra={"player_id": player_id}, exc_info=True)
        return None


def recheck(ctx: Collaborators, game_id: str, players: Collection[PlayerRef | None]) -> None:
    """After a commit that bound seats of ``game_id`` through the ``players``' credentials: any credential revoked
    while it was made releases its seat now (see the module doc: a binding racing a revocation).  Never raises: the
    seat is taken, and a failed check leaves it to the next settling."""
    try:
        for player in {p for p in players if p is not None and p.credential is not None}:
            assert player.credential is not None
            dead = ctx.players.lapsed(player.id, [player.credential])
            if dead:
                _release_in(ctx, game_id, player.id, dead, False)
    except Exception:
        SEAT_RELEASES.labels("failed").inc()
        log.warning("a seat's credential not checked after its binding", extra={"game_id": game_id}, exc_info=True)


def _release_in(ctx: Collaborators, game_id: str, player_id: str, dead: Collection[str], gone: bool) -> int:
    """:func:`release` committed on one game: 1 when it changed the game, 0 when nothing was left to release."""
    try:
        done = pipeline.run(ctx, game_id, release(player_id, dead, gone))
    except ApiError as error:
        if error.status == 404:
            return 0  # gone meanwhile
        raise
    if isinstance(done, Answer):
        return 0
    SEAT_RELEASES.labels("left" if gone else "released").inc()
    return 1
