"""The fair-play watch in the records database: each player's outcomes in games made to count, their pairing
bans and their flags, written in the transaction that applies a finished game (:mod:`services.api.ratings.apply`)
by the rules of :mod:`services.ratings.watch`.

- :func:`watch_game` records each bound person's outcome, keeps their last ``KEPT_OUTCOMES``, and bans or flags
  them as the rules say (a flag already open of the same kind is not raised again);
- :func:`held` says whether a game's players include one with an open or confirmed flag: such a game moves no
  rating (``game_ratings.unrated_reason`` ``flagged``) until an operator clears the flag;
- :func:`holds` is that flag as a hold on the player's ratings (``review`` while it is open, ``closed`` once
  confirmed): a held player's ratings are shown nowhere and are on no leaderboard (:func:`place_on_boards`, run
  when a flag is raised or decided), so what a ring took before its flag is never shown again, and a confirmed
  player's newcomer rating never stands for play it did not show;
- :func:`active_ban` is what the matchmaker and the public tables ask before seating a player.

Flags are decided by an operator (:mod:`services.api.ratings.flags`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, delete, func, select

from services.api.ratings.bucket_moves import move_buckets
from services.api.records.database import insert_of
from services.api.records.schema import OPEN_FLAG, fair_play_flags, fair_play_outcomes, pairing_bans, player_ratings
from services.ratings import policy, watch
from services.ratings.buckets import bucket_of
from services.ratings.model import Rating
from services.ratings.provisional import off_board
from services.ratings.watch import Outcome

OPEN, CLEARED, CONFIRMED = "open", "cleared", "confirmed"
REVIEW, CLOSED = "review", "closed"  # a player's rating hold: a flag open, a flag confirmed
HIDDEN = "hidden"  # a flag open, as anyone but the player sees it: a review is nobody else's business
ACCURACY = "accuracy"  # raised by the accuracy review, decided as the others are
KINDS = (watch.SANDBAGGING, watch.BOOSTING, ACCURACY)


def watch_game(
    connection: Connection,
    insert: Any,
    document: Mapping[str, Any],
    live: Collection[str],
    ended_ms: int,
    now_ms: int,
) -> None:
    """Record the outcomes of a finished game made to count of its ``live`` people (not deleted), and ban or flag
    them as the rules say."""
    if document.get("fair_play") is None:
        return
    seats = policy.seat_players(document)
    places = policy.side_places(document)
    people = {}
    for seat, player in enumerate(seats):
        if player is None or player not in live or policy.is_computer(player) or player in people:
            continue
        beat, lost_to = watch.results(document, seat, places, seats)
        row = {
            "player_id": player,
            "game_id": document["game_id"],
            "ended_ms": ended_ms,
            "outcome": watch.outcome(document, seat, places),
            "fast": watch.fast(document),
            "beat": " ".join(beat),
            "lost_to": " ".join(lost_to),
        }
        people[player] = row
    if not people:
        return
    connection.execute(insert(fair_play_outcomes).on_conflict_do_nothing(), list(people.values()))
    for player in sorted(people):
        recent = _kept(connection, player)
        _ban(connection, insert, player, recent, now_ms)
        _flag(connection, player, recent, now_ms)


def held(connection: Connection, people: Sequence[str]) -> bool:
    """One of these players has an open or confirmed flag (a hold): their games move no rating."""
    return bool(holds(connection, people))


def holds(connection: Connection, people: Collection[str] | None = None) -> dict[str, str]:
    """The rating hold of each of these players (None: of every player) who has one: ``closed`` with a confirmed
    flag, else ``review`` with an open one."""
    if people is not None and not people:
        return {}
    query = select(fair_play_flags.c.player_id, fair_play_flags.c.status).where(
        fair_play_flags.c.status.in_((OPEN, CONFIRMED))
    )
    if people is not None:
        query = query.where(fair_play_flags.c.player_id.in_(sorted(people)))
    found: dict[str, str] = {}
    for row in connection.execute(query.distinct()):
        if row.status == CONFIRMED or row.player_id not in found:
            found[row.player_id] = CLOSED if row.status == CONFIRMED else REVIEW
    return found


def place_on_boards(connection: Connection, player_id: str, now_ms: int) -> None:
    """Put each of the player's ratings on its leaderboard or take it off, by the provisional rule and the player's
    hold, the buckets moving with it."""
    held_now = bool(holds(connection, [player_id]))
    query = (
        select(player_ratings)
        .where(player_ratings.c.player_id == player_id)
        .order_by(player_ratings.c.board)
        .with_for_update()
    )
    for row in connection.execute(query).all():
        off = off_board(Rating(row.mu, row.sigma), row.games, held_now)
        if off == bool(row.provisional):
            continue
        connection.execute(
            player_ratings.update()
            .where(player_ratings.c.player_id == player_id, player_ratings.c.board == row.board)
            .values(provisional=off, updated_ms=now_ms)
        )
        move = {(row.kind, bucket_of(row.score)): -1 if off else 1}
        move_buckets(connection, insert_of(connection), row.board, move)


def active_ban(connection: Connection, player_id: str, now_ms: int) -> int | None:
    """When the player's ban from pairing ends (Unix ms), or None when they are not banned."""
    query = select(func.max(pairing_bans.c.ends_ms)).where(pairing_bans.c.player_id == player_id)
    ends = connection.execute(query).scalar()
    return int(ends) if ends is not None and ends > now_ms else None


def raise_flag(
    connection: Connection,
    player_id: str,
    kind: str,
    game_ids: Sequence[str],
    detail: Mapping[str, Any],
    now_ms: int,
) -> str | None:
    """Flag a player for an operator's review (None: a flag of that kind is already open for them: the unique
    ``fair_play_flags_open`` index decides, so two games raising it at once make one flag); its id."""
    if kind not in KINDS:
        raise ValueError(f"unknown flag kind {kind!r}")
    flag_id = f"f_{secrets.token_hex(8)}"
    row = {
        "id": flag_id,
        "player_id": player_id,
        "kind": kind,
        "status": OPEN,
        "raised_ms": now_ms,
        "games": json.dumps(sorted(set(game_ids))),
        "detail": json.dumps(dict(detail), sort_keys=True),
    }
    add = insert_of(connection)(fair_play_flags).values(row)
    unique = {"index_elements": [fair_play_flags.c.player_id, fair_play_flags.c.kind], "index_where": OPEN_FLAG}
    raised = connection.execute(add.on_conflict_do_nothing(**unique).returning(fair_play_flags.c.id)).first()
    if raised is None:
        return None
    place_on_boards(connection, player_id, now_ms)
    return flag_id


def _kept(connection: Connection, player: str) -> list[Outcome]:
    """The player's kept outcomes, oldest first, the older ones deleted."""
    query = (
        select(fair_play_outcomes)
        .where(fair_play_outcomes.c.player_id == player)
        .order_by(fair_play_outcomes.c.ended_ms.desc(), fair_play_outcomes.c.game_id.desc())
    )
    rows = connection.execute(query.limit(watch.KEPT_OUTCOMES + 1)).all()
    if len(rows) > watch.KEPT_OUTCOMES:
        oldest = rows[watch.KEPT_OUTCOMES - 1]
        connection.execute(
            delete(fair_play_outcomes).where(
                fair_play_outcomes.c.player_id == player, fair_play_outcomes.c.ended_ms < oldest.ended_ms
            )
        )
        rows = rows[: watch.KEPT_OUTCOMES]
    return [
        Outcome(r.game_id, r.ended_ms, r.outcome, r.fast, tuple(r.beat.split()), tuple(r.lost_to.split()))
        for r in reversed(rows)
    ]


def _ban(connection: Connection, insert: Any, player: str, recent: Sequence[Outcome], now_ms: int) -> None:
    started = (
        connection.execute(select(pairing_bans.c.started_ms).where(pairing_bans.c.player_id == player)).scalars().all()
    )
    length = watch.ban_ms(recent, started, max(started, default=None), now_ms)
    if length:
        ban = insert(pairing_bans).values(player_id=player, started_ms=now_ms, ends_ms=now_ms + length)
        connection.execute(ban.on_conflict_do_nothing())


def _flag(connection: Connection, player: str, recent: Sequence[Outcome], now_ms: int) -> None:
    lost = watch.sandbagging(recent, now_ms)
    if lost:
        raise_flag(connection, player, watch.SANDBAGGING, lost, {"lost_fast": len(lost)}, now_ms)
    boosted = watch.boosting(recent, now_ms)
    if boosted is not None:
        opponents, games = boosted
        detail = {"winner": player, "losers": list(opponents), "games": len(games)}
        for flagged in (player, *opponents):
            raise_flag(connection, flagged, watch.BOOSTING, games, detail, now_ms)
