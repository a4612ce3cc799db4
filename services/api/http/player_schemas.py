"""marshmallow schemas of the players' routes (:mod:`services.api.http.player_routes`): requests refuse unknown
fields and coerce nothing, as every request schema does (:mod:`services.api.http.request_schemas`).  A name is
checked by :mod:`services.api.players.names` after loading (a name the levels hold is a ``409``, not a ``400``)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from services.api.http.request_schemas import StrictSchema, StrictString
from services.api.players.repository import KINDS
from services.api.records.content import iso

MAX_RAW_NAME = 200  # before normalising: spaces collapse, and the names module says what is too long


class CreatePlayerRequest(StrictSchema):
    name = StrictString(required=True, validate=validate.Length(max=MAX_RAW_NAME))
    kind = StrictString(load_default="person", validate=validate.OneOf(KINDS))


class RenamePlayerRequest(StrictSchema):
    name = StrictString(required=True, validate=validate.Length(max=MAX_RAW_NAME))


class PlayerSchema(Schema):
    id = fields.String()
    kind = fields.String()
    name = fields.String()
    created_at = fields.Function(lambda player: iso(player["created_ms"]))
    ratings = fields.Dict()
    rating_hold = fields.String(allow_none=True)  # services.api.ratings.watch.holds
    stats = fields.Dict()
    accuracy = fields.Dict()  # services.api.ratings.standing.accuracy_of


class MeSchema(PlayerSchema):
    """The player of the request's own token: also when its ban from pairing ends (null: none)."""

    pairing_ban = fields.Function(lambda player: {"ends_at": player["pairing_ban"]} if player["pairing_ban"] else None)


class CreatedPlayer(Schema):
    player = fields.Nested(PlayerSchema)
    token = fields.String()


def created(player: dict[str, Any], token: str) -> dict[str, Any]:
    return {"player": player, "token": token}


CREATE_PLAYER_REQUEST = CreatePlayerRequest()
RENAME_PLAYER_REQUEST = RenamePlayerRequest()
PLAYER = PlayerSchema()
ME = MeSchema()
CREATED_PLAYER = CreatedPlayer()
