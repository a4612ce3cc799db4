"""Display names: what a player may be called, and the key that makes two names the same.

A name is shown at every table its player sits at, so it must read as what it is:

- **Normalised**: NFKC first, so a name typed with full-width letters, ligatures or compatibility forms is
  stored as the letters it shows (``Ｂｏｂ`` is ``Bob``); then runs of spaces become one and the ends are
  trimmed.
- **Visible**: no control, format, private-use, surrogate, unassigned or line/paragraph-separator code point
  (Unicode categories Cc, Cf, Co, Cs, Cn, Zl, Zp: zero-width spaces and joiners, bidirectional overrides that
  reorder what follows, soft hyphens, tabs and newlines), none of the blank letters that render as nothing
  (the Hangul fillers, the Braille blank), and no pile of combining marks on one letter; at least one letter
  or digit.
- **2 to 24 characters** (code points, after normalising).
- **Unique, case-insensitively**: :func:`name_key` (NFKC of the casefolded name, so ``ß`` and ``SS`` agree)
  is unique in the players table; the computer levels' names are taken by the levels themselves.

Pure: no I/O.  :func:`display_name` raises :class:`NameRefused` with the reason a person can act on.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from services.computers import LEVEL_NAMES

MIN_LENGTH, MAX_LENGTH = 2, 24
KEY_LENGTH = 64  # the players.name_key column
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")  # render as nothing
MAX_MARKS = 3  # combining marks in a row on one letter: enough for any script, too few to stack over a table
RESERVED = frozenset({*LEVEL_NAMES, "computer", "player"})  # the levels' own names, and what tables show


class NameRefused(ValueError):
    """The reason a name is refused (a ``400``'s message), or a name someone else holds (``taken``)."""

    def __init__(self, message: str, taken: bool = False) -> None:
        super().__init__(message)
        self.taken = taken


@dataclass(frozen=True, slots=True)
class DisplayName:
    """A name as stored: the text shown and its uniqueness key."""

    text: str
    key: str


def name_key(text: str) -> str:
    """Two names with the same key are the same name (case and compatibility forms aside)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


def display_name(raw: str) -> DisplayName:
    """``raw`` normalised, checked and keyed; :class:`NameRefused` says why not."""
    text = unicodedata.normalize("NFKC", raw)
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES or char in BLANK_LETTERS:
            raise NameRefused(f"must not contain invisible or control characters (U+{ord(char):04X})")
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise NameRefused(f"must not stack more than {MAX_MARKS} combining marks on one character")
    text = " ".join(part for part in _split_spaces(text) if part)
    if not MIN_LENGTH <= len(text) <= MAX_LENGTH:
        raise NameRefused(f"must be {MIN_LENGTH} to {MAX_LENGTH} characters long (spaces at the ends not counted)")
    if not any(unicodedata.category(char)[0] in "LN" for char in text):
        raise NameRefused("must contain a letter or a digit")
    key = name_key(text)
    if len(key) > KEY_LENGTH:
        raise NameRefused("is too long once case is folded")
    if key in RESERVED or key.startswith("computer-"):
        raise NameRefused("is the name of a computer level", taken=True)
    return DisplayName(text, key)


def _split_spaces(text: str) -> list[str]:
    """``text`` split on runs of space separators (category Zs: NFKC leaves a few, such as U+1680)."""
    parts, current = [], []
    for char in text:
        if unicodedata.category(char) == "Zs":
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts
