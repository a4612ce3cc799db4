"""The events' operations (``/v1/events``): create a duplicate-pairs event or an arena, list and read events, join
as a pair (inviting your partner, who accepts), withdraw, start, a board's scoresheet; join an arena, read your
entrant (your game and seat when paired), withdraw, and its standings page by page.

:class:`EventMethods` is part of :class:`spades_client.client.SpadesClient`; creating, joining, accepting,
withdrawing and starting need the client's ``player_token``.  Your table in the current round is in
``EventDetail.current_round.tables`` (its ``game_id``; North-South at seats 0 and 2, East-West at 1 and 3): take
your seat with ``take_my_seat``.  The models are the contract's, held to it by
``tests/clients/test_models_match_spec.py``.  (``Event`` in :mod:`spades_client.models` is a game's log entry.)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from spades_client.event_stream import follow_event
from spades_client.models import Body

if TYPE_CHECKING:
    from spades_client.client import SpadesClient

EVENT_OPERATIONS: dict[str, tuple[str, str]] = {
    "createEvent": ("POST", "/v1/events"),
    "listEvents": ("GET", "/v1/events"),
    "getEvent": ("GET", "/v1/events/{event_id}"),
    "joinEvent": ("POST", "/v1/events/{event_id}/pairs"),
    "acceptPair": ("POST", "/v1/events/{event_id}/pairs/{pair_id}/accept"),
    "withdrawPair": ("DELETE", "/v1/events/{event_id}/pairs/{pair_id}"),
    "startEvent": ("POST", "/v1/events/{event_id}/start"),
    "getEventBoard": ("GET", "/v1/events/{event_id}/boards/{board}"),
    "joinArena": ("POST", "/v1/events/{event_id}/entrants"),
    "getArenaEntrant": ("GET", "/v1/events/{event_id}/entrants/{player_id}"),
    "withdrawFromArena": ("DELETE", "/v1/events/{event_id}/entrants/{player_id}"),
    "getArenaStandings": ("GET", "/v1/events/{event_id}/standings"),
    "streamEvent": ("GET", "/v1/events/{event_id}/stream"),
}


@dataclass
class EventPairMember(Body):
    SCHEMA: ClassVar[str] = "EventPairMember"
    player_id: str
    name: str
    kind: str


@dataclass
class EventPair(Body):
    """Fixed partners: ``number`` from the start (the movement's), ``invited`` until the partner accepts."""

    SCHEMA: ClassVar[str] = "EventPair"
    pair_id: str
    number: int | None
    kind: str
    players: list[EventPairMember]
    invited: str | None
    withdrawn: bool


@dataclass
class EventSummary(Body):
    SCHEMA: ClassVar[str] = "EventSummary"
    event_id: str
    name: str
    format: str
    status: str
    creator: str
    max_pairs: int
    deals_per_round: int
    rounds: int
    clock: str
    rated: bool
    bots_allowed: bool
    stand_in_level: str
    start_at_ms: int | None
    par: bool
    minutes: int
    seating: str
    max_players: int
    pairs_count: int
    created_ms: int


@dataclass
class EventStanding(Body):
    SCHEMA: ClassVar[str] = "EventStanding"
    rank: int
    pair: int
    matchpoints: float
    top: int
    percent: float


@dataclass
class EventTable(Body):
    SCHEMA: ClassVar[str] = "EventTable"
    table: int
    ns: int
    ew: int
    game_id: str


@dataclass
class EventRound(Body):
    SCHEMA: ClassVar[str] = "EventRound"
    number: int
    finished: bool
    tables_finished: list[int]
    no_shows: list[int]
    tables: list[EventTable]


@dataclass
class ArenaEntrant(Body):
    """An arena entrant's standing and where it is: ``status`` ``playing`` (``game_id``, ``seat``: take it with
    ``take_my_seat``), ``waiting`` or ``withdrawn``."""

    SCHEMA: ClassVar[str] = "ArenaEntrant"
    rank: int | None
    player_id: str
    name: str
    kind: str
    rating: int
    points: int
    games: int
    wins: int
    run: int
    on_fire: bool
    performance: int
    status: str
    game_id: str | None
    seat: int | None


@dataclass
class Arena(Body):
    SCHEMA: ClassVar[str] = "Arena"
    seating: str
    minutes: int
    started_ms: int | None
    ends_ms: int | None
    entrants: int
    waiting: int
    games_in_play: int
    standings: list[ArenaEntrant]


@dataclass
class ArenaStandings(Body):
    SCHEMA: ClassVar[str] = "ArenaStandings"
    event_id: str
    start: int
    entrants: int
    standings: list[ArenaEntrant]


@dataclass
class EventDetail(EventSummary):
    """The summary's fields, then the event's pairs, standings and rounds (an arena: ``arena``)."""

    SCHEMA: ClassVar[str] = "EventDetail"
    arena: Arena | None
    version: int
    finished_ms: int | None
    pairs: list[EventPair]
    standings: list[EventStanding]
    current_round: EventRound | None
    boards: list[int]

    def pair_of(self, player_id: str) -> EventPair | None:
        """The pair ``player_id`` is in (or invited to)."""
        return next(
            (p for p in self.pairs if p.invited == player_id or player_id in {m.player_id for m in p.players}), None
        )


@dataclass
class EventsPage(Body):
    SCHEMA: ClassVar[str] = "EventsPage"
    events: list[EventSummary]


@dataclass
class ScoresheetTable(Body):
    """One table's play of a board: bids and tricks by seat, each side's ``score`` (``{"ns", "ew"}``) and, once
    every table has played the board, its ``matchpoints`` (``{"ns", "ew", "top"}``)."""

    SCHEMA: ClassVar[str] = "ScoresheetTable"
    table: int
    ns: int
    ew: int
    game_id: str
    finished: bool
    bids: list[int] | None
    tricks: list[int] | None
    score: dict[str, Any] | None
    matchpoints: dict[str, Any] | None
    no_show: list[int]


@dataclass
class Scoresheet(Body):
    SCHEMA: ClassVar[str] = "Scoresheet"
    event_id: str
    board: int
    round: int
    deal: int
    tables: list[ScoresheetTable]
    par: dict[str, Any] | None  # the expert's par, each side's score ({"ns", "ew"}); None without it or until played
    par_game_id: str | None  # the expert table's game, for its replay


EVENT_MODELS: tuple[type[Body], ...] = (
    EventPairMember,
    EventPair,
    EventSummary,
    EventStanding,
    EventTable,
    EventRound,
    EventDetail,
    EventsPage,
    ScoresheetTable,
    Scoresheet,
    ArenaEntrant,
    Arena,
    ArenaStandings,
)


class EventMethods:
    """The events' operations (mixed into :class:`spades_client.client.SpadesClient`)."""

    def create_event(self: SpadesClient, name: str, format: str = "duplicate_pairs", **settings: Any) -> EventDetail:
        """A new event (``settings``: ``max_pairs``, ``deals_per_round``, ``rounds``, ``clock``, ``rated``,
        ``bots_allowed``, ``stand_in_level``, ``start_at_ms``, ``par``; an arena's ``minutes``, ``seating``,
        ``max_players``)."""
        body = {"name": name, "format": format, **settings}
        return EventDetail.from_dict(self._call("createEvent", json=body, resend_after_fault=False).json())

    def list_events(self: SpadesClient, limit: int = 20) -> EventsPage:
        return EventsPage.from_dict(self._call("listEvents", params={"limit": limit}).json())

    def get_event(self: SpadesClient, event_id: str) -> EventDetail:
        """The event as it is now (a read moves it on: the next round starts once the last one's tables finished)."""
        return EventDetail.from_dict(self._call("getEvent", event_id=event_id).json())

    def join_event(self: SpadesClient, event_id: str, partner: str) -> EventPair:
        """A pair of this client's player and ``partner`` (a player id), who must accept."""
        answer = self._call("joinEvent", event_id=event_id, json={"partner": partner}, resend_after_fault=False)
        return EventPair.from_dict(answer.json())

    def accept_pair(self: SpadesClient, event_id: str, pair_id: str) -> EventPair:
        return EventPair.from_dict(self._call("acceptPair", event_id=event_id, pair_id=pair_id, json={}).json())

    def withdraw_pair(self: SpadesClient, event_id: str, pair_id: str) -> EventDetail:
        return EventDetail.from_dict(self._call("withdrawPair", event_id=event_id, pair_id=pair_id).json())

    def start_event(self: SpadesClient, event_id: str) -> EventDetail:
        return EventDetail.from_dict(self._call("startEvent", event_id=event_id, json={}).json())

    def get_event_board(self: SpadesClient, event_id: str, board: int) -> Scoresheet:
        return Scoresheet.from_dict(self._call("getEventBoard", event_id=event_id, board=board).json())

    def join_arena(self: SpadesClient, event_id: str) -> ArenaEntrant:
        """This client's player in the arena's pool (back in it after a withdrawal)."""
        return ArenaEntrant.from_dict(self._call("joinArena", event_id=event_id, json={}).json())

    def get_arena_entrant(self: SpadesClient, event_id: str, player_id: str) -> ArenaEntrant:
        """An entrant as it is now (the read moves the arena on: a finished game scored, the pool paired)."""
        return ArenaEntrant.from_dict(self._call("getArenaEntrant", event_id=event_id, player_id=player_id).json())

    def withdraw_from_arena(self: SpadesClient, event_id: str, player_id: str) -> ArenaEntrant:
        answer = self._call("withdrawFromArena", event_id=event_id, player_id=player_id)
        return ArenaEntrant.from_dict(answer.json())

    def get_arena_standings(self: SpadesClient, event_id: str, start: int = 0, limit: int = 50) -> ArenaStandings:
        answer = self._call("getArenaStandings", event_id=event_id, params={"start": start, "limit": limit})
        return ArenaStandings.from_dict(answer.json())

    def stream_event(self: SpadesClient, event_id: str, max_failures: int = 10) -> Iterator[EventDetail]:
        """The event each time it changes (Server-Sent Events), from its body now to its finish; a cut connection
        is resumed with ``Last-Event-ID``, so a body is not sent again unless the event changed meanwhile."""
        bodies = follow_event(self, EVENT_OPERATIONS["streamEvent"], event_id, max_failures)
        return (EventDetail.from_dict(body) for body in bodies)
