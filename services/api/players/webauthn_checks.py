"""The pure parts of passkeys (WebAuthn): the relying party, reading a browser's answer, and the checks that each
refuse with a code of their own.

The maintained library (``webauthn``, py_webauthn) parses and verifies; its refusals are one exception class, so
the checks a person or a client can act on are made here first, each with its own problem: an answer that is no
answer (``403 passkey_invalid``), another site's (``403 passkey_origin_invalid``: its origin is not one of the
relying party's), a bad signature (``403 passkey_signature_invalid``) and a signature counter that did not grow
(``403 passkey_counter_stale``: the mark of a cloned authenticator).  The challenge's checks are
:mod:`services.api.players.passkey_challenges`'s, the credential's (unknown) :mod:`services.api.players.passkeys`'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from webauthn import verify_authentication_response
from webauthn.helpers import parse_authentication_credential_json, parse_client_data_json
from webauthn.helpers import parse_registration_credential_json as parse_registration
from webauthn.helpers.exceptions import InvalidAuthenticationResponse
from webauthn.helpers.structs import (
    AuthenticationCredential,
    ClientDataType,
    CollectedClientData,
    RegistrationCredential,
)

from services.api.problems import ApiError

SIGNATURE_REFUSED = "Could not verify authentication signature"  # the library's words for a bad signature


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who asks for passkeys: the RP id (a domain: the passkeys are bound to it), the name an authenticator shows,
    and the origins a browser's answer may come from (empty: ``https://<id>`` on any port, and
    ``http://localhost`` on any port when the id is ``localhost``)."""

    id: str
    name: str
    origins: tuple[str, ...] = ()

    def allows(self, origin: str) -> bool:
        if self.origins:
            return origin in self.origins
        try:
            parts = urlsplit(origin)
            port = "" if parts.port is None else f":{parts.port}"  # a port that is no number is no origin
        except ValueError:
            return False
        if origin != f"{parts.scheme}://{parts.hostname}{port}" or parts.hostname != self.id:
            return False
        return parts.scheme == "https" or (parts.scheme == "http" and self.id == "localhost")


def relying_party(rp_id: str, rp_name: str, origins: str) -> RelyingParty:
    """The relying party of the settings (``WEBAUTHN_RP_ID``, ``WEBAUTHN_RP_NAME``, ``WEBAUTHN_ORIGINS``: a
    comma-separated list)."""
    listed = tuple(origin.strip().rstrip("/") for origin in origins.split(",") if origin.strip())
    return RelyingParty(rp_id.strip().lower(), rp_name.strip() or rp_id, listed)


def passkey_invalid(why: str) -> ApiError:
    return ApiError(403, "passkey_invalid", f"That is not a passkey's answer this server can accept: {why}.")


def origin_invalid(origin: str) -> ApiError:
    return ApiError(
        403,
        "passkey_origin_invalid",
        f"The passkey answered a page at {origin[:100]!r}, which is not this service's: passkeys sign in only where "
        "they were made.",
    )


def signature_invalid() -> ApiError:
    return ApiError(403, "passkey_signature_invalid", "The passkey's signature does not hold: nothing was signed in.")


def counter_stale() -> ApiError:
    return ApiError(
        403,
        "passkey_counter_stale",
        "The passkey's signature counter did not grow: it may have been copied. Sign in with another passkey or a "
        "code, and delete this one.",
    )


def read_registration(raw: dict[str, Any], rp: RelyingParty) -> tuple[RegistrationCredential, CollectedClientData]:
    """A browser's ``navigator.credentials.create()`` answer (its JSON) and its client data, checked for type and
    origin (the challenge is the caller's to spend, the attestation the library's)."""
    credential = _parsed(parse_registration, raw)
    return credential, _client_data(credential.response.client_data_json, ClientDataType.WEBAUTHN_CREATE, rp)


def read_assertion(raw: dict[str, Any], rp: RelyingParty) -> tuple[AuthenticationCredential, CollectedClientData]:
    """A browser's ``navigator.credentials.get()`` answer (its JSON) and its client data, checked for type and
    origin."""
    credential = _parsed(parse_authentication_credential_json, raw)
    return credential, _client_data(credential.response.client_data_json, ClientDataType.WEBAUTHN_GET, rp)


def verify_assertion(
    credential: AuthenticationCredential, client_data: CollectedClientData, rp: RelyingParty, public_key: bytes
) -> tuple[int, bool]:
    """The library's verification of a sign-in's answer (RP id, user present, signature) against ``public_key``;
    the authenticator's new signature counter and whether it verified the user.  The counter is the caller's to
    check (:func:`check_counter`): it means something only once the signature holds."""
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=client_data.challenge,
            expected_rp_id=rp.id,
            expected_origin=client_data.origin,
            credential_public_key=public_key,
            credential_current_sign_count=0,
        )
    except InvalidAuthenticationResponse as refused:
        if str(refused).startswith(SIGNATURE_REFUSED):
            raise signature_invalid() from None
        raise passkey_invalid(str(refused)) from None
    except Exception as broken:  # a stored key the library cannot read, an answer it cannot parse
        raise passkey_invalid(type(broken).__name__) from None
    return verified.new_sign_count, verified.user_verified


def check_counter(stored: int, answered: int) -> None:
    """``403 passkey_counter_stale`` unless the counter grew; an authenticator that keeps none says 0 each time."""
    if (answered > 0 or stored > 0) and answered <= stored:
        raise counter_stale()


def _parsed(parse: Any, raw: dict[str, Any]) -> Any:
    try:
        return parse(raw)
    except Exception as broken:  # untrusted JSON: any way it fails to parse is the same refusal
        raise passkey_invalid(f"its JSON does not parse ({type(broken).__name__})") from None


def _client_data(raw: bytes, expected: ClientDataType, rp: RelyingParty) -> CollectedClientData:
    try:
        client_data = parse_client_data_json(raw)
    except Exception as broken:
        raise passkey_invalid(f"its clientDataJSON does not parse ({type(broken).__name__})") from None
    if client_data.type != expected:
        raise passkey_invalid(f"its clientDataJSON is of type {str(client_data.type)[:40]!r}, not {expected.value!r}")
    if not isinstance(client_data.origin, str) or not rp.allows(client_data.origin) or client_data.cross_origin:
        raise origin_invalid(str(client_data.origin))
    return client_data
