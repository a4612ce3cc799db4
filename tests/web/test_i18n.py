"""The message catalogues: every language has every key of English with the same placeholders, and a
message for every problem code and engine reason openapi.yaml lists; the language a page shows is
chosen from its address, Settings and the browser (i18n.js, run in node)."""

from __future__ import annotations

import json
import subprocess

import pytest
import yaml

from services.web import WEB_ROOT

from .catalogues import PLACEHOLDER, catalogue, languages

SPEC = WEB_ROOT.parents[2] / "openapi.yaml"
OTHERS = [code for code in languages() if code != "en"]


def placeholders(value: str | dict[str, str]) -> set[str]:
    forms = value.values() if isinstance(value, dict) else [value]
    return {name for form in forms for name in PLACEHOLDER.findall(form)}


def test_english_and_indonesian_are_offered():
    assert languages() == {"en": "English", "id": "Bahasa Indonesia"}


@pytest.mark.parametrize("code", OTHERS)
def test_every_catalogue_has_every_english_key_with_its_placeholders(code: str):
    english, other = catalogue("en"), catalogue(code)
    assert sorted(set(english) - set(other)) == []
    assert sorted(set(other) - set(english)) == []
    differing = {key: (placeholders(english[key]), placeholders(other[key])) for key in english}
    assert {key: pair for key, pair in differing.items() if pair[0] != pair[1]} == {}
    for key, value in other.items():
        if isinstance(value, dict):
            assert "other" in value, key
        assert value, key


def test_plural_forms_are_objects_with_other_in_english():
    plural = {key: value for key, value in catalogue("en").items() if isinstance(value, dict)}
    for key, value in plural.items():
        assert set(value) <= {"zero", "one", "two", "few", "many", "other"} and "other" in value, key
        assert "count" in placeholders(value) or all("{" not in form for form in value.values()), key


@pytest.mark.parametrize("code", list(languages()))
def test_every_problem_code_and_reason_of_the_spec_has_a_message(code: str):
    problem = yaml.safe_load(SPEC.read_text())["components"]["schemas"]["Problem"]["properties"]
    keys = set(catalogue(code))
    assert sorted(f"problem.{c}" for c in problem["code"]["enum"] if f"problem.{c}" not in keys) == []
    assert sorted(f"reason.{r}" for r in problem["reason"]["enum"] if f"reason.{r}" not in keys) == []


CASES = [
    ({"search": "?lang=id", "stored": "en", "languages": ["en-US"]}, "id"),
    ({"search": "?lang=xx", "stored": "id", "languages": ["en-US"]}, "id"),
    ({"search": "", "stored": None, "languages": ["id-ID", "en"]}, "id"),
    ({"search": "", "stored": None, "languages": ["fr-FR", "id"]}, "id"),
    ({"search": "", "stored": None, "languages": ["fr-FR"]}, "en"),
    ({"search": "", "stored": "en", "languages": ["id-ID"]}, "en"),
]


def test_the_language_is_chosen_from_the_address_then_settings_then_the_browser():
    script = (
        f'const {{ chooseLanguage }} = await import("{(WEB_ROOT / "js" / "i18n.js").as_uri()}");\n'
        f"const cases = {json.dumps([case for case, _ in CASES])};\n"
        "process.stdout.write(JSON.stringify(cases.map((c) => chooseLanguage(c))));"
    )
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [expected for _, expected in CASES]


def test_t_fills_placeholders_formats_numbers_and_chooses_plural_forms():
    script = (
        f'const i18n = await import("{(WEB_ROOT / "js" / "i18n.js").as_uri()}");\n'
        "const out = [];\n"
        'out.push(i18n.t("no.such.key"));\n'
        'await i18n.useLanguage("id");\n'
        'out.push(i18n.language(), i18n.formatNumber(1234.5), i18n.formatSigned(-8), i18n.t("app.settings"));\n'
        "process.stdout.write(JSON.stringify(out));"
    )
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == ["no.such.key", "id", "1.234,5", "\u22128", "Pengaturan"]
