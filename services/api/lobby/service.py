"""The lobby part of a process from its settings: quick match and the lobby sweeper (not started)."""

from __future__ import annotations

from typing import Any

from services.api.games.commands import Collaborators
from services.api.live.wakeups import Wakeups
from services.api.lobby.match_games import NO_BLOCKS, PairingBlocks
from services.api.lobby.matchmaker import Matchmaker, MatchSettings
from services.api.lobby.sweeper import LobbySweeper


def lobby_service(
    config: dict[str, Any], ctx: Collaborators, wakeups: Wakeups, blocks: PairingBlocks = NO_BLOCKS
) -> tuple[Matchmaker, LobbySweeper | None]:
    """The process's matchmaker (``blocks``: the players' blocks, which it never seats together), and its sweeper
    unless ``LOBBY_SWEEPER_ENABLED`` is off.  The per-client caps
    are on with the rate limits (``RATE_LIMIT_ENABLED``), as every quota is."""
    limits = bool(config["RATE_LIMIT_ENABLED"])
    settings = MatchSettings(
        lease_seconds=float(config["MATCH_FORM_LEASE_SECONDS"]),
        idle_seconds=float(config["MATCH_IDLE_SECONDS"]),
        keep_seconds=float(config["MATCH_KEEP_SECONDS"]),
        per_address=int(config["MAX_MATCHES_PER_ADDRESS"]) if limits else 0,
        per_token=int(config["MAX_MATCHES_PER_TOKEN"]) if limits else 0,
    )
    matchmaker = Matchmaker(ctx, settings, wakeups, blocks=blocks)
    if not config["LOBBY_SWEEPER_ENABLED"]:
        return matchmaker, None
    interval, check = float(config["MATCH_SWEEP_INTERVAL_SECONDS"]), float(config["LOBBY_CHECK_SECONDS"])
    return matchmaker, LobbySweeper(matchmaker, interval, check)
