"""A player's passkeys (WebAuthn credentials) on the records database (``passkeys``): registered by a signed-in
device, listed, deleted, and signing any device in with a new session (``via: passkey``).

A passkey is a key pair made by an authenticator (a phone, a laptop, a security key; the platform may sync it to
the person's other devices): the server keeps the credential's id, its public key, the authenticator's signature
counter, its transports, a name and when it was made and last used — nothing that signs anything.  Registration
asks for a **discoverable** credential carrying the player's id as its user handle, so a sign-in's options name no
credential (``allowCredentials`` empty): a device that knows nothing of the player can sign in.

Each ceremony is options then an answer: the options' challenge (:mod:`services.api.players.passkey_challenges`)
is spent in the transaction that stores the passkey or opens the session, so a refused answer changes nothing.
The answer's checks are :mod:`services.api.players.webauthn_checks`'; here, a credential this server does not know
(``403 passkey_unknown``), and the counter written only if it is still the one the check read (two answers racing
with one counter: one session).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, func, select, update
from webauthn import generate_authentication_options, generate_registration_options, verify_registration_response
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, options_to_json_dict
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from services.api.players import passkey_challenges
from services.api.players.repository import Player
from services.api.players.sessions import Session, device_name, open_session
from services.api.players.webauthn_checks import (
    RelyingParty,
    check_counter,
    counter_stale,
    passkey_invalid,
    read_assertion,
    read_registration,
    verify_assertion,
)
from services.api.problems import ApiError
from services.api.records.schema import passkeys, players

MAX_PASSKEYS = 20  # per player
DEFAULT_NAME = "Passkey"
OPTIONS_TIMEOUT_MS = 120_000  # how long the browser gives the person (a hint; the challenge's expiry binds)


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey as its player sees it (never its key)."""

    id: str
    name: str
    transports: tuple[str, ...]
    created_ms: int
    last_used_ms: int | None


def passkey_unknown() -> ApiError:
    return ApiError(
        403,
        "passkey_unknown",
        "This server knows no such passkey (it was deleted, or made for another player or site): sign in another way.",
    )


def passkey_not_found() -> ApiError:
    return ApiError(404, "passkey_not_found", "Your player has no passkey of that id.")


def passkey_registered() -> ApiError:
    return ApiError(409, "passkey_registered", "That passkey is registered already.")


def too_many_passkeys() -> ApiError:
    return ApiError(
        409, "too_many_passkeys", f"A player has at most {MAX_PASSKEYS} passkeys: delete one before adding another."
    )


class Passkeys:
    """The players' passkeys on one SQLAlchemy engine (the records database's), for one relying party."""

    def __init__(self, engine: Engine, rp: RelyingParty) -> None:
        self.engine = engine
        self.rp = rp

    def registration_options(self, player: Player, now_ms: int, lifetime_ms: int) -> dict[str, Any]:
        """``navigator.credentials.create()``'s options (JSON) for a new passkey of ``player``: discoverable, its
        user handle the player's id, the player's passkeys excluded (an authenticator makes no second one)."""
        with self.engine.begin() as connection:
            known = connection.execute(
                select(passkeys.c.credential_id).where(passkeys.c.player_id == player.id)
            ).scalars()
            excluded = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(credential)) for credential in known]
            challenge = passkey_challenges.issue(connection, "register", player.id, now_ms, lifetime_ms)
        options = generate_registration_options(
            rp_id=self.rp.id,
            rp_name=self.rp.name,
            user_name=player.name,
            user_id=player.id.encode(),
            challenge=challenge,
            timeout=OPTIONS_TIMEOUT_MS,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=excluded,
        )
        return options_to_json_dict(options)

    def register(self, player: Player, answer: dict[str, Any], name: str, now_ms: int) -> Passkey:
        """Store the passkey of ``answer`` (``navigator.credentials.create()``'s, as JSON) for ``player``, its
        challenge spent; each refusal with its code and nothing changed."""
        credential, client_data = read_registration(answer, self.rp)
        with self.engine.begin() as connection:
            passkey_challenges.spend(connection, client_data.challenge, "register", player.id, now_ms)
            try:
                verified = verify_registration_response(
                    credential=credential,
                    expected_challenge=client_data.challenge,
                    expected_rp_id=self.rp.id,
                    expected_origin=client_data.origin,
                )
            except WebAuthnException as refused:
                raise passkey_invalid(str(refused)) from None
            credential_id = bytes_to_base64url(verified.credential_id)
            taken = connection.execute(select(passkeys.c.id).where(passkeys.c.credential_id == credential_id))
            if taken.first() is not None:
                raise passkey_registered()
            count = select(func.count()).select_from(passkeys).where(passkeys.c.player_id == player.id)
            if connection.execute(count).scalar_one() >= MAX_PASSKEYS:
                raise too_many_passkeys()
            transports = tuple(sorted({str(t.value) for t in credential.response.transports or ()}))
            made = Passkey("pk_" + secrets.token_urlsafe(16), name, transports, now_ms, None)
            connection.execute(
                passkeys.insert().values(
                    id=made.id,
                    player_id=player.id,
                    credential_id=credential_id,
                    public_key=verified.credential_public_key,
                    sign_count=verified.sign_count,
                    transports=",".join(transports),
                    name=name,
                    created_ms=now_ms,
                )
            )
        return made

    def list(self, player_id: str) -> list[Passkey]:
        """``player_id``'s passkeys, oldest first."""
        query = select(passkeys).where(passkeys.c.player_id == player_id).order_by(passkeys.c.created_ms, passkeys.c.id)
        with self.engine.connect() as connection:
            return [_passkey(row) for row in connection.execute(query)]

    def delete(self, player_id: str, passkey_id: str) -> None:
        """Delete one of ``player_id``'s passkeys (it signs nothing in from now on; sessions it opened stay);
        ``404 passkey_not_found`` for one that is not the player's."""
        with self.engine.begin() as connection:
            gone = connection.execute(
                delete(passkeys).where(passkeys.c.id == passkey_id, passkeys.c.player_id == player_id)
            ).rowcount
        if not gone:
            raise passkey_not_found()

    def sign_in_options(self, now_ms: int, lifetime_ms: int) -> dict[str, Any]:
        """``navigator.credentials.get()``'s options (JSON): a fresh challenge, no credential named."""
        with self.engine.begin() as connection:
            challenge = passkey_challenges.issue(connection, "sign_in", None, now_ms, lifetime_ms)
        options = generate_authentication_options(
            rp_id=self.rp.id,
            challenge=challenge,
            timeout=OPTIONS_TIMEOUT_MS,
            allow_credentials=[],
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        return options_to_json_dict(options)

    def sign_in(self, answer: dict[str, Any], device_name: str, now_ms: int) -> tuple[Player, Session, str]:
        """A new session (``via: passkey``) for the player whose passkey signed ``answer``
        (``navigator.credentials.get()``'s, as JSON), and its credential; the passkey's counter and last use
        moved.  Each refusal with its code and nothing changed."""
        credential, client_data = read_assertion(answer, self.rp)
        with self.engine.begin() as connection:
            passkey_challenges.spend(connection, client_data.challenge, "sign_in", None, now_ms)
            row = connection.execute(
                select(
                    passkeys, players.c.kind, players.c.name.label("player_name"), players.c.created_ms.label("born")
                )
                .join(players, players.c.id == passkeys.c.player_id)
                .where(
                    passkeys.c.credential_id == bytes_to_base64url(credential.raw_id), players.c.deleted_ms.is_(None)
                )
            ).first()
            handle = credential.response.user_handle
            if row is None or (handle is not None and handle != row.player_id.encode()):
                raise passkey_unknown()
            counter, _ = verify_assertion(credential, client_data, self.rp, row.public_key)
            check_counter(row.sign_count, counter)
            grows = passkeys.c.sign_count < counter if counter > 0 else passkeys.c.sign_count == 0
            moved = connection.execute(
                update(passkeys).where(passkeys.c.id == row.id, grows).values(sign_count=counter, last_used_ms=now_ms)
            ).rowcount
            if not moved:  # a sign-in racing with this one moved the counter past it, or the passkey was deleted
                still = connection.execute(select(passkeys.c.id).where(passkeys.c.id == row.id)).first()
                raise counter_stale() if still is not None else passkey_unknown()
            player = Player(row.player_id, row.kind, row.player_name, row.born)
            session, token = open_session(connection, player.id, device_name, "passkey", now_ms)
        return player, session, token


def passkey_name(raw: str | None) -> str:
    """A passkey's name as kept: the device names' rule (:func:`sessions.device_name`, :class:`ValueError` for a
    refused one), ``Passkey`` when empty."""
    return device_name(raw) if raw is not None and raw.strip() else DEFAULT_NAME


def _passkey(row: Any) -> Passkey:
    transports = tuple(part for part in row.transports.split(",") if part)
    return Passkey(row.id, row.name, transports, row.created_ms, row.last_used_ms)
