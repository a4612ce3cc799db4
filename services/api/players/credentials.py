"""A player's device credentials, pure: session credentials, link codes and recovery codes.

- A **session credential** (``sps_`` and 256 random bits, URL-safe) is one device's bearer credential for its
  player, sent as ``Player-Token`` like the player token; the prefix tells the two apart at a glance (and to the
  one parser, :mod:`services.api.http.player_auth`).  A session is named to its player by a public id (``ses_``
  and 128 random bits).
- A **link code** (8 characters of Crockford's base 32, 40 bits) is short enough to type from one screen into
  another; it lives at most ten minutes, is used once, and failed sign-ins are rate-limited per address, so
  guessing one is hopeless online.
- A **recovery code** (16 characters, 80 bits) is kept by a person on paper; each is used once.

Codes are read as people type them: any case, dashes and spaces ignored, O read as 0 and I or L as 1.  Every
secret is stored only as its SHA-256, under a label of its kind, so a code of one kind never matches another's.
"""

from __future__ import annotations

import hashlib
import re
import secrets

SESSION_PREFIX = "sps_"
SESSION_ID_PREFIX = "ses_"
_SESSION = re.compile(r"sps_[A-Za-z0-9_-]{43}")
_SESSION_ID = re.compile(r"ses_[A-Za-z0-9_-]{22}")
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O or U to misread
LINK_CODE_LENGTH = 8  # 40 bits, shown as XXXX-XXXX
RECOVERY_CODE_LENGTH = 16  # 80 bits, shown as XXXX-XXXX-XXXX-XXXX
RECOVERY_CODES = 10  # a set
GROUP = 4
_MISREAD = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_session_credential() -> str:
    return SESSION_PREFIX + secrets.token_urlsafe(32)


def new_session_id() -> str:
    return SESSION_ID_PREFIX + secrets.token_urlsafe(16)


def is_session_credential(token: str) -> bool:
    """Whether ``token`` says it is a session credential (its prefix): the parser then looks for a session."""
    return token.startswith(SESSION_PREFIX)


def well_formed_session(token: str) -> bool:
    return _SESSION.fullmatch(token) is not None


def well_formed_session_id(session_id: str) -> bool:
    return _SESSION_ID.fullmatch(session_id) is not None


def new_code(length: int) -> str:
    """A fresh code of ``length`` characters, in its one spelling."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def shown(code: str) -> str:
    """A code grouped for reading and typing: ``XXXX-XXXX``."""
    return "-".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))


def normalized(text: str, length: int) -> str | None:
    """A code as typed in its one spelling, None if it cannot be a code of ``length`` characters."""
    if len(text) > 4 * length:
        return None
    compact = "".join(text.split()).replace("-", "").upper().translate(_MISREAD)
    if len(compact) != length or any(char not in ALPHABET for char in compact):
        return None
    return compact


def digest(kind: str, secret: str) -> str:
    """The stored form of a secret of ``kind`` (``session``, ``link``, ``recovery``): SHA-256 under its label."""
    return hashlib.sha256(f"{kind}:{secret}".encode("utf-8", "surrogatepass")).hexdigest()
