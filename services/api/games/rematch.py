"""Rematch: at game over the same table starts the next game, with the same rules, options and seat layout.

``POST /v1/games/{id}/rematch`` with a seat token of the finished game (:func:`opt_in`):

- the first opt-in offers it: one commit on the finished game picks the next game's id (``rematch.next_game``, the
  view's ``rematch``) with the event ``rematch_offered {game_id, seat}``, so the others see it; then the next game
  is created (a new secret deal).  Its seats: the opting person's a human seat with a new token; each other
  person's ``open`` and *reserved* for them until ``REMATCH_WAIT_SECONDS`` from now (the view's ``reserved``; a
  claim by anyone else is ``409 seat_reserved``); computers stay computers; a stand-in or open seat of the old
  game is a stand-in of the takeover level (claimable), or open without one;
- each later opt-in takes its person's reserved seat with a new token (``seat_claimed``); after the wait, the
  seat if it is still claimable; a repeated opt-in (a lost answer) gives a new token for the seat it holds and
  revokes the one before (``seat_rejoined``).  The answer is always ``{game_id, seat, token, state}``;
- when the wait ends, every reserved seat still open goes to a stand-in of the takeover level (claimable), with
  the event ``reservation_ended {seats, ai_takeover}`` (:func:`release_due`).  That deadline is kept in the
  store's timers (registered before the game is created), so the AI sweeper of any API process ends the wait,
  whatever restarted meanwhile; a claim after the deadline never waits for the sweep.

Every step is a compare-and-set, and the next game's id is fixed by the one commit on the finished game, so
racing opt-ins create one game: a create that finds the game made already joins it instead.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from services.api.games import clocks, fair_play, pipeline, seat_release
from services.api.games.auth import seat_for
from services.api.games.commands import Collaborators, check_not_seated, seat_change
from services.api.games.events import event
from services.api.games.pipeline import Answer, Change, load
from services.api.games.record import GameRecord, PlayerRef, Rematch, Seat
from services.api.games.rendering import game_view, seats_view
from services.api.games.seat_players import live_player
from services.api.games.seat_tokens import hash_token, new_game_id, new_token
from services.api.metrics import REMATCH_SEATS
from services.api.problems import ApiError
from services.api.store.protocol import now_ms
from services.engine import new_game

WAIT_SECONDS = 30.0  # REMATCH_WAIT_SECONDS's default


def opt_in(
    ctx: Collaborators,
    game_id: str,
    token: str,
    wait_seconds: float = WAIT_SECONDS,
    creators: tuple[str, ...] = (),
    player: PlayerRef | None = None,
    client: str | None = None,
) -> dict[str, Any]:
    """The token's person joins the rematch of the finished game ``game_id`` (see the module docstring); their
    seat in it is bound to ``player`` (the request's player token), else to the player of their seat in
    ``game_id`` as it is now, if any, through the credential that took that seat: ``403 player_deleted`` once
    that player has deleted itself (deletion is final, :mod:`services.api.games.seat_players`),
    ``403 credential_revoked`` once that credential is dead; ``client``: who took it
    (:func:`services.api.games.fair_play.seat_taken`)."""
    old = load(ctx.store, game_id)
    seat = seat_for(old, token)
    assert seat is not None
    ctx.note_seat(seat)
    if old.state.phase != "game_over":
        raise ApiError(409, "game_in_play", "A rematch can be asked for once the game is over.")
    player = player or live_player(ctx.players, old.seats[seat].player)
    next_id = old.rematch.next_game or _offer(ctx, game_id, seat)
    if ctx.store.load(next_id) is None:
        created = _create_next(ctx, old, next_id, seat, wait_seconds, creators, player, client)
        if created is not None:
            return created
    return _join(ctx, next_id, seat, player, client)  # made already (by another opt-in, or this person's lost answer)


def _offer(ctx: Collaborators, game_id: str, seat: int) -> str:
    """The next game's id, fixed by one commit on the finished game (or the id another opt-in fixed first)."""

    def offer(record: GameRecord) -> Change | Answer:
        if record.rematch.next_game is not None:
            return Answer(record.rematch.next_game)
        nxt = record.successor()
        nxt.rematch = replace(record.rematch, next_game=new_game_id(), offered_by=seat)
        data = {"game_id": nxt.rematch.next_game, "seat": seat}
        return Change(nxt, lambda n: [event(n, "rematch_offered", data)])

    done = pipeline.run(ctx, game_id, offer)
    if isinstance(done, Answer):
        return str(done.value)
    REMATCH_SEATS.labels("offered").inc()
    return str(done.nxt.rematch.next_game)


def next_seats(
    old: GameRecord, seat: int, token_hash: str, player: PlayerRef | None = None
) -> tuple[list[Seat], list[int]]:
    """The next game's seats and the seats reserved in it, from the finished game's layout."""
    takeover = old.options.ai_takeover
    seats, reserved = [], []
    for i, was in enumerate(old.seats):
        if i == seat:
            seats.append(Seat.taken(token_hash, player))
        elif was.type == "human":
            seats.append(Seat("open"))
            reserved.append(i)
        elif was.type == "ai" and not was.stand_in:
            seats.append(Seat("ai", was.level))
        else:  # nobody's seat any more: a stand-in until someone claims it
            seats.append(Seat("ai", takeover, None, stand_in=True) if takeover else Seat("open"))
    return seats, reserved


def _create_next(
    ctx: Collaborators,
    old: GameRecord,
    next_id: str,
    seat: int,
    wait: float,
    creators: tuple[str, ...],
    player: PlayerRef | None,
    client: str | None,
) -> dict[str, Any] | None:
    """Create the next game with ``seat`` taken; None when it exists already (nothing written)."""
    token = new_token()
    seats, reserved = next_seats(old, seat, hash_token(token), player)
    now = now_ms()
    until = now + int(wait * 1000) if reserved else None
    rematch = Rematch(None, old.game_id, (seat,), tuple(reserved), tuple(reserved), until)
    record = GameRecord(
        next_id, 1, seats, "", old.options, creators=creators, created_ms=now, changed_ms=now, rematch=rematch
    ).with_state(new_game(old.state.rules, None))
    record.clock = clocks.new_clock(record.options.clock, ctx.clock_scale)
    clients = [client if i == seat else None for i in range(len(seats))]
    record.fair = fair_play.begin(seats, record.options, old.state.rules, False, clients, ctx.rated_min_win_score)
    data = {"seats": seats_view(record), "rules": old.state.rules.to_dict(), "rematch_of": old.game_id}
    if until is not None:  # the wait's end, kept in the store: any process's AI sweeper ends it (release_due)
        ctx.store.expect_turn(next_id, until / 1000)
    if not pipeline.create(ctx, Change(record, seat_change("game_created", data), by="create")):
        return None
    seat_release.recheck(ctx, next_id, [player])  # its credential revoked meanwhile
    REMATCH_SEATS.labels("joined").inc()
    return {"game_id": next_id, "seat": seat, "token": token, "state": game_view(record, seat, ctx.cache)}


def _join(ctx: Collaborators, game_id: str, seat: int, player: PlayerRef | None, client: str | None) -> dict[str, Any]:
    """The person of ``seat`` takes it in the next game, ``game_id``."""
    token = new_token()
    again = False

    def join(record: GameRecord) -> Change:
        nonlocal again
        rematch, target = record.rematch, record.seats[seat]
        joined = rematch.joined
        again = seat in joined and target.type == "human"
        waiting_for_them = seat in rematch.people and seat not in joined and target.claimable
        if not again and not waiting_for_them:
            raise ApiError(409, "seat_taken", f"Seat {seat} of the rematch was taken by someone else after the wait.")
        if record.state.phase == "game_over":
            raise ApiError(409, "game_over", "The rematch is over too.")
        if player is not None and not again:
            check_not_seated(record, player, seat)
        nxt = record.successor()
        nxt.seats[seat] = Seat.taken(hash_token(token), player)
        fair_play.seat_taken(nxt, seat, client)
        reserved = tuple(s for s in rematch.reserved if s != seat)
        nxt.rematch = replace(rematch, joined=tuple(sorted({*joined, seat})), reserved=reserved)
        return Change(nxt, seat_change("seat_rejoined" if again else "seat_claimed", {"seat": seat}))

    done = pipeline.run(ctx, game_id, join)
    assert isinstance(done, Change)
    seat_release.recheck(ctx, game_id, [player])  # its credential revoked meanwhile
    if not again:
        REMATCH_SEATS.labels("joined").inc()
    return {"game_id": game_id, "seat": seat, "token": token, "state": game_view(done.nxt, seat, ctx.cache)}


def release_due(ctx: Collaborators, game_id: str, at_ms: int) -> None:
    """The AI sweeper found the game's timer due: if its wait has ended, each reserved seat still open goes
    to a stand-in of the takeover level (or stays open, claimable, without one); else the entry goes back."""

    released: list[int] = []

    def release(record: GameRecord) -> Change | Answer:
        rematch = record.rematch
        if not rematch.reserved or rematch.until_ms is None:
            return Answer(None)  # every reserved seat was taken
        until = rematch.until_ms
        if until > at_ms:
            return Answer(until)
        takeover = record.options.ai_takeover
        nxt = record.successor()
        released[:] = [s for s in rematch.reserved if record.seats[s].type == "open"]
        for s in released:
            nxt.seats[s] = Seat("ai", takeover, None, stand_in=True) if takeover else Seat("open")
        nxt.rematch = replace(rematch, reserved=(), until_ms=None)
        data = {"seats": list(released), "ai_takeover": takeover}
        return Change(nxt, seat_change("reservation_ended", data), read=True)

    try:
        done = pipeline.run(ctx, game_id, release)
    except ApiError as error:
        if error.status == 404:
            return  # gone
        ctx.store.expect_turn(game_id, at_ms / 1000 + 1)  # contended: the next sweep tries again
        return
    if isinstance(done, Change):
        REMATCH_SEATS.labels("released").inc(len(released))
    elif done.value is not None:
        ctx.store.expect_turn(game_id, done.value / 1000)  # not yet: the entry goes back
