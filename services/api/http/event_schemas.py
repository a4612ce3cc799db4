"""marshmallow schemas of the events' requests and responses (:mod:`services.api.http.event_routes`).

Requests refuse unknown fields and coerce nothing, as every request schema does
(:mod:`services.api.http.request_schemas`); responses dump only their fields.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.api.events.model import FORMATS, SEATINGS
from services.api.games.clocks import CONTROLS
from services.api.games.record import NO_CLOCK
from services.api.http.request_schemas import (
    AI_LEVELS,
    JsonInteger,
    QueryInteger,
    StrictBoolean,
    StrictSchema,
    StrictString,
)
from services.computers import DEFAULT_LEVEL

MOST_PAIRS = 200
MOST_DEALS = 10  # deals per round
MOST_ROUNDS = 100
MOST_MINUTES = 24 * 60  # an arena's length
MOST_PLAYERS = 10_000  # an arena's entrants


class CreateEvent(StrictSchema):
    name = StrictString(required=True, validate=validate.Length(1, 80))
    format = StrictString(required=True, validate=validate.OneOf(FORMATS))
    max_pairs = JsonInteger(load_default=8, validate=validate.Range(3, MOST_PAIRS))
    deals_per_round = JsonInteger(load_default=2, validate=validate.Range(1, MOST_DEALS))
    rounds = JsonInteger(load_default=7, validate=validate.Range(1, MOST_ROUNDS))
    clock = StrictString(load_default=NO_CLOCK, validate=validate.OneOf(list(CONTROLS)))
    rated = StrictBoolean(load_default=False)
    bots_allowed = StrictBoolean(load_default=True)
    stand_in_level = StrictString(load_default=DEFAULT_LEVEL, validate=validate.OneOf(AI_LEVELS))
    start_at_ms = JsonInteger(load_default=None, allow_none=True, validate=validate.Range(0, 2**53))
    par = StrictBoolean(load_default=False)
    minutes = JsonInteger(load_default=60, validate=validate.Range(1, MOST_MINUTES))
    seating = StrictString(load_default="partners", validate=validate.OneOf(SEATINGS))
    max_players = JsonInteger(load_default=1000, validate=validate.Range(4, MOST_PLAYERS))


class JoinEvent(StrictSchema):
    partner = StrictString(required=True, validate=validate.Length(1, 40))  # the partner's player id


class EventsQuery(StrictSchema):
    limit = QueryInteger(load_default=20, validate=validate.Range(1, 100))


class StandingsQuery(StrictSchema):
    start = QueryInteger(load_default=0, validate=validate.Range(0, MOST_PLAYERS))
    limit = QueryInteger(load_default=50, validate=validate.Range(1, 100))


class Member(Schema):
    player_id = fields.String()
    name = fields.String()
    kind = fields.String()


class Pair(Schema):
    pair_id = fields.String()
    number = fields.Integer(allow_none=True)
    kind = fields.String()
    players = fields.List(fields.Nested(Member))
    invited = fields.String(allow_none=True)
    withdrawn = fields.Boolean()


class EventSummary(Schema):
    event_id = fields.String()
    name = fields.String()
    format = fields.String()
    status = fields.String()
    creator = fields.String()
    max_pairs = fields.Integer()
    deals_per_round = fields.Integer()
    rounds = fields.Integer()
    clock = fields.String()
    rated = fields.Boolean()
    bots_allowed = fields.Boolean()
    stand_in_level = fields.String()
    start_at_ms = fields.Integer(allow_none=True)
    par = fields.Boolean()
    minutes = fields.Integer()
    seating = fields.String()
    max_players = fields.Integer()
    pairs_count = fields.Integer()
    created_ms = fields.Integer()


class Standing(Schema):
    rank = fields.Integer()
    pair = fields.Integer()
    matchpoints = fields.Float()
    top = fields.Integer()
    percent = fields.Float()


class TableSeat(Schema):
    table = fields.Integer()
    ns = fields.Integer()
    ew = fields.Integer()
    game_id = fields.String()


class CurrentRound(Schema):
    number = fields.Integer()
    finished = fields.Boolean()
    tables_finished = fields.List(fields.Integer())
    no_shows = fields.List(fields.Integer())
    tables = fields.List(fields.Nested(TableSeat))


class Entrant(Schema):
    rank = fields.Integer(allow_none=True)
    player_id = fields.String()
    name = fields.String()
    kind = fields.String()
    rating = fields.Integer()
    points = fields.Integer()
    games = fields.Integer()
    wins = fields.Integer()
    run = fields.Integer()
    on_fire = fields.Boolean()
    performance = fields.Integer()
    status = fields.String()
    game_id = fields.String(allow_none=True)
    seat = fields.Integer(allow_none=True)


class Arena(Schema):
    seating = fields.String()
    minutes = fields.Integer()
    started_ms = fields.Integer(allow_none=True)
    ends_ms = fields.Integer(allow_none=True)
    entrants = fields.Integer()
    waiting = fields.Integer()
    games_in_play = fields.Integer()
    standings = fields.List(fields.Nested(Entrant))


class ArenaStandings(Schema):
    event_id = fields.String()
    start = fields.Integer()
    entrants = fields.Integer()
    standings = fields.List(fields.Nested(Entrant))


class Event(EventSummary):
    arena = fields.Nested(Arena, allow_none=True)
    version = fields.Integer()
    finished_ms = fields.Integer(allow_none=True)
    pairs = fields.List(fields.Nested(Pair))
    standings = fields.List(fields.Nested(Standing))
    current_round = fields.Nested(CurrentRound, allow_none=True)
    boards = fields.List(fields.Integer())


class EventsPage(Schema):
    events = fields.List(fields.Nested(EventSummary))


class SideScores(Schema):
    ns = fields.Integer()
    ew = fields.Integer()


class SideMatchpoints(Schema):
    ns = fields.Float()
    ew = fields.Float()
    top = fields.Integer()


class ScoredTable(TableSeat):
    finished = fields.Boolean()
    bids = fields.List(fields.Integer(), allow_none=True)
    tricks = fields.List(fields.Integer(), allow_none=True)
    score = fields.Nested(SideScores, allow_none=True)
    matchpoints = fields.Nested(SideMatchpoints, allow_none=True)
    no_show = fields.List(fields.Integer())


class Scoresheet(Schema):
    event_id = fields.String()
    board = fields.Integer()
    round = fields.Integer()
    deal = fields.Integer()
    tables = fields.List(fields.Nested(ScoredTable))
    par = fields.Nested(SideScores, allow_none=True)
    par_game_id = fields.String(allow_none=True)


CREATE_EVENT = CreateEvent()
JOIN_EVENT = JoinEvent()
EVENTS_QUERY = EventsQuery()
STANDINGS_QUERY = StandingsQuery()
ENTRANT = Entrant()
ARENA_STANDINGS = ArenaStandings()
PAIR = Pair()
EVENT = Event()
EVENTS_PAGE = EventsPage()
SCORESHEET = Scoresheet()
