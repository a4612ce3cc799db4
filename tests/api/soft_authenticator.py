"""A software WebAuthn authenticator and the browser around it, for the passkey tests: ES256 keys (``cryptography``),
attestation ``none``, discoverable credentials, a signature counter per credential; it writes what
``PublicKeyCredential.toJSON()`` writes (``clientDataJSON``, ``attestationObject``, ``authenticatorData``,
``signature``, ``userHandle``, base64url), so the server reads it as it reads a browser's answer.

Each part can be made wrong on purpose (another origin, a counter held back, a bad signature, a credential the
server never saw), for the refusals."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from dataclasses import dataclass
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: user present, user verified, attested credential data


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    counter: int = 0


class SoftAuthenticator:
    """One authenticator (a phone, say) on pages at ``origin``: it keeps its credentials, as a platform does."""

    def __init__(self, origin: str = "http://localhost") -> None:
        self.origin = origin
        self.credentials: list[Credential] = []

    def create(
        self, options: dict[str, Any], origin: str | None = None, credential: Credential | None = None
    ) -> dict[str, Any]:
        """``navigator.credentials.create({publicKey: options})``'s answer, as JSON: a new credential (or
        ``credential`` again, as an authenticator that ignored ``excludeCredentials`` would)."""
        rp_id = options["rp"]["id"]
        if credential is None:
            key = ec.generate_private_key(ec.SECP256R1())
            credential = Credential(secrets.token_bytes(32), key, rp_id, unb64url(options["user"]["id"]))
            self.credentials.append(credential)
        numbers = credential.key.public_key().public_numbers()
        cose = {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        attested = bytes(16) + struct.pack(">H", len(credential.id)) + credential.id + cbor2.dumps(cose)
        auth_data = _auth_data(rp_id, UP | UV | AT, credential.counter) + attested
        client_data = _client_data("webauthn.create", options["challenge"], origin or self.origin)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": b64url(credential.id),
            "rawId": b64url(credential.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(attestation),
                "transports": ["internal", "hybrid"],
            },
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
        }

    def get(
        self,
        options: dict[str, Any],
        origin: str | None = None,
        credential: Credential | None = None,
        counter: int | None = None,
        bad_signature: bool = False,
    ) -> dict[str, Any]:
        """``navigator.credentials.get({publicKey: options})``'s answer, as JSON, signed by ``credential`` (the
        newest for the options' RP id) with its counter moved on by one (or set to ``counter``)."""
        chosen = credential or [c for c in self.credentials if c.rp_id == options["rpId"]][-1]
        chosen.counter = chosen.counter + 1 if counter is None else counter
        auth_data = _auth_data(chosen.rp_id, UP | UV, chosen.counter)
        client_data = _client_data("webauthn.get", options["challenge"], origin or self.origin)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = chosen.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        if bad_signature:
            signature = ec.generate_private_key(ec.SECP256R1()).sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(chosen.id),
            "rawId": b64url(chosen.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
                "userHandle": b64url(chosen.user_handle),
            },
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
        }

    def stranger(self, rp_id: str = "localhost") -> Credential:
        """A credential the server never registered (never sent; not among this authenticator's)."""
        return Credential(secrets.token_bytes(32), ec.generate_private_key(ec.SECP256R1()), rp_id, b"p_nobody")


def _auth_data(rp_id: str, flags: int, counter: int) -> bytes:
    return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", counter)


def _client_data(kind: str, challenge: str, origin: str) -> bytes:
    return json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}).encode()
