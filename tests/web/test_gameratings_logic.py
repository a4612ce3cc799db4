"""The final scores' rating note, run in node (no server, no browser): every reason the contract gives for a game
that moves no rating is said in words, in each language."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.web.test_people_logic import run

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_each_reason_a_game_was_not_rated_is_said_in_words(tmp_path):
    record = yaml.safe_load(SPEC.read_text())["components"]["schemas"]["GameRecordDocument"]
    reasons = record["properties"]["unrated_reason"]["enum"]
    got = run(
        tmp_path,
        f"""
        const i18n = await js("i18n.js");
        const ratings = await js("gameratings.js");
        const out = {{}};
        for (const language of ["en", "id"]) {{
          await i18n.useLanguage(language);
          out[language] = {{
            said: {reasons!r}.map(ratings.unratedText),
            bare: [ratings.unratedText(null), ratings.unratedText("a_reason_from_a_newer_server")],
          }};
        }}
        console.log(JSON.stringify(out));
        """,
    )
    for language, opening in [
        ("en", "This game was not rated: "),
        ("id", "Permainan ini tidak dihitung untuk rating: "),
    ]:
        said = got[language]["said"]
        assert all(text.startswith(opening) for text in said), said
        assert len(set(said)) == len(reasons), said  # each reason its own words
        assert got[language]["bare"][0] == got[language]["bare"][1] and not got[language]["bare"][0].endswith(": .")
