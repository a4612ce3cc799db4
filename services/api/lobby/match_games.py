"""A quick match's group seated: its game created (idempotently), its members marked seated.

The group's game id and its people's seat-token hashes were fixed when the group formed
(:mod:`services.api.store.matches`), so whichever process holds the group creates the same game: the first
creation commits, a repeated one (a slow creator, or the one that took over after a crash) finds it made.  The
people sit in arrival order from seat 0; the other seats, if the wait ran out first, go to computers of the
level the longest-waiting member asked for, which is also the game's takeover level.  A member whose player has
deleted itself while its request waited is dropped: its seat goes to a computer too, and its request ends
cancelled (deletion is final, :mod:`services.api.games.seat_players`), and so is one whose request came with a
credential revoked since (:mod:`services.api.games.seat_release`).  So is a member whose player blocked, or
was blocked by, a member seated before them after their requests were grouped (:func:`blocked_members`: the
groups themselves never hold a pair blocked when the requests were made, :mod:`services.api.store.match_groups`).

Quotas: each member's hashed creator ids hold the game while it is in play, as a created game's creators
do (released by the commit that ends it).  The hold is taken without a limit — the request held a place
among its client's games in play when it was made (``match:<id>``) — and that place is given back here.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Sequence
from typing import Protocol

import orjson

from services.api.games import commands
from services.api.games.commands import Collaborators, FixedIds
from services.api.games.quotas import NO_QUOTAS
from services.api.games.record import PlayerRef
from services.api.games.seat_players import AS_BOUND, Players
from services.api.lobby.rules_summary import rules_request
from services.api.metrics import MATCH_REQUESTS, MATCH_SEAT_SECONDS, MATCHES_FORMED
from services.api.store.matches import SEATED, Group, MatchRequest, MatchTimes

log = logging.getLogger(__name__)
SEATS = 4


class PairingBlocks(Protocol):
    """The players' blocks as quick match reads them (:class:`services.api.players.friends.Friends`)."""

    def blocked_by(self, player_id: str) -> set[str]:
        """The players ``player_id`` blocked."""

    def blocked_pairs(self, player_ids: Collection[str]) -> set[frozenset[str]]:
        """The pairs among ``player_ids`` of which one blocked the other."""


class NoBlocks:
    def blocked_by(self, player_id: str) -> set[str]:
        return set()

    def blocked_pairs(self, player_ids: Collection[str]) -> set[frozenset[str]]:
        return set()


NO_BLOCKS = NoBlocks()


def blocked_members(group: Group, players: Sequence[PlayerRef | None], pairs: set[frozenset[str]]) -> set[str]:
    """The members to drop so that no ``pairs`` sit together: each one blocked with a member kept before it (seat
    order), pure."""
    kept: list[str] = []
    dropped = set()
    for member, player in zip(group.members, players, strict=False):
        if player is None:
            continue
        if any(frozenset((player.id, other)) in pairs for other in kept):
            dropped.add(member.match_id)
        else:
            kept.append(player.id)
    return dropped


def request_hold(match_id: str) -> str:
    """The id a waiting request holds its client's place among its games in play under."""
    return f"match:{match_id}"


def slot_holders(holders: Sequence[str]) -> list[str]:
    """A request's holders among its client's match requests (the ``too_many_matches`` count)."""
    return [f"m{holder}" for holder in holders]


def creation_body(group: Group, dropped: Collection[str] = ()) -> dict[str, object]:
    """The group's game as a create request (validated already: the bucket's rules resolved); the seats of the
    ``dropped`` members go to computers, as the seats nobody asked for."""
    spec = orjson.loads(group.spec)
    level = group.members[0].level
    computer = {"type": "ai", "level": level}
    seats = [computer if m.match_id in dropped else {"type": "human"} for m in group.members]
    seats += [computer] * (SEATS - len(seats))
    # matched: strangers met here, without hints (a rated game when it has a clock: services.ratings.policy)
    options = {"ai_takeover": level, "hints": False, "public": False, "matched": True, "clock": spec["clock"]}
    return {"rules": rules_request(spec["rules"]), "seats": seats, "options": options}


def group_players(group: Group, players: Players = AS_BOUND) -> tuple[tuple[PlayerRef | None, ...], set[str]]:
    """Each member's player (from the player token its request carried) as it is now, in seat order; a player
    who sent two requests that landed in one group is bound to the first of its seats only (one player, one
    seat).  And the members to drop: those whose player has deleted itself since (deletion is final), or whose
    credential (the session or player token the request came with) is dead since."""
    found: dict[str, PlayerRef | None] = {}
    bound: list[PlayerRef | None] = []
    dropped: set[str] = set()
    for member in group.members:
        if member.player is None:
            bound.append(None)
            continue
        player_id = member.player[0]
        first = player_id not in found
        if first:
            ref = PlayerRef(*member.player, credential=member.credential)
            found[player_id] = current = players.current(ref)
            if current is not None and ref.credential is not None and players.lapsed(player_id, [ref.credential]):
                found[player_id] = None  # the credential it came with was revoked while it waited: not seated
        if found[player_id] is None:
            dropped.add(member.match_id)
        bound.append(found[player_id] if first else None)
    return tuple(bound), dropped


def seat_group(
    ctx: Collaborators,
    bucket: str,
    group: Group,
    times: MatchTimes,
    hold_seconds: int,
    blocks: PairingBlocks = NO_BLOCKS,
) -> list[MatchRequest]:
    """Create the group's game (unless made already) and mark its members seated; the members this call
    seated (none when another process finished the group first).  A member whose player has deleted itself
    is not seated: its seat goes to a computer and its request ends cancelled; a group of none but those makes
    no game.  ``hold_seconds``: how long the members' creators hold the game at most (0: quotas off).  A pair
    blocked since their requests were made: the later member is dropped the same way."""
    store = ctx.store
    players, dropped = group_players(group, ctx.players)
    bound = [p.id for i, p in enumerate(players) if p is not None and group.members[i].match_id not in dropped]
    if len(bound) > 1:
        dropped |= blocked_members(group, players, blocks.blocked_pairs(bound))
    made = store.load(group.game_id) if dropped else None
    if made is not None:  # made already, by a creation that found them all live: the game says who sits there
        dropped = {m.match_id for i, m in enumerate(group.members) if made.seats[i].token_hash != m.token_hash}
    kept = [member for member in group.members if member.match_id not in dropped]
    creators = tuple(dict.fromkeys(holder for member in kept for holder in member.holders))
    now = times.now_ms / 1000
    if hold_seconds:
        for creator in creators:  # idempotent: a repeated creation holds nothing twice
            store.hold_game(creator, group.game_id, False, (0, 0), now, now + hold_seconds)
    if kept:
        token_hashes = [None if m.match_id in dropped else m.token_hash for m in group.members]
        token_hashes += [None] * (SEATS - len(token_hashes))
        clients = [None if m.match_id in dropped else m.client for m in group.members]
        clients += [None] * (SEATS - len(clients))
        fixed = FixedIds(group.game_id, tuple(token_hashes), players, tuple(clients))
        body = creation_body(group, dropped)
        commands.create_game(dataclasses.replace(ctx, quotas=NO_QUOTAS), body, creators, fixed)
    ended = store.match_seated(bucket, group.game_id, times, sorted(dropped))
    seated = [member for member in ended if member.status == SEATED]
    if seated:
        MATCHES_FORMED.labels(str(len(seated))).inc()
    for member in ended:
        if member.status == SEATED:
            MATCH_REQUESTS.labels("seated").inc()
            MATCH_SEAT_SECONDS.observe(max(0.0, ((member.ended_ms or times.now_ms) - member.created_ms) / 1000))
        else:
            MATCH_REQUESTS.labels("dropped").inc()
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
