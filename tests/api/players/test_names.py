"""Display names: normalised (NFKC, spaces collapsed, trimmed), visible (no control, format or invisible
character, no variation selector), in one script, 2 to 24 characters, and keys shared by names that differ
only in case or compatibility form, or that are drawn alike (UTS #39 skeletons)."""

from __future__ import annotations

import unicodedata

import icu
import pytest

from services.api.players.names import MAX_LENGTH, NameRefused, display_name, name_key, shape_key


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


VARIATION_SELECTORS = [
    "\ufe0f",  # VS16, emoji presentation: "Farmer A" + it draws as "Farmer A" in Chromium
    "\ufe00",  # VS1
    "\ufe0e",  # VS15, text presentation
    "\U000e0100",  # VS17, the first of the ideographic variation selectors
    "\U000e01ef",  # VS256, the last
    "\u180b",  # Mongolian free variation selector one
    "\u180c",
    "\u180d",
    "\u180f",  # the fourth (Unicode 14)
]


@pytest.mark.parametrize("selector", VARIATION_SELECTORS, ids=lambda selector: f"U+{ord(selector):04X}")
def test_a_variation_selector_is_refused_wherever_it_stands(selector: str):
    for raw in ("Farmer A" + selector, "Farmer" + selector + " A", selector + "Farmer A"):
        with pytest.raises(NameRefused, match=f"variation selector \\(U\\+{ord(selector):04X}\\)") as refused:
            display_name(raw)
        assert not refused.value.taken


@pytest.mark.parametrize("selector", VARIATION_SELECTORS, ids=lambda selector: f"U+{ord(selector):04X}")
def test_a_variation_selector_adds_nothing_to_a_names_keys(selector: str):
    """Refused above, and had it been let through, the keys would still make it the name it draws as."""
    assert name_key("Farmer A" + selector) == name_key("Farmer A")
    assert shape_key("Farmer A" + selector) == shape_key("Farmer A")


def test_every_default_ignorable_code_point_is_refused():
    """What Unicode says a renderer may draw as nothing (ICU's data) is refused, whichever rule refuses it."""
    ignorables = list(icu.UnicodeSet("[:Default_Ignorable_Code_Point:]"))
    assert len(ignorables) > 4000
    for char in ignorables:
        with pytest.raises(NameRefused, match=r"invisible or control|variation selector"):
            display_name("Ada" + char)


@pytest.mark.parametrize(
    ("raw", "scripts"),
    [
        ("Farmer \u0410", "Latin and Cyrillic"),  # a Cyrillic capital A beside Latin letters
        ("Farmer \u0430", "Latin and Cyrillic"),  # a Cyrillic small a
        ("\u0392ob", "Greek and Latin"),  # a Greek capital Beta
        ("\u039fscar", "Greek and Latin"),  # a Greek capital Omicron
        ("Ivan \u0418\u0432\u0430\u043d", "Latin and Cyrillic"),  # each word in one script: the name in two
        ("\u0391\u043b\u0435\u043a\u0441", "Greek and Cyrillic"),
        ("Farmer \u09ea", "Latin and Bengali"),  # a Bengali digit four, drawn like 8
    ],
)
def test_letters_of_different_scripts_are_refused(raw: str, scripts: str):
    with pytest.raises(NameRefused, match=f"must not mix letters of different scripts \\({scripts}\\)") as refused:
        display_name(raw)
    assert not refused.value.taken


def test_digits_of_two_number_systems_are_refused():
    with pytest.raises(NameRefused, match="digits of different number systems"):
        display_name("\u0968\u0966 20")  # २० in Devanagari digits, then 20 in Western ones


@pytest.mark.parametrize(
    "raw",
    [
        "i\u0307ggy",  # a dot over the i's own dot: drawn as "iggy"
        "Ada\u0301\u0301",  # one acute twice: drawn as one
    ],
)
def test_a_mark_that_would_not_show_is_refused(raw: str):
    with pytest.raises(NameRefused, match="repeat a combining mark"):
        display_name(raw)


@pytest.mark.parametrize(
    "raw",
    [
        "Budi Santoso",  # Latin (Indonesian)
        "Siti Nurhaliza 99",  # digits and spaces go with any script
        "Иван Петров",  # Cyrillic alone
        "Ὀδυσσεύς",  # Greek alone
        "ꦧꦸꦢꦶ",  # Javanese alone
        "محمد",  # Arabic alone
        "田中たろうタロウ",  # Japanese: Han, Hiragana and Katakana together
        "田中 Taro",  # Japanese with Latin
        "김민준 Kim",  # Korean with Latin
        "王小明",  # Han alone
        "Ada ♠ 42!",  # symbols and punctuation (Common)
        "Zoë-Renée",
    ],
)
def test_a_name_in_one_script_or_a_mix_a_language_writes_is_accepted(raw: str):
    assert display_name(raw).text == raw


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Farmer A", "Farrner A"),  # rn is drawn as m
        ("Farmer A", "ＦＡＲＭＥＲ Ａ"),  # full-width letters, which NFKC folds, in any case
        ("Farmer A", "Ｆａｒｍｅｒ ａ"),
        ("OXO", "\u039f\u03a7\u039f"),  # all Greek: Omicron, Chi, Omicron
        ("TOM", "\u03a4\u039f\u039c"),  # all Greek: Tau, Omicron, Mu
        ("HEAT", "\u041d\u0415\u0410\u0422"),  # all Cyrillic: En, Ie, A, Te
        ("papa", "\u0440\u0430\u0440\u0430"),  # all Cyrillic, in lower case
        ("Ian", "lan"),  # capital I and small L
        ("Agent 007", "Agent OO7"),  # zeros and capital O
        ("will1", "wiIlI"),
    ],
)
def test_names_drawn_alike_share_a_key(one: str, other: str):
    assert name_key(one) == name_key(other) or shape_key(one) == shape_key(other)


def test_cyrillic_a_and_greek_omicron_are_keyed_as_the_latin_letters_they_look_like():
    """Refused as mixed scripts; and the keys would make them the Latin names all the same."""
    assert name_key("Farmer \u0410") == name_key("Farmer A") and shape_key("Farmer \u0410") == shape_key("Farmer A")
    assert name_key("\u039fscar") == name_key("Oscar") and shape_key("\u039fscar") == shape_key("Oscar")


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ada", "Ada2"),
        ("Zoë", "Zoe"),
        ("ian", "lan"),  # in lower case i and l are told apart
        ("heat", "\u041d\u0415\u0410\u0422"),  # Cyrillic capitals look like HEAT, not heat
        ("Kim", "Tim"),
    ],
)
def test_names_drawn_differently_have_different_keys(one: str, other: str):
    assert name_key(one) != name_key(other) and shape_key(one) != shape_key(other)


@pytest.mark.parametrize("raw", ["cornputer", "Hard", "EXPERT", "computer-rn", "norrnal"])
def test_a_look_alike_of_a_computer_levels_name_is_taken(raw: str):
    with pytest.raises(NameRefused) as refused:
        display_name(raw)
    assert refused.value.taken
