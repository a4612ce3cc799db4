"""The accuracy collector's side of the records database: the rated games still to be scored (``accuracy_jobs``),
their scores (``game_accuracy``) and the accuracy flag.

- :func:`enqueue` is called in the transaction that applies a rated game with people in it
  (:func:`services.api.ratings.apply.apply_in`), so a game is queued exactly when its ratings are written;
- :func:`claim` moves each due job a lease ahead, one process at a time (a compare on ``due_ms``): a process that
  dies with a job leaves it due again when the lease ends;
- :func:`finish` writes a game's ``game_accuracy`` rows, drops its job and, in the same transaction, raises the
  accuracy flag (:func:`services.api.ratings.watch.raise_flag`, which raises no second open flag of a kind) for
  each of its people whose scored games the rule (:func:`services.ratings.accuracy.beyond_levels`) says are beyond
  the levels.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, delete, select, update

from services.api.ratings import watch
from services.api.records.schema import accuracy_jobs, game_accuracy, game_records
from services.ratings import accuracy
from services.ratings.accuracy import Accuracy

FLAG_GAMES = 50  # a player's newest scored games the flag rule reads


@dataclass(frozen=True, slots=True)
class Job:
    game_id: str
    sends: int
    work: dict[str, Any] | None  # None: its analyses not sent yet


def enqueue(connection: Connection, insert: Any, game_id: str, now_ms: int) -> None:
    """Queue a rated game's scoring, due now (inside the caller's transaction)."""
    row = {"game_id": game_id, "due_ms": now_ms, "sends": 0, "work": None, "created_ms": now_ms}
    connection.execute(insert(accuracy_jobs).values(row).on_conflict_do_nothing())


def claim(engine: Engine, now_ms: int, lease_ms: int, limit: int) -> list[Job]:
    """Up to ``limit`` due jobs, oldest due first, each moved ``lease_ms`` ahead (another process skips it)."""
    c = accuracy_jobs.c
    query = select(c.game_id, c.due_ms, c.sends, c.work).where(c.due_ms <= now_ms).order_by(c.due_ms).limit(limit)
    claimed = []
    with engine.begin() as connection:
        for row in connection.execute(query).all():
            moved = connection.execute(
                update(accuracy_jobs)
                .where(c.game_id == row.game_id, c.due_ms == row.due_ms)
                .values(due_ms=now_ms + lease_ms)
            )
            if moved.rowcount == 1:
                claimed.append(Job(row.game_id, row.sends, None if row.work is None else json.loads(row.work)))
    return claimed


def save(engine: Engine, game_id: str, sends: int, work: Mapping[str, Any], due_ms: int) -> None:
    """A job's progress, due again at ``due_ms``."""
    with engine.begin() as connection:
        connection.execute(
            update(accuracy_jobs)
            .where(accuracy_jobs.c.game_id == game_id)
            .values(sends=sends, work=json.dumps(work, sort_keys=True), due_ms=due_ms)
        )


def drop(engine: Engine, game_id: str) -> None:
    """Give a job up (its game gone, or its analyses lost too often): the game stays unscored."""
    with engine.begin() as connection:
        connection.execute(delete(accuracy_jobs).where(accuracy_jobs.c.game_id == game_id))


def document_of(engine: Engine, game_id: str) -> dict[str, Any] | None:
    """The game's shown record document, or None."""
    query = select(game_records.c.body).where(game_records.c.game_id == game_id, game_records.c.hidden.is_(False))
    with engine.connect() as connection:
        body = connection.execute(query).scalar()
    return None if body is None else json.loads(body)


def finish(
    engine: Engine, game_id: str, scored: Mapping[int, tuple[str, Accuracy]], now_ms: int
) -> dict[str, str | None]:
    """Write the game's scores (``{seat: (player_id, Accuracy)}``), drop its job, and flag its people the rule says
    are beyond the levels (see the module doc); ``{player_id: flag id}`` of the people it flagged (None: a flag of
    the kind was open already)."""
    flagged: dict[str, str | None] = {}
    with engine.begin() as connection:
        if connection.execute(select(accuracy_jobs.c.game_id).where(accuracy_jobs.c.game_id == game_id)).first():
            connection.execute(delete(accuracy_jobs).where(accuracy_jobs.c.game_id == game_id))
        else:
            return flagged  # finished by another process meanwhile
        rows = [
            {"game_id": game_id, "seat": seat, "player_id": player, "scored_ms": now_ms, **_columns(figures)}
            for seat, (player, figures) in sorted(scored.items())
        ]
        if rows:
            connection.execute(game_accuracy.insert(), rows)
        for player in sorted({player for player, _ in scored.values()}):
            games = newest_games(connection, player, FLAG_GAMES)
            if accuracy.beyond_levels([figures for _, figures in games]):
                pooled = sum((figures for _, figures in games), Accuracy())
                detail = {
                    "games": len(games),
                    "cards": pooled.cards,
                    "mean_trick_excess": pooled.mean_trick_excess,
                    "true_cards": pooled.true_cards,
                    "true_agreement": pooled.true_agreement,
                }
                game_ids = [each for each, _ in games]
                flagged[player] = watch.raise_flag(connection, player, watch.ACCURACY, game_ids, detail, now_ms)
    return flagged


def newest_games(connection: Connection, player_id: str, limit: int) -> list[tuple[str, Accuracy]]:
    """The player's newest ``limit`` scored games (a game it sat twice in: its seats added up), newest first."""
    c = game_accuracy.c
    query = select(game_accuracy).where(c.player_id == player_id).order_by(c.scored_ms.desc(), c.game_id.desc())
    games: dict[str, Accuracy] = {}
    for row in connection.execute(query).all():
        if row.game_id not in games and len(games) == limit:
            break
        figures = Accuracy(
            row.decisions, row.accurate, row.given_away, row.cards, row.trick_excess, row.true_cards, row.true_agreed
        )
        games[row.game_id] = games.get(row.game_id, Accuracy()) + figures
    return list(games.items())


def _columns(figures: Accuracy) -> dict[str, Any]:
    return {
        "decisions": figures.decisions,
        "accurate": figures.accurate,
        "given_away": figures.given_away,
        "cards": figures.cards,
        "trick_excess": figures.trick_excess,
        "true_cards": figures.true_cards,
        "true_agreed": figures.true_agreed,
    }


def pending(connection: Connection, limit: int = 100) -> Sequence[str]:
    """The queued games (for tests and an operator's look), oldest first."""
    query = select(accuracy_jobs.c.game_id).order_by(accuracy_jobs.c.created_ms).limit(limit)
    return connection.execute(query).scalars().all()
