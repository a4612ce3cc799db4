"""marshmallow schemas of the table-life routes (:mod:`services.api.http.table_life_routes`): requests refuse unknown
fields and coerce nothing, as every request schema does (:mod:`services.api.http.request_schemas`)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.api.games.messages import CODES
from services.api.http.request_schemas import StrictSchema, StrictString


class RejoinRequest(StrictSchema):
    code = StrictString(required=True, validate=validate.Length(1, 32))


class MessageRequest(StrictSchema):
    code = StrictString(required=True, validate=validate.OneOf(CODES))


class RejoinCode(Schema):
    game_id = fields.String()
    seat = fields.Integer()
    code = fields.String()


class TableMessage(Schema):
    seat = fields.Integer()
    code = fields.String()
    at_ms = fields.Integer()
    player_id = fields.String()  # only when the seat is bound to a player


REJOIN_REQUEST = RejoinRequest()
MESSAGE_REQUEST = MessageRequest()
REJOIN_CODE = RejoinCode()
TABLE_MESSAGE = TableMessage()
