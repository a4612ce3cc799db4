"""Display names: what a player may be called, and the keys that make two names the same.

A name is shown at every table its player sits at, so it must read as what it is, and never pass for another
player's name:

- **Normalised**: NFKC first, so a name typed with full-width letters, ligatures or compatibility forms is
  stored as the letters it shows (``Ｂｏｂ`` is ``Bob``); then runs of spaces become one and the ends are
  trimmed.
- **Visible**: no control, format, private-use, surrogate, unassigned or line/paragraph-separator code point
  (Unicode categories Cc, Cf, Co, Cs, Cn, Zl, Zp: zero-width spaces and joiners, bidirectional overrides that
  reorder what follows, soft hyphens, tabs and newlines), none of the blank letters that render as nothing
  (the Hangul fillers, the Braille blank), no variation selector (U+FE00–FE0F, U+E0100–E01EF and the
  Mongolian free variation selectors U+180B–180F: they pick how a character is drawn, not which character it
  is, so ``Farmer A`` + U+FE0F draws as ``Farmer A``), no pile of combining marks on one letter, no mark
  repeated on one letter nor a dot over a letter that has one (ICU's INVISIBLE and HIDDEN_OVERLAY checks:
  ``i`` + U+0307 draws as ``i``); at least one letter or digit.  Together these refuse every
  Default_Ignorable_Code_Point.
- **One script** (UTS #39 "Highly Restrictive", checked by ICU's spoof checker): the letters of a name are of
  one script, as any name in Latin, Cyrillic, Greek, Arabic or Javanese is; digits, spaces, punctuation and
  symbols (script Common) and combining marks (Inherited) go with any.  The only mixes allowed are those a
  language writes and UTS #39 holds safe: Latin with Han and kana (Japanese), with Han and Bopomofo, or with
  Han and Hangul (Korean).  Anything else, Latin with Cyrillic or Greek above all, is refused (``Farmer А``
  with a Cyrillic ``А`` is a look-alike of ``Farmer A``), and so are digits of two number systems.
- **2 to 24 characters** (code points, after normalising).
- **Unique, look-alikes included**: two keys, each unique in the players table (a unique index apiece, so the
  database refuses a look-alike in the same statement that would store it).  :func:`name_key` is the UTS #39
  skeleton of the casefolded name: names that differ only in case (``ß`` and ``SS``), or in characters drawn
  alike once in lower case (``rn`` and ``m``, ``1`` and ``l``, Cyrillic ``а`` and Latin ``a``), have one key.
  :func:`shape_key` is the skeleton of the name as shown, for what casefolding hides: capitals drawn alike
  across scripts (Cyrillic ``НЕАТ`` and Latin ``HEAT`` fold apart, to ``неат`` and ``heat``) and ``I`` beside
  ``l``.  The keys are SHA-256 digests of the skeletons, so a key fits its column whatever a skeleton's
  length (a Hangul syllable's skeleton is up to 7 code points).  The computer levels' names, and their
  look-alikes, are taken by the levels themselves.

The skeletons come from ICU's data, so a new ICU or Unicode can change a name's keys: :data:`KEY_RULES` names
what the keys depend on, and :mod:`services.api.players.rekey` keys the stored names again when it changes.

Pure: no I/O.  :func:`display_name` raises :class:`NameRefused` with the reason a person can act on.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass

import icu

from services.computers import LEVEL_NAMES

MIN_LENGTH, MAX_LENGTH = 2, 24
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")  # render as nothing
VARIATION_SELECTORS = frozenset(
    [chr(code) for code in range(0xFE00, 0xFE10)]
    + [chr(code) for code in range(0xE0100, 0xE01F0)]
    + [chr(code) for code in range(0x180B, 0x1810) if code != 0x180E]  # U+180E is a format character (Cf)
)
MAX_MARKS = 3  # combining marks in a row on one letter: enough for any script, too few to stack over a table
RESERVED = frozenset({*LEVEL_NAMES, "computer", "player"})  # the levels' own names, and what tables show
HIDDEN_OVERLAY = 256  # USPOOF_HIDDEN_OVERLAY (ICU 62): PyICU's USpoofChecks does not name it
# Bump the number when name_key or shape_key change meaning: every stored key is made again at the next start.
KEY_RULES = f"skeleton-sha256/1 icu-{icu.ICU_VERSION} python-unicode-{unicodedata.unidata_version}"


def _spoof_checker() -> icu.SpoofChecker:
    """ICU's checks for one string (the skeletons need none): a name at UTS #39's Highly Restrictive level,
    one number system, no repeated or hidden marks.  The allowed characters stay all of Unicode: what a name
    may hold is :func:`display_name`'s to say."""
    checker = icu.SpoofChecker()
    checks = icu.USpoofChecks
    checker.setChecks(checks.RESTRICTION_LEVEL | checks.MIXED_NUMBERS | checks.INVISIBLE | HIDDEN_OVERLAY)
    checker.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
    return checker


SPOOF_CHECKER = _spoof_checker()  # configured once; ICU's checks and skeletons are safe from any thread


class NameRefused(ValueError):
    """The reason a name is refused (a ``400``'s message), or a name someone else holds (``taken``)."""

    def __init__(self, message: str, taken: bool = False) -> None:
        super().__init__(message)
        self.taken = taken


@dataclass(frozen=True, slots=True)
class DisplayName:
    """A name as stored: the text shown and its two uniqueness keys."""

    text: str
    key: str
    shape: str


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: two strings draw alike when their skeletons are equal."""
    return str(SPOOF_CHECKER.getSkeleton(0, text))


def folded_skeleton(text: str) -> str:
    """The skeleton of ``text`` casefolded (NFKC on both sides of the fold, so ``ß`` and ``SS`` agree)."""
    return skeleton(unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold()))


def name_key(text: str) -> str:
    """Two names with the same key are the same name ignoring case, or drawn alike once casefolded."""
    return _digest(folded_skeleton(text))


def shape_key(text: str) -> str:
    """Two names with the same shape key are drawn alike as they are written (case kept)."""
    return _digest(skeleton(unicodedata.normalize("NFKC", text)))


def _digest(skeleton_text: str) -> str:
    """A skeleton as a key of fixed length (hex SHA-256 of its UTF-8)."""
    return hashlib.sha256(skeleton_text.encode("utf-8")).hexdigest()


RESERVED_KEYS = frozenset(name_key(name) for name in RESERVED)
COMPUTER_ID_PREFIX = folded_skeleton("computer-")  # a level's player id is computer-<level>


def display_name(raw: str) -> DisplayName:
    """``raw`` normalised, checked and keyed; :class:`NameRefused` says why not."""
    text = unicodedata.normalize("NFKC", raw)
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES or char in BLANK_LETTERS:
            raise NameRefused(f"must not contain invisible or control characters (U+{ord(char):04X})")
        if char in VARIATION_SELECTORS:
            raise NameRefused(
                f"must not contain a variation selector (U+{ord(char):04X}): it changes how a character is drawn,"
                " so the name could pass for another"
            )
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MAX_MARKS:
            raise NameRefused(f"must not stack more than {MAX_MARKS} combining marks on one character")
    text = " ".join(part for part in _split_spaces(text) if part)
    if not MIN_LENGTH <= len(text) <= MAX_LENGTH:
        raise NameRefused(f"must be {MIN_LENGTH} to {MAX_LENGTH} characters long (spaces at the ends not counted)")
    if not any(unicodedata.category(char)[0] in "LN" for char in text):
        raise NameRefused("must contain a letter or a digit")
    _check_spoofing(text)
    folded = folded_skeleton(text)
    key = _digest(folded)
    if key in RESERVED_KEYS or folded.startswith(COMPUTER_ID_PREFIX):
        raise NameRefused("is the name of a computer level, or looks like one", taken=True)
    return DisplayName(text, key, shape_key(text))


def _check_spoofing(text: str) -> None:
    """ICU's verdict on ``text`` as a :class:`NameRefused` naming what is wrong (the first failed check)."""
    failed = SPOOF_CHECKER.check(text)
    checks = icu.USpoofChecks
    if failed & checks.RESTRICTION_LEVEL:
        scripts = scripts_of(text)
        mixed = f" ({' and '.join(scripts)})" if len(scripts) > 1 else ""
        raise NameRefused(
            f"must not mix letters of different scripts{mixed}: a name is written in one script (Latin may go"
            " with Han and kana, or with Hangul), so it cannot pass for another name"
        )
    if failed & checks.MIXED_NUMBERS:
        raise NameRefused("must not mix digits of different number systems")
    if failed & (checks.INVISIBLE | HIDDEN_OVERLAY):
        raise NameRefused("must not repeat a combining mark on one character, nor add a dot to a dotted letter")


def scripts_of(text: str) -> list[str]:
    """The scripts of ``text``'s letters, in order of first use (Common and Inherited, which go with any, left
    out)."""
    found: list[str] = []
    for char in text:
        name = str(icu.Script.getScript(ord(char)).getName())
        if name not in ("Common", "Inherited", "Unknown") and name not in found:
            found.append(name)
    return found


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
