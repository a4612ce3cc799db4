"""A player deleting themselves: what goes, what stays, in one transaction.

Goes: the name (and its keys: anyone may take it now), the token (every copy of it stops working), its devices'
sessions, link codes, recovery codes and passkeys, its follows, blocks and notices either way, its last seen, the ratings
(the leaderboards' rows, and the player's place in each rating bucket), the stats and the list of the player's
games.  Stays, anonymised: the player's row (``deleted_ms`` set; its id is what the games' other seats were
played against) and every record of the player's games, whose document no longer names the player (each
seat's and each rating change's ``player_id`` of theirs becomes null).  The games are found through both
``player_games`` (the games rated or counted for the player) and ``record_seats.player_id`` (every recorded
game, an abandoned one too).

Ordering with the records writer: the first statement updates the player's row, so a record being stored at
the same moment (which reads the seats' players under a share lock, :mod:`services.api.records.repository`)
either committed first — and is found below — or waits and then stores the record without the player.
"""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import Connection, delete, select, update

from services.api.records.schema import (
    blocks,
    follows,
    game_records,
    link_codes,
    passkey_challenges,
    passkeys,
    player_games,
    player_notices,
    player_presence,
    player_ratings,
    player_sessions,
    player_stats,
    players,
    rating_buckets,
    record_seats,
    recovery_codes,
)
from services.ratings.buckets import bucket_of

BATCH = 200  # records rewritten per query: bounds the memory a player with many games takes


def delete_player(connection: Connection, player_id: str, now_ms: int) -> bool:
    """Delete and anonymise ``player_id`` on ``connection`` (the caller's transaction); False when it was
    deleted already (nothing changed)."""
    cleared = connection.execute(
        update(players)
        .where(players.c.id == player_id, players.c.deleted_ms.is_(None), players.c.kind != "computer")
        .values(name=None, name_key=None, shape_key=None, token_hash=None, deleted_ms=now_ms)
    ).rowcount
    if not cleared:
        return False
    mine = (player_sessions, link_codes, recovery_codes, passkeys, passkey_challenges)
    for table in (*mine, follows, blocks, player_presence, player_notices):
        connection.execute(delete(table).where(table.c.player_id == player_id))
    connection.execute(delete(follows).where(follows.c.followed_id == player_id))
    connection.execute(delete(blocks).where(blocks.c.blocked_id == player_id))
    connection.execute(delete(player_notices).where(player_notices.c.from_id == player_id))
    drop_ratings(connection, player_id)
    connection.execute(delete(player_stats).where(player_stats.c.player_id == player_id))
    games = set(connection.execute(select(player_games.c.game_id).where(player_games.c.player_id == player_id)))
    games |= set(connection.execute(select(record_seats.c.game_id).where(record_seats.c.player_id == player_id)))
    ids = sorted(row[0] for row in games)
    for start in range(0, len(ids), BATCH):
        anonymise_records(connection, player_id, ids[start : start + BATCH])
    connection.execute(delete(player_games).where(player_games.c.player_id == player_id))
    connection.execute(update(record_seats).where(record_seats.c.player_id == player_id).values(player_id=None))
    return True


def drop_ratings(connection: Connection, player_id: str) -> None:
    """The player's ratings removed, each from its rating bucket's count too when it was counted there (not
    provisional; :func:`services.ratings.buckets.bucket_of`, the leaderboards' one rule): the leaderboards and
    every rank no longer count them."""
    query = select(player_ratings.c.board, player_ratings.c.kind, player_ratings.c.score, player_ratings.c.provisional)
    for row in list(connection.execute(query.where(player_ratings.c.player_id == player_id).with_for_update())):
        if row.provisional:
            continue
        connection.execute(
            update(rating_buckets)
            .where(
                rating_buckets.c.board == row.board,
                rating_buckets.c.kind == row.kind,
                rating_buckets.c.bucket == bucket_of(row.score),
            )
            .values(players=rating_buckets.c.players - 1)
        )
    connection.execute(delete(player_ratings).where(player_ratings.c.player_id == player_id))


def anonymise_records(connection: Connection, player_id: str, game_ids: list[str]) -> None:
    """Rewrite these games' record documents without ``player_id``."""
    query = select(game_records.c.game_id, game_records.c.body).where(game_records.c.game_id.in_(game_ids))
    for row in list(connection.execute(query)):
        document = orjson.loads(row.body)
        rewritten = without_player(document, player_id)
        if rewritten is not None:
            connection.execute(
                update(game_records)
                .where(game_records.c.game_id == row.game_id)
                .values(body=orjson.dumps(rewritten).decode())
            )


def without_player(document: dict[str, Any], player_id: str) -> dict[str, Any] | None:
    """``document`` with every ``player_id`` equal to ``player_id`` (its seats', its rating changes') made null;
    None when it does not name the player."""
    changed = False

    def scrub(items: Any) -> Any:
        nonlocal changed
        if not isinstance(items, list):
            return items
        out = []
        for item in items:
            if isinstance(item, dict) and item.get("player_id") == player_id:
                item = {**item, "player_id": None}
                changed = True
            out.append(item)
        return out

    rewritten = {**document, "seats": scrub(document.get("seats"))}
    if "ratings" in document:
        rewritten["ratings"] = scrub(document["ratings"])
    return rewritten if changed else None
