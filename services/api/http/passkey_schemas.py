"""marshmallow schemas of the passkey routes (:mod:`services.api.http.passkey_routes`): a browser's answers as
``PublicKeyCredential.toJSON()`` writes them (the fields the server reads are checked here, ``400`` when one is
missing; the rest, which browsers add as WebAuthn grows, passes on to the library), a passkey as its player sees it
(never its key), and a ceremony's options."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from services.api.http.request_schemas import StrictSchema, StrictString
from services.api.records.content import iso

MAX_FIELD = 8192  # base64url of a clientDataJSON, an attestation object, a signature: far less in practice
MAX_NAME = 200  # before normalising (40 kept)


def _text(required: bool = True) -> StrictString:
    return StrictString(required=required, validate=validate.Length(min=1, max=MAX_FIELD))


class _Answer(Schema):
    class Meta:
        unknown = INCLUDE  # authenticatorAttachment, clientExtensionResults, what WebAuthn adds next

    id = _text()
    rawId = _text()  # WebAuthn's JSON names
    type = StrictString(required=True, validate=validate.OneOf(["public-key"]))


class _Attestation(Schema):
    class Meta:
        unknown = INCLUDE  # publicKey, publicKeyAlgorithm, authenticatorData: read from the attestation instead

    clientDataJSON = _text()
    attestationObject = _text()
    transports = fields.List(StrictString(validate=validate.Length(max=32)), validate=validate.Length(max=10))


class _Assertion(Schema):
    class Meta:
        unknown = INCLUDE

    clientDataJSON = _text()
    authenticatorData = _text()
    signature = _text()
    userHandle = StrictString(allow_none=True, validate=validate.Length(max=MAX_FIELD))


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
