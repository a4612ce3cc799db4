"""What a record read adds to the stored record document, at the time of the read: who sat where (names as they
are now: a renamed player shows its new name, a deleted one nobody), whether the game was rated (as applied,
once it is), why not (``unrated_reason``: the rule it failed, :func:`services.ratings.policy.unrated_reason`, or
the fair-play watch's hold, or an operator's removal) and each rated seat's rating before and after the game, the
change (display ratings) and whether the rating after it was provisional (:func:`services.ratings.provisional.provisional`, by the rule that runs
now).  A player whose ratings are held (:func:`services.api.ratings.watch.holds`: a flag open or confirmed) has no
row: a held rating is shown nowhere, and a ring's games would show what it took."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, select

from services.api.ratings.watch import holds
from services.api.records.schema import game_ratings, player_games, players
from services.ratings import policy
from services.ratings.model import Rating, display
from services.ratings.provisional import provisional

PLAYER_DELETED = "player_deleted"  # rated by the rule, but a player was deleted before it was applied


def by_the_rule(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with ``rated`` (unless the record says) and, when it is not, ``unrated_reason`` by the rule of
    rated play: all a read can say with no database (its names and the applied ratings are the database's)."""
    reason = policy.unrated_reason(document)
    document.setdefault("rated", reason is None)
    if not document["rated"] and reason is not None:
        document["unrated_reason"] = reason
    return document


def annotate(connection: Connection, document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with ``players``, ``rated`` and, once applied, ``ratings`` (``GameRecordDocument``)."""
    seats = policy.seat_players(document)
    found = live_players(connection, [p for p in seats if p is not None])
    document["players"] = [seat_player(seat, player, found) for seat, player in enumerate(seats)]
    reason = by_the_rule(document).get("unrated_reason")
    game_id = document["game_id"]
    query = select(game_ratings.c.rated, game_ratings.c.unrated_reason).where(game_ratings.c.game_id == game_id)
    applied = connection.execute(query).first()
    if applied is None:
        return document
    document["rated"] = bool(applied.rated)
    if not applied.rated:
        # the fair-play watch held it, or an operator removed it; else the rule's reason, or a player gone since
        document["unrated_reason"] = applied.unrated_reason or reason or PLAYER_DELETED
        return document
    query = select(player_games).where(player_games.c.game_id == game_id, player_games.c.rated)
    moved = {row.player_id: row for row in connection.execute(query)}
    held = holds(connection, moved)  # none asked: none read
    ratings = []
    for seat, player in enumerate(seats):
        row = moved.get(player) if player is not None else None
        if row is None or row.mu_before is None or player in held:
            continue
        before = display(Rating(row.mu_before, row.sigma_before))
        rated = Rating(row.mu_after, row.sigma_after)
        after = display(rated)
        ratings.append(
            {
                "seat": seat,
                "player_id": player,
                "before": before,
                "after": after,
                "change": after - before,
                "provisional": provisional(rated, row.games_after or 0),
            }
        )
    document["ratings"] = ratings
    return document


def live_players(connection: Connection, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """These players as a read shows them now (``{id, name, kind}`` by id): a deleted one is left out."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    query = select(players.c.id, players.c.name, players.c.kind).where(
        players.c.id.in_(wanted), players.c.deleted_ms.is_(None)
    )
    return {row.id: {"id": row.id, "name": row.name, "kind": row.kind} for row in connection.execute(query)}


def seat_player(seat: int, player: str | None, found: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """Who sat at ``seat`` (``RecordPlayer``) from its player id and :func:`live_players`; None for nobody's seat
    or a deleted player."""
    if player is None:
        return None
    if player in found:
        return {"seat": seat, **found[player]}
    if policy.is_computer(player):  # a level that has played no rated game yet has no row
        return {"seat": seat, "id": player, "name": player.removeprefix(policy.COMPUTER_PREFIX), "kind": "computer"}
    return None
