"""Display names: normalised (NFKC, spaces collapsed, trimmed), visible (no control, format or invisible
character), 2 to 24 characters, and one key for names that differ only in case or compatibility form."""

from __future__ import annotations

import unicodedata

import pytest

from services.api.players.names import MAX_LENGTH, NameRefused, display_name, name_key


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Ada", "Ada"),
        ("  Ada   Lovelace  ", "Ada Lovelace"),  # runs of spaces made one, the ends trimmed
        ("Ｂｏｂ", "Bob"),  # full-width letters: NFKC
        ("ﬁona", "fiona"),  # a ligature: NFKC
        ("Ada\u3000Lovelace", "Ada Lovelace"),  # an ideographic space: NFKC makes it a space
        ("Ada\u1680Lovelace", "Ada Lovelace"),  # the Ogham space mark, which NFKC keeps: a space separator all the same
        ("Zoë", "Zoë"),
        ("Zoe\u0308", "Zoë"),  # a combining diaeresis composed by NFKC
        ("李小龍", "李小龍"),
        ("Ñandú 42", "Ñandú 42"),
        ("7", None),  # too short
        ("a" * MAX_LENGTH, "a" * MAX_LENGTH),
    ],
)
def test_a_name_is_normalised_or_refused_for_its_length(raw: str, shown: str | None):
    if shown is None:
        with pytest.raises(NameRefused):
            display_name(raw)
    else:
        assert display_name(raw).text == shown


@pytest.mark.parametrize(
    "raw",
    [
        "Ada\u200bLovelace",  # zero-width space (Cf)
        "Ada\u200d",  # zero-width joiner (Cf)
        "\u202eevil",  # right-to-left override (Cf): reorders what follows
        "Ada\u00adLove",  # soft hyphen (Cf)
        "\ufeffAda",  # byte order mark (Cf)
        "Ada\tLovelace",  # tab (Cc)
        "Ada\nLovelace",  # newline (Cc)
        "Ada\x00",  # NUL (Cc)
        "Ada\u2028Love",  # line separator (Zl)
        "Ada\u2029Love",  # paragraph separator (Zp)
        "Ada\ue000",  # private use (Co)
        "Ada\U000e0041",  # a tag character (Cf)
        "\u3164\u3164",  # Hangul fillers: letters that show nothing
        "Ada\u2800",  # the Braille blank
        "Ada\u034f",  # the combining grapheme joiner
        "Ada\U0010fffe",  # a noncharacter (Cn)
    ],
)
def test_invisible_and_control_characters_are_refused(raw: str):
    with pytest.raises(NameRefused, match="invisible or control") as refused:
        display_name(raw)
    assert not refused.value.taken


def test_a_pile_of_combining_marks_is_refused_but_a_few_are_fine():
    assert display_name("Ha\u0301\u0302\u0303").text == unicodedata.normalize("NFKC", "Ha\u0301\u0302\u0303")
    with pytest.raises(NameRefused, match="combining marks"):
        display_name("Ha" + "\u0301" * 8)


def test_a_name_needs_a_letter_or_a_digit_and_spaces_do_not_count_towards_its_length():
    with pytest.raises(NameRefused, match="letter or a digit"):
        display_name("--")
    with pytest.raises(NameRefused, match="2 to 24"):
        display_name("   a   ")
    with pytest.raises(NameRefused, match="2 to 24"):
        display_name("a" * (MAX_LENGTH + 1))
    assert display_name(" " * 50 + "ab" + " " * 50).text == "ab"


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ada", "ADA"),
        ("ada", "Ａｄａ"),  # full-width
        ("Strauß", "STRAUSS"),  # casefold: ß is ss
        ("ΣΊΣΥΦΟΣ", "σίσυφος"),  # final sigma
        ("Ada  Lovelace", " ada lovelace "),  # spaces collapsed before the key
        ("ﬁ", "FI"),
    ],
)
def test_names_that_differ_only_in_case_or_form_have_one_key(one: str, other: str):
    assert display_name(one).key == display_name(other).key


def test_names_that_differ_in_letters_have_different_keys():
    assert name_key("Ada") != name_key("Ada2")
    assert name_key("Zoë") != name_key("Zoe")


@pytest.mark.parametrize("raw", ["hard", "HARD", "Easy", "computer", "computer-hard", "Player"])
def test_the_computer_levels_names_are_taken(raw: str):
    with pytest.raises(NameRefused) as refused:
        display_name(raw)
    assert refused.value.taken
    assert display_name("hard rock").text == "hard rock"  # only the name itself is theirs
