"""The lobby's operations: public tables (a page, the stream of changes) and quick match.

:class:`LobbyMethods` is part of :class:`spades_client.client.SpadesClient` (its methods use the client's
plumbing); the models are the contract's ``PublicTable``, ``TablesPage``, ``TableChange``, ``MatchCreated`` and
``Match``, held to it by ``tests/clients/test_models_match_spec.py`` like every other model.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import requests

from spades_client.models import Body
from spades_client.sse import STREAM_READ_TIMEOUT, EventStream

if TYPE_CHECKING:
    from spades_client.client import SpadesClient

LOBBY_OPERATIONS: dict[str, tuple[str, str]] = {
    "listTables": ("GET", "/v1/tables"),
    "streamTables": ("GET", "/v1/tables/stream"),
    "createMatch": ("POST", "/v1/matches"),
    "getMatch": ("GET", "/v1/matches/{match_id}"),
    "cancelMatch": ("DELETE", "/v1/matches/{match_id}"),
}
POLL_WAIT = 30  # a quick match's long poll: the server answers within this many seconds


@dataclass
class PublicTable(Body):
    SCHEMA: ClassVar[str] = "PublicTable"
    game_id: str
    rules: dict[str, Any]  # {"preset", "house_rules"}
    clock: str
    free_seats: list[int]
    levels: list[str | None]
    people: int
    created_ms: int
    win_score: int | None = None  # the table's target (None: listed by an older server)
    lose_score: int | None = None
    players: list[dict[str, Any] | None] | None = None  # per seat, a person's player ({id, name, kind}) or None


@dataclass
class TablesPage(Body):
    SCHEMA: ClassVar[str] = "TablesPage"
    tables: list[PublicTable]
    next_cursor: str | None
    last_seq: int


@dataclass
class TableChange(Body):
    """One change of the listing: ``type`` is ``table_opened``, ``table_changed`` or ``table_closed``."""

    SCHEMA: ClassVar[str] = "TableChange"
    seq: int
    type: str
    game_id: str
    at_ms: int
    table: PublicTable | None


@dataclass
class MatchCreated(Body):
    SCHEMA: ClassVar[str] = "MatchCreated"
    match_id: str
    secret: str
    status: str
    expires_ms: int
    server_time_ms: int


@dataclass
class Match(Body):
    """A quick-match request as it is; once ``status`` is ``seated``, ``game_id``, ``seat`` and the seat's ``token``.
    While it waits, ``found`` of the ``seats`` have people (you included), and computers of ``fill_level`` would take
    the others if the wait ran out now (None from a server that predates them)."""

    SCHEMA: ClassVar[str] = "Match"
    match_id: str
    status: str
    created_ms: int
    expires_ms: int
    server_time_ms: int
    game_id: str | None
    seat: int | None
    token: str | None
    found: int | None = None
    seats: int | None = None
    fill_level: str | None = None


LOBBY_MODELS: tuple[type[Body], ...] = (PublicTable, TablesPage, TableChange, MatchCreated, Match)


class LobbyMethods:
    """The lobby's operations (mixed into :class:`spades_client.client.SpadesClient`)."""

    def list_tables(
        self: SpadesClient,
        preset: str | None = None,
        clock: str | None = None,
        free_seats: int | None = None,
        level: str | None = None,
        cursor: str | None = None,
        limit: int | None = None,
    ) -> TablesPage:
        """One page of public tables with a free seat, newest first; pass ``next_cursor`` back as ``cursor``."""
        given = {"preset": preset, "clock": clock, "free_seats": free_seats, "level": level, "cursor": cursor}
        params = {name: value for name, value in {**given, "limit": limit}.items() if value is not None}
        return TablesPage.from_dict(self._call("listTables", params=params).json())

    def stream_tables(self: SpadesClient, after: int = 0, max_failures: int = 10) -> EventStream:
        """An iterator over the listing's changes after ``after`` (a page's ``last_seq``), reconnecting with
        ``Last-Event-ID``."""

        def open_connection(last_seq: int) -> requests.Response:
            method, path = LOBBY_OPERATIONS["streamTables"]
            headers = {"Accept": "text/event-stream", "Last-Event-ID": str(last_seq)}
            response = self.session.request(method, self.base_url + path, headers=headers, stream=True,
                                            timeout=(self.timeout, STREAM_READ_TIMEOUT))  # fmt: skip
            if response.status_code != 200:
                raise self._problem(response)
            return response

        return EventStream(open_connection, after, max_failures, self._sleep, model=TableChange)

    def create_match(
        self: SpadesClient,
        rules: dict[str, Any] | None = None,
        clock: str | None = None,
        max_wait_seconds: int | None = None,
        fill_level: str | None = None,
    ) -> MatchCreated:
        """Ask for a quick match (the server's defaults for what is None); keep the answer's ``secret``."""
        given = {"rules": rules, "clock": clock, "max_wait_seconds": max_wait_seconds, "fill_level": fill_level}
        body = {name: value for name, value in given.items() if value is not None}
        return MatchCreated.from_dict(self._call("createMatch", json=body, resend_after_fault=False).json())

    def get_match(self: SpadesClient, match_id: str, secret: str, wait: int = 0, found: int | None = None) -> Match:
        """The request as it is, after waiting up to ``wait`` seconds (0 to 30) while it waits and, if you pass
        ``found`` (the count you show), its ``found`` is that count."""
        params = {"wait": wait} if found is None else {"wait": wait, "found": found}
        response = self._call("getMatch", match_id=match_id, params=params,
                              headers={"Authorization": f"Bearer {secret}"}, timeout=self.timeout + wait)  # fmt: skip
        return Match.from_dict(response.json())

    def cancel_match(self: SpadesClient, match_id: str, secret: str) -> Match:
        """Cancel a waiting request (a seated one raises ``Conflict``, code ``already_seated``)."""
        headers = {"Authorization": f"Bearer {secret}"}
        return Match.from_dict(self._call("cancelMatch", match_id=match_id, headers=headers).json())

    def quick_match(self: SpadesClient, bound: float = 300.0, **request: Any) -> Match:
        """Ask (``request``: :meth:`create_match`'s arguments) and follow the request until it is no longer
        waiting (or ``bound`` seconds pass): the seated answer carries ``game_id``, ``seat`` and ``token``
        (``client.as_seat(match.token)`` plays it); one still waiting at ``bound`` is cancelled."""
        created = self.create_match(**request)
        started = time.monotonic()
        while True:
            match = self.get_match(created.match_id, created.secret, wait=POLL_WAIT)
            if match.status != "waiting":
                return match
            if time.monotonic() - started > bound:
                return self.cancel_match(created.match_id, created.secret)
