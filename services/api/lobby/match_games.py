"""A quick match's group seated: its game created (idempotently), its members marked seated.

The group's game id and its people's seat-token hashes were fixed when the group formed
(:mod:`services.api.store.matches`), so whichever process holds the group creates the same game: the first
creation commits, a repeated one (a slow creator, or the one that took over after a crash) finds it made.  The
people sit in arrival order from seat 0; the other seats, if the wait ran out first, go to computers of the
level the longest-waiting member asked for, which is also the game's takeover level.

Quotas: each member's hashed creator ids hold the game while it is in play, as a created game's creators
do (released by the commit that ends it).  The hold is taken without a limit — the request held a place
among its client's games in play when it was made (``match:<id>``) — and that place is given back here.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence

import orjson

from services.api.games import commands
from services.api.games.commands import Collaborators, FixedIds
from services.api.games.quotas import NO_QUOTAS
from services.api.games.record import PlayerRef
from services.api.lobby.rules_summary import rules_request
from services.api.metrics import MATCH_REQUESTS, MATCH_SEAT_SECONDS, MATCHES_FORMED
from services.api.store.matches import Group, MatchRequest, MatchTimes

log = logging.getLogger(__name__)
SEATS = 4


def request_hold(match_id: str) -> str:
    """The id a waiting request holds its client's place among its games in play under."""
    return f"match:{match_id}"


def slot_holders(holders: Sequence[str]) -> list[str]:
    """A request's holders among its client's match requests (the ``too_many_matches`` count)."""
    return [f"m{holder}" for holder in holders]


def creation_body(group: Group) -> dict[str, object]:
    """The group's game as a create request (validated already: the bucket's rules resolved)."""
    spec = orjson.loads(group.spec)
    level = group.members[0].level
    people = len(group.members)
    seats = [{"type": "human"}] * people + [{"type": "ai", "level": level}] * (SEATS - people)
    # matched: strangers met here, without hints (a rated game when it has a clock: services.ratings.policy)
    options = {"ai_takeover": level, "hints": False, "public": False, "matched": True, "clock": spec["clock"]}
    return {"rules": rules_request(spec["rules"]), "seats": seats, "options": options}


def group_players(group: Group) -> tuple[PlayerRef | None, ...]:
    """Each member's player (from the player token its request carried), in seat order; a player who sent two
    requests that landed in one group is bound to the first of its seats only (one player, one seat)."""
    seen: set[str] = set()
    players: list[PlayerRef | None] = []
    for member in group.members:
        if member.player is None or member.player[0] in seen:
            players.append(None)
            continue
        seen.add(member.player[0])
        players.append(PlayerRef(*member.player))
    return tuple(players)


def seat_group(
    ctx: Collaborators, bucket: str, group: Group, times: MatchTimes, hold_seconds: int
) -> list[MatchRequest]:
    """Create the group's game (unless made already) and mark its members seated; the members this call
    seated (none when another process finished the group first).  ``hold_seconds``: how long the members'
    creators hold the game at most (0: quotas off)."""
    store = ctx.store
    creators = tuple(dict.fromkeys(holder for member in group.members for holder in member.holders))
    now = times.now_ms / 1000
    if hold_seconds:
        for creator in creators:  # idempotent: a repeated creation holds nothing twice
            store.hold_game(creator, group.game_id, False, (0, 0), now, now + hold_seconds)
    token_hashes = tuple(m.token_hash for m in group.members) + (None,) * (SEATS - len(group.members))
    clients = tuple(m.client for m in group.members) + (None,) * (SEATS - len(group.members))
    fixed = FixedIds(group.game_id, token_hashes, group_players(group), clients)
    commands.create_game(dataclasses.replace(ctx, quotas=NO_QUOTAS), creation_body(group), creators, fixed)
    seated = store.match_seated(bucket, group.game_id, times)
    if seated:
        MATCHES_FORMED.labels(str(len(group.members))).inc()
    for member in seated:
        MATCH_REQUESTS.labels("seated").inc()
        MATCH_SEAT_SECONDS.observe(max(0.0, ((member.ended_ms or times.now_ms) - member.created_ms) / 1000))
        release_request(ctx, member)
    return seated


def release_request(ctx: Collaborators, request: MatchRequest) -> None:
    """The request ended: it no longer counts among its client's requests nor holds a place among its games
    (never raises: both lapse anyway)."""
    if not request.holders:
        return
    try:
        ctx.store.release_waiting(slot_holders(request.holders), request.match_id)
        ctx.store.release_game(request.holders, request_hold(request.match_id))
    except Exception:
        log.warning("could not release a match request's quotas", extra={"match_id": request.match_id}, exc_info=True)
