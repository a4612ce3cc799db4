"""The device routes' rate limits, on the machinery of :mod:`services.api.http.rate_limits` (flask-limiter, its
Redis storage, its ``429`` with ``Retry-After``):

- refused sign-ins (``POST /v1/sessions``: a link code, a recovery code, a passkey) per client address
  (``SIGN_IN_RATE_LIMIT``, ``sign_in_rate_limited``), counting only the refusals, as rejoin codes do: guessing link
  and recovery codes is bounded by it, a person who types theirs right is never held back;
- a passkey sign-in's options (``POST /v1/sessions/passkey-options``, each a challenge kept until it expires) per
  client address (``PASSKEY_OPTIONS_RATE_LIMIT``, ``passkey_options_rate_limited``);
- link codes made, per client address (``LINK_CODE_ADDRESS_RATE_LIMIT``) and per player
  (``LINK_CODE_RATE_LIMIT``, however many devices it asks from), both ``link_code_rate_limited``.  The player is
  known only once its ``Player-Token`` is read, so the route spends the player's budget itself
  (:data:`services.api.http.player_budgets.LINK_CODES`).
"""

from __future__ import annotations

from flask import Flask
from flask_limiter import Limiter

from services.api.http.rate_limits import limit_per_address


def limit_sessions(app: Flask, limiter: Limiter) -> None:
    """The per-address limits of the device routes (after the v1 blueprint is registered)."""
    limit_per_address(
        app,
        limiter,
        "v1.sign_in",
        app.config["SIGN_IN_RATE_LIMIT"],
        "sign_in",
        deduct_when=lambda response: response.status_code != 201,
    )
    limit_per_address(app, limiter, "v1.create_link_code", app.config["LINK_CODE_ADDRESS_RATE_LIMIT"], "link_codes")
    options = app.config["PASSKEY_OPTIONS_RATE_LIMIT"]
    limit_per_address(app, limiter, "v1.start_passkey_sign_in", options, "passkey_options")
