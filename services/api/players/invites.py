"""Invites: a seated player asks a friend to their table, as a notice in the friend's lobby on any device.

``POST /v1/games/{id}/invites`` with the inviter's seat token and ``Player-Token`` (the seat must be the player's):
a notice in ``player_notices`` for the invitee, naming the table and an open seat, read by
``GET /v1/players/me/notices`` with any of the invitee's credentials (so on whichever device they are signed in),
until it expires (``INVITE_SECONDS``) or they dismiss it.  An invite carries no seat token: the invitee claims the
open seat as anyone would, with their own ``Player-Token``.

Who may invite whom (:func:`invite_refusal`, pure): a player the inviter follows or who follows the inviter; never a
blocked pair, in either direction.  Against spam: one notice per inviter and table (an invite again replaces it),
at most :data:`MAX_NOTICES` live notices per player (the oldest go), and a budget of invites per inviter
(``INVITE_RATE_LIMIT``, spent by the route).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, func, select

from services.api.games.auth import seat_for
from services.api.games.pipeline import load
from services.api.players.friends import Friends, blocked_pair, not_yourself
from services.api.players.repository import Player, player_not_found
from services.api.problems import ApiError
from services.api.records.database import insert_of
from services.api.records.schema import player_notices, players
from services.api.store.protocol import GameStore

MAX_NOTICES = 20
INVITE = "invite"


@dataclass(frozen=True, slots=True)
class Notice:
    """A notice in a player's lobby: an invite from ``from_id`` to ``game_id``'s ``seat``."""

    id: str
    player_id: str
    kind: str
    from_id: str
    from_name: str
    game_id: str
    seat: int
    created_ms: int
    expires_ms: int


def invite_refusal(i_follow: bool, they_follow: bool, blocked: bool) -> str | None:
    """The refusal code of an invite, or None: a blocked pair never; else only between a follower and the
    followed, either way."""
    if blocked:
        return "blocked"
    if not (i_follow or they_follow):
        return "not_following"
    return None


def notice_not_found() -> ApiError:
    return ApiError(404, "notice_not_found", "You have no notice of that id (it may have expired).")


def open_seat(seats: list[Any]) -> int | None:
    """The seat an invite offers: the first open one, else the first a computer keeps for whoever claims it."""
    for wanted in ("open", "stand_in"):
        for index, seat in enumerate(seats):
            if (seat.type == "open") if wanted == "open" else seat.stand_in:
                return index
    return None


class Invites:
    """Invites and the notices they leave, on one SQLAlchemy engine (the records database's)."""

    def __init__(self, engine: Engine, friends: Friends, seconds: int) -> None:
        self.engine, self.friends, self.ttl_ms = engine, friends, seconds * 1000
        self._insert = insert_of(engine)

    def invite(
        self,
        store: GameStore,
        game_id: str,
        token: str,
        inviter: Player,
        invitee_id: str,
        now_ms: int,
        spend: Callable[[], None] = lambda: None,
    ) -> Notice:
        """The invitee's notice of ``game_id``'s open seat, from the player whose seat ``token`` holds;
        ``spend()`` once every check passed, before it is kept (the inviter's budget: its refusal keeps nothing)."""
        record = load(store, game_id)
        seat = seat_for(record, token)
        assert seat is not None
        if record.seats[seat].player_id != inviter.id:
            raise ApiError(
                403, "seat_not_yours", "Only a seat taken with your Player-Token may invite for it: send both."
            )
        if record.finished:
            raise ApiError(409, "game_over", "The game is over.")
        if invitee_id == inviter.id:
            raise not_yourself()
        invitee = self._live_person(invitee_id)
        if any(s.player_id == invitee_id and not s.stand_in for s in record.seats):
            raise ApiError(409, "player_seated", "This player holds a seat of this game already.")
        offered = open_seat(record.seats)
        if offered is None:
            raise ApiError(409, "no_open_seat", "Every seat of this table is taken: nobody can be invited to it.")
        refusal = invite_refusal(
            self.friends.follows(inviter.id, invitee_id),
            self.friends.follows(invitee_id, inviter.id),
            self.friends.either_blocked(inviter.id, invitee_id),
        )
        if refusal == "blocked":
            raise blocked_pair()
        if refusal is not None:
            raise ApiError(403, "not_following", "You may invite only a player you follow, or one who follows you.")
        notice = Notice(
            "ntc_" + secrets.token_urlsafe(16),
            invitee.id,
            INVITE,
            inviter.id,
            inviter.name,
            game_id,
            offered,
            now_ms,
            now_ms + self.ttl_ms,
        )
        spend()
        self._keep(notice)
        return notice

    def _live_person(self, player_id: str) -> Player:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(players.c.id, players.c.kind, players.c.name, players.c.created_ms).where(
                    players.c.id == player_id, players.c.deleted_ms.is_(None), players.c.kind.in_(("person", "bot"))
                )
            ).first()
        if row is None:
            raise player_not_found()
        return Player(row.id, row.kind, row.name, row.created_ms)

    def _keep(self, notice: Notice) -> None:
        """Store ``notice`` (replacing the inviter's earlier one to the same table); expired and surplus notices
        of the invitee go."""
        values = {
            "id": notice.id,
            "player_id": notice.player_id,
            "kind": notice.kind,
            "from_id": notice.from_id,
            "game_id": notice.game_id,
            "seat": notice.seat,
            "created_ms": notice.created_ms,
            "expires_ms": notice.expires_ms,
        }
        replaced = {k: v for k, v in values.items() if k not in ("player_id", "from_id", "game_id")}
        statement = self._insert(player_notices).values(values)
        statement = statement.on_conflict_do_update(
            index_elements=[player_notices.c.player_id, player_notices.c.from_id, player_notices.c.game_id],
            set_=replaced,
        )
        mine = player_notices.c.player_id == notice.player_id
        with self.engine.begin() as connection:
            connection.execute(delete(player_notices).where(mine, player_notices.c.expires_ms <= notice.created_ms))
            connection.execute(statement)
            count = connection.execute(select(func.count()).select_from(player_notices).where(mine)).scalar() or 0
            if count > MAX_NOTICES:
                oldest = (
                    select(player_notices.c.id)
                    .where(mine)
                    .order_by(player_notices.c.created_ms, player_notices.c.id)
                    .limit(count - MAX_NOTICES)
                )
                connection.execute(
                    delete(player_notices).where(player_notices.c.id.in_(list(connection.execute(oldest).scalars())))
                )

    def notices(self, player_id: str, now_ms: int) -> list[Notice]:
        """``player_id``'s live notices, newest first, from live players only."""
        query = (
            select(player_notices, players.c.name.label("from_name"))
            .join(players, players.c.id == player_notices.c.from_id)
            .where(
                player_notices.c.player_id == player_id,
                player_notices.c.expires_ms > now_ms,
                players.c.deleted_ms.is_(None),
            )
            .order_by(player_notices.c.created_ms.desc(), player_notices.c.id)
        )
        with self.engine.connect() as connection:
            return [_notice(row) for row in connection.execute(query)]

    def dismiss(self, player_id: str, notice_id: str) -> None:
        """Dismiss one of ``player_id``'s notices; ``404 notice_not_found`` for any other id."""
        with self.engine.begin() as connection:
            gone = connection.execute(
                delete(player_notices).where(player_notices.c.id == notice_id, player_notices.c.player_id == player_id)
            ).rowcount
        if not gone:
            raise notice_not_found()


def _notice(row: Any) -> Notice:
    return Notice(
        row.id,
        row.player_id,
        row.kind,
        row.from_id,
        row.from_name,
        row.game_id,
        row.seat,
        row.created_ms,
        row.expires_ms,
    )
