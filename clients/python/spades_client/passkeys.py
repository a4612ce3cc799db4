"""Your passkeys: the options to add one, adding it (the answer of an authenticator: a browser's
``navigator.credentials.create()``, or a software authenticator a test writes), the list, deleting one, and a
sign-in's options (answered with ``sign_in(passkey=…)``).

:class:`PasskeyMethods` is part of :class:`spades_client.client.SpadesClient`.  The client holds no key: it carries
the WebAuthn JSON both ways (options out, ``PublicKeyCredential.toJSON()`` answers in).  The models are the
contract's ``Passkey``, ``PasskeyList`` and ``PasskeyOptions``, held to it by
``tests/clients/test_models_match_spec.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from spades_client.models import Body

if TYPE_CHECKING:
    from spades_client.client import SpadesClient

PASSKEY_OPERATIONS: dict[str, tuple[str, str]] = {
    "startPasskeyRegistration": ("POST", "/v1/players/me/passkey-options"),
    "registerPasskey": ("POST", "/v1/players/me/passkeys"),
    "listMyPasskeys": ("GET", "/v1/players/me/passkeys"),
    "deleteMyPasskey": ("DELETE", "/v1/players/me/passkeys/{passkey_id}"),
    "startPasskeySignIn": ("POST", "/v1/sessions/passkey-options"),
}


@dataclass
class Passkey(Body):
    """One of your passkeys (never its key); ``last_used_at`` None until it signed a device in."""

    SCHEMA: ClassVar[str] = "Passkey"
    id: str
    name: str
    transports: list[str]
    created_at: str
    last_used_at: str | None


@dataclass
class PasskeyList(Body):
    SCHEMA: ClassVar[str] = "PasskeyList"
    passkeys: list[Passkey]


@dataclass
class PasskeyOptions(Body):
    """WebAuthn's options in their JSON form (hand them to an authenticator), answerable once until
    ``expires_at``."""

    SCHEMA: ClassVar[str] = "PasskeyOptions"
    options: dict[str, Any]
    expires_at: str


PASSKEY_MODELS: tuple[type[Body], ...] = (Passkey, PasskeyList, PasskeyOptions)


class PasskeyMethods:
    """The passkey operations (mixed into :class:`spades_client.client.SpadesClient`)."""

    def start_passkey_registration(self: SpadesClient) -> PasskeyOptions:
        """Options for ``navigator.credentials.create()`` that make a passkey for this client's player."""
        return PasskeyOptions.from_dict(self._call("startPasskeyRegistration", json={}).json())

    def register_passkey(self: SpadesClient, credential: dict[str, Any], name: str | None = None) -> Passkey:
        """Store the passkey an authenticator made for ``start_passkey_registration``'s options."""
        body: dict[str, Any] = {"credential": credential} if name is None else {"credential": credential, "name": name}
        return Passkey.from_dict(self._call("registerPasskey", json=body, resend_after_fault=False).json())

    def list_my_passkeys(self: SpadesClient) -> PasskeyList:
        return PasskeyList.from_dict(self._call("listMyPasskeys").json())

    def delete_my_passkey(self: SpadesClient, passkey_id: str) -> None:
        """Delete one passkey: it signs no device in from now on (its sessions stay)."""
        self._call("deleteMyPasskey", passkey_id=passkey_id)

    def start_passkey_sign_in(self: SpadesClient) -> PasskeyOptions:
        """Options for ``navigator.credentials.get()`` (no credential named); answer with ``sign_in(passkey=…)``."""
        return PasskeyOptions.from_dict(self._call("startPasskeySignIn", json={}).json())
