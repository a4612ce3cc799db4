"""The friends part of a process from its settings: follows and blocks, presence, invites, on the players' engine;
and the listing's hooks wrapped so that public tables note their players (:class:`SeatedPlayers`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine

from services.api.games.table_hooks import TableHooks
from services.api.players.friends import Friends
from services.api.players.invites import Invites
from services.api.players.presence import Presence, SeatedPlayers
from services.api.store.protocol import now_ms


@dataclass(frozen=True)
class FriendsService:
    friends: Friends
    presence: Presence
    invites: Invites
    tables: TableHooks  # the listing's hooks, noting public tables' players


def friends_service(config: dict[str, Any], engine: Engine, tables: TableHooks) -> FriendsService:
    friends = Friends(engine)
    presence = Presence(engine, int(config["ONLINE_SECONDS"]) * 1000)
    invites = Invites(engine, friends, int(config["INVITE_SECONDS"]))
    return FriendsService(friends, presence, invites, SeatedPlayers(tables, presence, now_ms))
