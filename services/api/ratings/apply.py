"""A finished game's ratings, stats and player games, applied exactly once, in one transaction.

The records writer calls :func:`apply_record` after it has saved a finished game's record and before the
game's outbox entry goes (:mod:`services.api.records.writer`), so a crash anywhere in between means the
entry is claimed again and the game applied again — which must then do nothing.  The guard is
``game_ratings``: the transaction's first write is that game's row (``INSERT … ON CONFLICT DO NOTHING``),
and a game already there is left alone.  Everything else the game changes is written in the same
transaction, so it is there completely or not at all, and a second writer on the same game waits on the
guard row and then finds it.

What a game writes:

- **rated** (:func:`services.ratings.policy.is_rated`): each player's rating on the game's board from the
  model (:func:`services.ratings.model.rate`), its ``score`` (the ordinal the leaderboards rank on), whether it
  is provisional (:func:`services.ratings.provisional.provisional`) and its move in ``rating_buckets``
  (:mod:`services.ratings.buckets`), which count only ratings that are not: out of the old bucket if it was
  counted there, into the new one if it is counted now; stats and a player game with the rating before and
  after and the games it has rated, for every player including the computer levels (their rows are made on
  first use).  A computer level on several seats moves by the mean of its seats' changes (partner and opponent
  seats cancel out) and counts the game once, as its first seat;
- **unrated**: stats and a player game (``rated`` false) for each person or bot bound to a seat;
- no bound person and not rated: only the guard row;
- a game made to count: each person's outcome, and the bans and flags it earns (the fair-play watch,
  :mod:`services.api.ratings.watch`); a game that would be rated but has a player with an open or confirmed flag
  moves no rating (``unrated_reason`` ``flagged``);
- a rated game with people in it, when asked (``score``): its accuracy job (:mod:`services.api.ratings.accuracy_jobs`),
  so the accuracy collector scores its people's moves.

Every player game keeps the game's final scores (the record's ``result.scores``): the player's page shows them.

Concurrent games lock what they share in one order — the people's ``players`` rows (shared: a deletion waits
for this game, or went first and its player is skipped), the guard, the rating rows sorted by player (``SELECT …
FOR UPDATE`` on PostgreSQL; SQLite has one writer at a time anyway), then buckets, then stats, sorted — so two
games of the same players wait for each other and never deadlock.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, select

from services.api.ratings import accuracy_jobs, watch
from services.api.ratings.bucket_moves import move_buckets
from services.api.records.crash_points import crash_point
from services.api.records.database import insert_of
from services.api.records.schema import (
    game_ratings,
    player_games,
    player_ratings,
    player_stats,
    players,
)
from services.api.store.protocol import now_ms as clock_ms
from services.ratings import policy
from services.ratings.buckets import bucket_of
from services.ratings.model import INITIAL, Rating, ordinal, rate
from services.ratings.provisional import off_board
from services.ratings.stats import FIELDS, seat_stats

FLAGGED = "flagged"  # game_ratings.unrated_reason: held by the fair-play watch


def applier(engine: Engine, computer_only: bool, score: bool = False) -> Callable[[dict[str, Any], int], bool]:
    """The records writer's hook: :func:`apply_record` on ``engine``, stamped with the time it runs."""
    return lambda document, ended_ms: apply_record(engine, document, ended_ms, clock_ms(), computer_only, score)


def apply_record(
    engine: Engine,
    document: Mapping[str, Any],
    ended_ms: int,
    now_ms: int,
    computer_only: bool,
    score: bool = False,
) -> bool:
    """Apply a finished game's record (see the module doc) in one transaction; False when it was applied before.

    ``computer_only``: games of computers alone are rated too (``RATE_COMPUTER_ONLY_GAMES``); ``score``: a rated
    game with people in it is queued for the accuracy collector (a process that runs one)."""
    with engine.begin() as connection:
        applied = apply_in(connection, document, ended_ms, now_ms, computer_only, score)
        if applied:
            crash_point("ratings_written")
        return applied


def apply_in(
    connection: Connection,
    document: Mapping[str, Any],
    ended_ms: int,
    now_ms: int,
    computer_only: bool,
    score: bool = False,
) -> bool:
    """:func:`apply_record` inside the caller's transaction."""
    insert = insert_of(connection)
    seats = policy.seat_players(document)
    people = sorted({p for p in seats if p is not None and not policy.is_computer(p)})
    kinds = _live_kinds(connection, people)
    rated = policy.is_rated(document, computer_only) and len(kinds) == len(people)
    reason = None
    if rated and watch.held(connection, people):
        rated, reason = False, FLAGGED  # a flagged player sat: no rating moves until an operator decides
    if rated:
        _ensure_computers(connection, insert, sorted({p for p in seats if p and policy.is_computer(p)}), now_ms)
        kinds.update({p: "computer" for p in seats if p and policy.is_computer(p)})
    guard = insert(game_ratings).values(
        game_id=document["game_id"], rated=rated, applied_ms=now_ms, unrated_reason=reason
    )
    if connection.execute(guard.on_conflict_do_nothing().returning(game_ratings.c.game_id)).first() is None:
        return False  # applied before
    watch.watch_game(connection, insert, document, kinds, ended_ms, now_ms)
    if rated and score and people:
        accuracy_jobs.enqueue(connection, insert, document["game_id"], now_ms)  # scored by the collector
    first_seat: dict[str, int] = {}
    for seat, player in enumerate(seats):
        if player is not None and player in kinds and (rated or not policy.is_computer(player)):
            first_seat.setdefault(player, seat)
    if not first_seat:
        return True
    board = policy.board(document)
    changes: dict[str, Change] = {}
    if rated:
        changes = _rate(connection, insert, document, board, seats, kinds, now_ms)
    _add_stats(connection, insert, document, first_seat, now_ms)
    rows, won = [], policy.seats_won(document)
    scores = orjson.dumps(list(document["result"]["scores"])).decode()  # the same for each player: the game's
    for player, seat in sorted(first_seat.items()):
        before, after, games = changes.get(player, (None, None, None))
        rows.append(
            {
                "player_id": player,
                "game_id": document["game_id"],
                "seat": seat,
                "ended_ms": ended_ms,
                "won": won[seat],
                "board": board,
                "rated": rated,
                "mu_before": before.mu if before else None,
                "sigma_before": before.sigma if before else None,
                "mu_after": after.mu if after else None,
                "sigma_after": after.sigma if after else None,
                "games_after": games,
                "scores": scores,
            }
        )
    connection.execute(insert(player_games).on_conflict_do_nothing(), rows)
    return True


Change = tuple[Rating, Rating, int]  # a player's rating before and after a game, and its rated games with it


def combined(before: Rating, after_by_seat: Sequence[Rating]) -> Rating:
    """One player's new rating from the model's answers for each of its seats: the mean move of ``mu`` and the
    smallest ``sigma`` (one game's worth of certainty, however many seats it filled)."""
    shift = sum(each.mu - before.mu for each in after_by_seat) / len(after_by_seat)
    return Rating(before.mu + shift, min(each.sigma for each in after_by_seat))


def _live_kinds(connection: Connection, ids: Sequence[str]) -> dict[str, str]:
    """The kind of each of these players that exists and is not deleted, their rows share-locked (sorted) until
    the commit: a player's deletion waits for this game's rows and then removes them, or went first and is seen
    here."""
    if not ids:
        return {}
    query = (
        select(players.c.id, players.c.kind, players.c.deleted_ms)
        .where(players.c.id.in_(sorted(ids)))
        .order_by(players.c.id)
        .with_for_update(read=True)
    )
    return {row.id: row.kind for row in connection.execute(query) if row.deleted_ms is None}


def _ensure_computers(connection: Connection, insert: Any, ids: Sequence[str], now_ms: int) -> None:
    """The computer levels' player rows, made on first use (``computer-<level>``, named by the level)."""
    for player in ids:
        row = {
            "id": player,
            "kind": "computer",
            "name": player.removeprefix(policy.COMPUTER_PREFIX),
            "name_key": None,
            "created_ms": now_ms,
        }
        connection.execute(insert(players).values(row).on_conflict_do_nothing())


def _rate(
    connection: Connection,
    insert: Any,
    document: Mapping[str, Any],
    board: str,
    seats: Sequence[str | None],
    kinds: Mapping[str, str],
    now_ms: int,
) -> dict[str, Change]:
    """Lock, rate and write the players' ratings and buckets; each player's rating before and after, and its
    rated games."""
    ids = sorted(kinds)
    for player in ids:  # a first game: its row made now (sorted, as the locks below are taken), provisional
        row = {
            "player_id": player,
            "board": board,
            "kind": kinds[player],
            "mu": INITIAL.mu,
            "sigma": INITIAL.sigma,
            "score": ordinal(INITIAL),
            "games": 0,
            "updated_ms": now_ms,
            "provisional": True,
        }
        connection.execute(insert(player_ratings).values(row).on_conflict_do_nothing())
    locked = (
        select(player_ratings)
        .where(player_ratings.c.board == board, player_ratings.c.player_id.in_(ids))
        .order_by(player_ratings.c.player_id)
        .with_for_update()
    )
    stored = {row.player_id: row for row in connection.execute(locked)}
    before = {player: Rating(stored[player].mu, stored[player].sigma) for player in ids}
    rated = [p for p in seats if p is not None]
    steady = [stored[p].kind == "computer" for p in rated]  # a level's play never changes: no drift
    by_seat = rate(board, [before[p] for p in rated], policy.side_places(document), steady)
    changes: dict[str, Change] = {}
    moves: Counter[tuple[str, int]] = Counter()
    held = watch.holds(connection, ids)  # flagged by this very game (the watch ran first): off the board with it
    for player in ids:
        after = combined(before[player], [by_seat[s] for s, p in enumerate(seats) if p == player])
        row, score = stored[player], ordinal(after)
        games = row.games + 1
        changes[player] = (before[player], after, games)
        off = off_board(after, games, player in held)
        if not row.provisional:  # counted in the buckets until now (a new row is provisional)
            moves[(row.kind, bucket_of(row.score))] -= 1
        if not off:
            moves[(row.kind, bucket_of(score))] += 1
        connection.execute(
            player_ratings.update()
            .where(player_ratings.c.player_id == player, player_ratings.c.board == board)
            .values(mu=after.mu, sigma=after.sigma, score=score, games=games, provisional=off, updated_ms=now_ms)
        )
    move_buckets(connection, insert, board, moves)
    return changes


def _add_stats(
    connection: Connection, insert: Any, document: Mapping[str, Any], first_seat: Mapping[str, int], now_ms: int
) -> None:
    """Each player's stats plus what its (first) seat did this game."""
    by_seat = seat_stats(document, policy.seats_won(document))
    for player, seat in sorted(first_seat.items()):
        add = insert(player_stats).values(player_id=player, updated_ms=now_ms, **by_seat[seat])
        update = {name: player_stats.c[name] + add.excluded[name] for name in FIELDS}
        connection.execute(
            add.on_conflict_do_update(
                index_elements=[player_stats.c.player_id], set_={**update, "updated_ms": add.excluded.updated_ms}
            )
        )
