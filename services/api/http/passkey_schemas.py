"""marshmallow schemas of the passkey routes (:mod:`services.api.http.passkey_routes`): a browser's answers as
``PublicKeyCredential.toJSON()`` writes them (strict, as every request schema: each member WebAuthn names, binary
values in base64url, each bounded so the largest answer fits ``MAX_CONTENT_LENGTH``), a passkey as its player sees it
(never its key), and a ceremony's options."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from services.api.http.request_schemas import JsonInteger, StrictSchema, StrictString
from services.api.records.content import iso

MAX_NAME = 200  # before normalising (40 kept)
_BASE64URL = validate.Regexp(r"^[A-Za-z0-9_-]+$", error="must be base64url, without padding")


def _bytes(longest: int, required: bool = True) -> StrictString:
    """Bytes in base64url: at most ``longest`` characters (together they fit ``MAX_CONTENT_LENGTH``)."""
    return StrictString(required=required, validate=[validate.Length(max=longest), _BASE64URL])


def _extension_output(value: object) -> bool:
    """One extension's output, as the contract bounds it: ``{"rk": true}``."""
    return isinstance(value, dict) and len(value) <= 4 and all(isinstance(v, bool) or v is None for v in value.values())


class _Answer(StrictSchema):
    id = _bytes(1400)
    rawId = _bytes(1400)  # WebAuthn's JSON names
    type = StrictString(required=True, validate=validate.OneOf(["public-key"]))
    authenticatorAttachment = StrictString(allow_none=True, validate=validate.Length(max=32))
    clientExtensionResults = fields.Dict(
        keys=StrictString(), values=fields.Raw(validate=_extension_output), validate=validate.Length(max=8)
    )


class _Attestation(StrictSchema):
    clientDataJSON = _bytes(2048)
    attestationObject = _bytes(4096)
    authenticatorData = _bytes(2048, required=False)  # read from the attestation object instead
    publicKey = _bytes(1024, required=False)
    publicKeyAlgorithm = JsonInteger()
    transports = fields.List(StrictString(validate=validate.Length(max=32)), validate=validate.Length(max=10))


class _Assertion(StrictSchema):
    clientDataJSON = _bytes(2048)
    authenticatorData = _bytes(2048)
    signature = _bytes(1024)
    userHandle = StrictString(allow_none=True, validate=[validate.Length(max=128), _BASE64URL])


class RegistrationAnswer(_Answer):
    response = fields.Nested(_Attestation, required=True)


class SignInAnswer(_Answer):
    response = fields.Nested(_Assertion, required=True)


class RegisterPasskeyRequest(StrictSchema):
    credential = fields.Nested(RegistrationAnswer, required=True)
    name = StrictString(validate=validate.Length(max=MAX_NAME))


class PasskeySchema(Schema):
    id = fields.String()
    name = fields.String()
    transports = fields.List(fields.String())
    created_at = fields.Function(lambda passkey: iso(passkey.created_ms))
    last_used_at = fields.Function(lambda passkey: None if passkey.last_used_ms is None else iso(passkey.last_used_ms))


class PasskeyList(Schema):
    passkeys = fields.List(fields.Nested(PasskeySchema))


class PasskeyOptions(Schema):
    options = fields.Dict()
    expires_at = fields.Function(lambda made: iso(made["expires_ms"]))


REGISTER_PASSKEY_REQUEST = RegisterPasskeyRequest()
PASSKEY = PasskeySchema()
PASSKEY_LIST = PasskeyList()
PASSKEY_OPTIONS = PasskeyOptions()
