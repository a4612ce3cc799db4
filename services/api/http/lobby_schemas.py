"""marshmallow schemas of the lobby's requests and responses: public tables and quick match.

Requests refuse unknown fields and coerce nothing, as every request schema does
(:mod:`services.api.http.request_schemas`); responses dump only their fields.
"""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.api.games.clocks import CONTROLS, PEOPLE_DEFAULT
from services.api.http.request_schemas import (
    AI_LEVELS,
    JsonInteger,
    QueryInteger,
    RulesRequest,
    StrictSchema,
    StrictString,
)
from services.api.http.response_schemas import Codes
from services.computers import DEFAULT_LEVEL
from services.engine import DEFAULT_PRESET, PRESETS

MAX_WAIT_RANGE = (5, 120)


class MatchRequestBody(StrictSchema):
    rules = fields.Nested(RulesRequest, load_default=lambda: {"preset": DEFAULT_PRESET})
    clock = StrictString(
        load_default=PEOPLE_DEFAULT, validate=validate.OneOf(list(CONTROLS))
    )  # people together: a clock
    max_wait_seconds = JsonInteger(load_default=20, validate=validate.Range(*MAX_WAIT_RANGE))
    fill_level = StrictString(load_default=DEFAULT_LEVEL, validate=validate.OneOf(AI_LEVELS))


class MatchQuery(StrictSchema):
    wait = QueryInteger(load_default=0, validate=validate.Range(0, 30))
    found = QueryInteger(validate=validate.Range(1, 4))  # the count the client shows: a long poll answers a change


class TablesQuery(StrictSchema):
    preset = StrictString(validate=validate.OneOf(sorted(PRESETS)))
    clock = StrictString(validate=validate.OneOf(list(CONTROLS)))
    free_seats = QueryInteger(load_default=1, validate=validate.Range(1, 4))
    level = StrictString(validate=validate.OneOf(AI_LEVELS))
    cursor = StrictString(validate=validate.Length(1, 100))
    limit = QueryInteger(load_default=20, validate=validate.Range(1, 100))


class MatchCreated(Schema):
    match_id = fields.String()
    secret = fields.String()
    status = fields.String()
    expires_ms = fields.Integer()
    server_time_ms = fields.Integer()


class Match(Schema):
    match_id = fields.String()
    status = fields.String()
    created_ms = fields.Integer()
    expires_ms = fields.Integer()
    server_time_ms = fields.Integer()
    game_id = fields.String(allow_none=True)
    seat = fields.Integer(allow_none=True)
    token = fields.String(allow_none=True)
    found = fields.Integer(allow_none=True)
    seats = fields.Integer()
    fill_level = fields.String(allow_none=True)


class TablesPage(Schema):
    tables = Codes()  # rendered by services.api.lobby.tables.listing_item (openapi: PublicTable)
    next_cursor = fields.String(allow_none=True)
    last_seq = fields.Integer()


MATCH_REQUEST = MatchRequestBody()
MATCH_QUERY = MatchQuery()
TABLES_QUERY = TablesQuery()
MATCH_CREATED = MatchCreated()
MATCH = Match()
TABLES_PAGE = TablesPage()
