"""Games taken out of the ratings when an operator confirms a flag: each game's rating changes removed, and its
players' later games replayed from the ratings ledger, exactly once.

The ledger is ``player_games``: each rated game of a player with their rating before and after it.  For every
player of a removed game (on its board), :func:`remove_games` starts again from their rating before the first
removed game and walks their later rated games in order (when they ended, then the game's id): a removed game is
marked unrated and skipped; a kept one is rated again by the model (:func:`services.ratings.model.rate`) from the
game's record (its places and seats) with this player's replayed rating and the other players' ratings as the
ledger has them, so a replay never depends on the order players are replayed in.  A kept game whose record is no
longer stored (retention) is replayed by its ledger change (``mu`` moved as it did, ``sigma`` as it ended).  The
final rating, its games and its provisional flag replace the stored one (off the boards while the player is held:
:func:`services.api.ratings.watch.holds`), and the leaderboards' buckets move with it.

Only the players of the removed games are replayed: the players they met afterwards keep their ratings (their
games against them were real games; replaying everyone a booster ever met would be unbounded).

**Exactly once**: the guard is each game's ``game_ratings`` row, locked (sorted, ``FOR UPDATE``) and removable
only while ``rated``; it is set unrated (``unrated_reason`` ``removed``) in the same transaction as the replay,
so a second confirm of the same games, or of another flag naming them, finds nothing to remove.  Rows are locked
in the order :mod:`services.api.ratings.apply` takes them (guards, then ratings sorted by player), so a
confirm and a game being applied wait for each other and never deadlock.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import orjson
from sqlalchemy import Connection, select, tuple_

from services.api.ratings.apply import combined
from services.api.ratings.bucket_moves import move_buckets
from services.api.ratings.watch import holds
from services.api.records.schema import game_ratings, game_records, player_games, player_ratings
from services.ratings import policy
from services.ratings.buckets import bucket_of
from services.ratings.model import Rating, ordinal, rate
from services.ratings.provisional import off_board

REMOVED = "removed"  # game_ratings.unrated_reason


def remove_games(connection: Connection, insert: Any, game_ids: Sequence[str], now_ms: int) -> list[str]:
    """Remove these games' rating changes and replay their players (see the module doc); the games removed now
    (those already removed, or never rated, are left alone)."""
    if not game_ids:
        return []
    guards = (
        select(game_ratings.c.game_id)
        .where(game_ratings.c.game_id.in_(sorted(set(game_ids))), game_ratings.c.rated)
        .order_by(game_ratings.c.game_id)
        .with_for_update()
    )
    removed = list(connection.execute(guards).scalars())
    if not removed:
        return []
    connection.execute(
        game_ratings.update()
        .where(game_ratings.c.game_id.in_(removed))
        .values(rated=False, unrated_reason=REMOVED, applied_ms=now_ms)
    )
    touched = connection.execute(
        select(player_games.c.player_id, player_games.c.board)
        .where(player_games.c.game_id.in_(removed), player_games.c.rated)
        .distinct()
    ).all()
    pairs = sorted({(row.player_id, row.board) for row in touched})
    locked = (
        select(player_ratings)
        .where(tuple_(player_ratings.c.player_id, player_ratings.c.board).in_(pairs))
        .order_by(player_ratings.c.player_id, player_ratings.c.board)
        .with_for_update()
    )
    stored = {(row.player_id, row.board): row for row in connection.execute(locked)}
    ledger = _ledger(connection, pairs, set(removed))
    documents = _documents(connection, {row.game_id for rows in ledger.values() for row in rows})
    snapshot = _snapshot(connection, set(documents))
    moves: dict[str, Counter[tuple[str, int]]] = defaultdict(Counter)
    held = holds(connection, {player for player, _ in pairs})  # a held player's ratings stay off the boards
    for pair in pairs:
        row = stored.get(pair)
        if row is None:
            continue
        rating, games = _replay(connection, pair, ledger[pair], set(removed), documents, snapshot)
        score, off = ordinal(rating), off_board(rating, games, pair[0] in held)
        if not row.provisional:
            moves[pair[1]][(row.kind, bucket_of(row.score))] -= 1
        if not off:
            moves[pair[1]][(row.kind, bucket_of(score))] += 1
        connection.execute(
            player_ratings.update()
            .where(player_ratings.c.player_id == pair[0], player_ratings.c.board == pair[1])
            .values(mu=rating.mu, sigma=rating.sigma, score=score, games=games, provisional=off, updated_ms=now_ms)
        )
    for board, counted in sorted(moves.items()):
        move_buckets(connection, insert, board, counted)
    return removed


def _ledger(connection: Connection, pairs: Sequence[tuple[str, str]], removed: set[str]) -> dict[tuple, list]:
    """Each (player, board)'s rated games from its first removed one on, in order."""
    ledger: dict[tuple, list] = {}
    for player, board in pairs:
        query = (
            select(player_games)
            .where(player_games.c.player_id == player, player_games.c.board == board, player_games.c.rated)
            .order_by(player_games.c.ended_ms, player_games.c.game_id)
        )
        rows = connection.execute(query).all()
        first = next(i for i, row in enumerate(rows) if row.game_id in removed)
        ledger[(player, board)] = rows[first:]
    return ledger


def _documents(connection: Connection, game_ids: set[str]) -> dict[str, dict[str, Any]]:
    if not game_ids:
        return {}
    query = select(game_records.c.game_id, game_records.c.body).where(game_records.c.game_id.in_(sorted(game_ids)))
    return {row.game_id: orjson.loads(row.body) for row in connection.execute(query)}


def _snapshot(connection: Connection, game_ids: set[str]) -> dict[tuple[str, str], Rating]:
    """Every player's rating before each of these games, as the ledger has it before any replay."""
    if not game_ids:
        return {}
    query = select(player_games).where(player_games.c.game_id.in_(sorted(game_ids)), player_games.c.rated)
    return {
        (row.game_id, row.player_id): Rating(row.mu_before, row.sigma_before)
        for row in connection.execute(query)
        if row.mu_before is not None
    }


def _replay(
    connection: Connection,
    pair: tuple[str, str],
    rows: Sequence[Any],
    removed: set[str],
    documents: dict[str, dict[str, Any]],
    snapshot: dict[tuple[str, str], Rating],
) -> tuple[Rating, int]:
    """One player's rating and rated games after replaying ``rows`` without the removed games."""
    player, board = pair
    rating = Rating(rows[0].mu_before, rows[0].sigma_before)
    games = (rows[0].games_after or 1) - 1
    for row in rows:
        where = (player_games.c.player_id == player, player_games.c.game_id == row.game_id)
        if row.game_id in removed:
            connection.execute(
                player_games.update()
                .where(*where)
                .values(
                    rated=False, mu_before=None, sigma_before=None, mu_after=None, sigma_after=None, games_after=None
                )
            )
            continue
        before, games = rating, games + 1
        rating = _rerated(player, board, row, before, documents.get(row.game_id), snapshot)
        connection.execute(
            player_games.update()
            .where(*where)
            .values(
                mu_before=before.mu, sigma_before=before.sigma, mu_after=rating.mu, sigma_after=rating.sigma,
                games_after=games,
            )
        )  # fmt: skip
    return rating, games


def _rerated(
    player: str,
    board: str,
    row: Any,
    before: Rating,
    document: dict[str, Any] | None,
    snapshot: dict[tuple[str, str], Rating],
) -> Rating:
    """``player``'s rating after a kept game, from ``before``: the model on the game's record, else its ledger
    change."""
    seats = policy.seat_players(document) if document is not None else []
    known = all(p is not None and (p == player or (row.game_id, p) in snapshot) for p in seats)
    if document is None or not seats or not known:
        return Rating(before.mu + (row.mu_after - row.mu_before), row.sigma_after)
    ratings = [before if p == player else snapshot[(row.game_id, p)] for p in seats]
    steady = [policy.is_computer(p) for p in seats]
    by_seat = rate(board, ratings, policy.side_places(document), steady)
    return combined(before, [by_seat[s] for s, p in enumerate(seats) if p == player])
