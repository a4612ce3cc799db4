"""marshmallow schemas of the device routes (:mod:`services.api.http.session_routes`): a sign-in's request (strict,
as every request schema; a passkey's answer as :mod:`services.api.http.passkey_schemas` reads it), a session as its player sees it (never its credential), a link code, a set of recovery
codes, a new session with its credential."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from services.api.http.passkey_schemas import SignInAnswer
from services.api.http.player_schemas import PlayerSchema
from services.api.http.request_schemas import StrictSchema, StrictString
from services.api.records.content import iso

MAX_RAW_CODE = 64  # before normalising: dashes and spaces go


class SignInRequest(StrictSchema):
    link_code = StrictString(validate=validate.Length(max=MAX_RAW_CODE))
    recovery_code = StrictString(validate=validate.Length(max=MAX_RAW_CODE))
    passkey = fields.Nested(SignInAnswer)
    device_name = StrictString(validate=validate.Length(max=200))

    @validates_schema
    def one_code(self, data: dict, **_: object) -> None:
        if sum(way in data for way in ("link_code", "recovery_code", "passkey")) != 1:
            raise ValidationError("Send exactly one of link_code, recovery_code and passkey.", "body")


class SessionSchema(Schema):
    id = fields.String()
    name = fields.String()
    via = fields.String()
    created_at = fields.Function(lambda session: iso(session["created_ms"]))
    last_seen_at = fields.Function(lambda session: iso(session["last_seen_ms"]))
    current = fields.Boolean()


class SessionList(Schema):
    sessions = fields.List(fields.Nested(SessionSchema))


class LinkCode(Schema):
    code = fields.String()
    link = fields.String()
    qr_svg = fields.String()
    expires_at = fields.Function(lambda link: iso(link["expires_ms"]))


class RecoveryCodes(Schema):
    codes = fields.List(fields.String())
    created_at = fields.Function(lambda made: iso(made["created_ms"]))


class CreatedSession(Schema):
    session = fields.Nested(SessionSchema)
    token = fields.String()
    player = fields.Nested(PlayerSchema)


SIGN_IN_REQUEST = SignInRequest()
SESSION_LIST = SessionList()
LINK_CODE = LinkCode()
RECOVERY_CODES = RecoveryCodes()
CREATED_SESSION = CreatedSession()
