"""Follows and blocks between players, on the records database (``follows``, ``blocks``).

A player follows another without asking (like lichess): following shows whether the other is online and at
which public table (:mod:`services.api.players.presence`), and lets the follower invite them
(:mod:`services.api.players.invites`).  A block is the other way round: the pair is never seated together by
quick match (either direction: :func:`services.api.store.match_groups.kept_apart`), the blocked player's quick
messages are not shown to the blocker, neither may invite the other, neither may follow the other, and a block
ends both follows of the pair.  Each list is capped (:data:`MAX_FOLLOWING`, :data:`MAX_BLOCKS`): a block list
travels with every quick-match request of its player.

Only people and bots are followed or blocked: a computer level, an unknown or a deleted player is a
``404 player_not_found``, and so is oneself (``409 not_yourself``).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, and_, delete, func, or_, select

from services.api.players.repository import player_not_found
from services.api.problems import ApiError
from services.api.records.database import insert_of
from services.api.records.schema import blocks, follows, player_notices, players

MAX_FOLLOWING = 500
MAX_BLOCKS = 500
PERSON_KINDS = ("person", "bot")


@dataclass(frozen=True, slots=True)
class Related:
    """A player on one of another's lists: its id and name, and since when it is there."""

    id: str
    name: str
    kind: str
    since_ms: int


def not_yourself() -> ApiError:
    return ApiError(409, "not_yourself", "You cannot follow, block or invite yourself.")


def blocked_pair() -> ApiError:
    """The refusal of a follow or an invite between a blocked pair: it does not say who blocked whom."""
    return ApiError(403, "blocked", "You cannot follow or invite this player.")


def blocked_at_table() -> ApiError:
    """The refusal of a seat at a table where a player of a blocked pair sits: it does not say who, or whose block."""
    return ApiError(
        403, "blocked_at_table", "You cannot sit at this table: a block keeps a player there and you apart."
    )


class Friends:
    """Follows and blocks on one SQLAlchemy engine (the records database's)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._insert = insert_of(engine)

    # ---- follows ---------------------------------------------------------------------------------

    def follow(self, me: str, other: str, now_ms: int) -> Related:
        """``me`` follows ``other`` (again: nothing changes); ``404``, ``409 not_yourself``, ``403 blocked``,
        ``409 following_limit`` past :data:`MAX_FOLLOWING`."""
        with self.engine.begin() as connection:
            found = _followable(connection, me, other)
            if _blocked(connection, me, other):
                raise blocked_pair()
            since = connection.execute(
                select(follows.c.created_ms).where(follows.c.player_id == me, follows.c.followed_id == other)
            ).scalar()
            if since is not None:
                return Related(found.id, found.name, found.kind, since)
            if _count(connection, follows, me) >= MAX_FOLLOWING:
                raise ApiError(
                    409,
                    "following_limit",
                    f"You follow {MAX_FOLLOWING} players already: unfollow one first.",
                    limit=MAX_FOLLOWING,
                )
            row = {"player_id": me, "followed_id": other, "created_ms": now_ms}
            connection.execute(self._insert(follows).values(row).on_conflict_do_nothing())
        return Related(found.id, found.name, found.kind, now_ms)

    def unfollow(self, me: str, other: str) -> None:
        """``me`` no longer follows ``other`` (not following: nothing changes)."""
        with self.engine.begin() as connection:
            connection.execute(delete(follows).where(follows.c.player_id == me, follows.c.followed_id == other))

    def following(self, me: str) -> list[Related]:
        """Whom ``me`` follows (live players only), by name."""
        return self._list(follows, follows.c.followed_id, me)

    def follows(self, me: str, other: str) -> bool:
        with self.engine.connect() as connection:
            query = select(follows.c.player_id).where(follows.c.player_id == me, follows.c.followed_id == other)
            return connection.execute(query).first() is not None

    # ---- blocks ----------------------------------------------------------------------------------

    def block(self, me: str, other: str, now_ms: int) -> Related:
        """``me`` blocks ``other`` (again: nothing changes), and the pair's follows and invites end; ``404``,
        ``409 not_yourself``, ``409 block_limit`` past :data:`MAX_BLOCKS`."""
        with self.engine.begin() as connection:
            found = _followable(connection, me, other)
            since = connection.execute(
                select(blocks.c.created_ms).where(blocks.c.player_id == me, blocks.c.blocked_id == other)
            ).scalar()
            if since is None and _count(connection, blocks, me) >= MAX_BLOCKS:
                raise ApiError(
                    409, "block_limit", f"You block {MAX_BLOCKS} players already: unblock one first.", limit=MAX_BLOCKS
                )
            if since is None:
                row = {"player_id": me, "blocked_id": other, "created_ms": now_ms}
                connection.execute(self._insert(blocks).values(row).on_conflict_do_nothing())
            connection.execute(
                delete(follows).where(
                    or_(
                        and_(follows.c.player_id == me, follows.c.followed_id == other),
                        and_(follows.c.player_id == other, follows.c.followed_id == me),
                    )
                )
            )
            connection.execute(
                delete(player_notices).where(
                    or_(
                        and_(player_notices.c.player_id == me, player_notices.c.from_id == other),
                        and_(player_notices.c.player_id == other, player_notices.c.from_id == me),
                    )
                )
            )
        return Related(found.id, found.name, found.kind, now_ms if since is None else since)

    def unblock(self, me: str, other: str) -> None:
        """``me`` no longer blocks ``other`` (no follow comes back)."""
        with self.engine.begin() as connection:
            connection.execute(delete(blocks).where(blocks.c.player_id == me, blocks.c.blocked_id == other))

    def blocks(self, me: str) -> list[Related]:
        """Whom ``me`` blocked (live players only), by name."""
        return self._list(blocks, blocks.c.blocked_id, me)

    def blocked_by(self, me: str) -> set[str]:
        """The ids ``me`` blocked: what its quick-match requests carry, whose messages it is not shown."""
        with self.engine.connect() as connection:
            return set(connection.execute(select(blocks.c.blocked_id).where(blocks.c.player_id == me)).scalars())

    def either_blocked(self, a: str, b: str) -> bool:
        with self.engine.connect() as connection:
            return _blocked(connection, a, b)

    def blocked_pairs(self, player_ids: Collection[str]) -> set[frozenset[str]]:
        """The pairs among ``player_ids`` of which one blocked the other (a quick-match group's check)."""
        ids = sorted(set(player_ids))
        if len(ids) < 2:
            return set()
        query = select(blocks.c.player_id, blocks.c.blocked_id).where(
            blocks.c.player_id.in_(ids), blocks.c.blocked_id.in_(ids)
        )
        with self.engine.connect() as connection:
            return {frozenset(row) for row in connection.execute(query)}

    def _list(self, table, other_column, me: str) -> list[Related]:  # type: ignore[no-untyped-def]
        query = (
            select(players.c.id, players.c.name, players.c.kind, table.c.created_ms)
            .join(players, players.c.id == other_column)
            .where(table.c.player_id == me, players.c.deleted_ms.is_(None))
            .order_by(players.c.name, players.c.id)
        )
        with self.engine.connect() as connection:
            return [Related(row.id, row.name, row.kind, row.created_ms) for row in connection.execute(query)]


def _followable(connection: Connection, me: str, other: str) -> Related:
    """``other`` as a live person or bot; ``409 not_yourself`` for ``me``, 404 for any other player."""
    if other == me:
        raise not_yourself()
    row = connection.execute(
        select(players.c.id, players.c.name, players.c.kind).where(
            players.c.id == other, players.c.deleted_ms.is_(None), players.c.kind.in_(PERSON_KINDS)
        )
    ).first()
    if row is None:
        raise player_not_found()
    return Related(row.id, row.name, row.kind, 0)


def _blocked(connection: Connection, a: str, b: str) -> bool:
    query = select(blocks.c.player_id).where(
        or_(
            and_(blocks.c.player_id == a, blocks.c.blocked_id == b),
            and_(blocks.c.player_id == b, blocks.c.blocked_id == a),
        )
    )
    return connection.execute(query).first() is not None


def _count(connection: Connection, table, me: str) -> int:  # type: ignore[no-untyped-def]
    return int(connection.execute(select(func.count()).select_from(table).where(table.c.player_id == me)).scalar())
