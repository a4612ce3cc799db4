"""The web client's message catalogues (services/web/static/js/locales/), read with node as the browser
reads them, and the words a page shows that only English has: what an Indonesian page must not show."""

from __future__ import annotations

import json
import re
import subprocess
from functools import cache

from services.web import WEB_ROOT

LOCALES = WEB_ROOT / "js" / "locales"
WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)  # words of three letters or more: card ranks and "vs" aside
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def languages() -> dict[str, str]:
    return node_default(f'import("{(LOCALES / "index.js").as_uri()}").then((m) => m.LANGUAGES)')


@cache
def catalogue(code: str) -> dict[str, str | dict[str, str]]:
    return node_default(f'import("{(LOCALES / f"{code}.js").as_uri()}").then((m) => m.default)')


def node_default(expression: str) -> dict:
    script = f"{expression}.then((value) => process.stdout.write(JSON.stringify(value)));"
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def texts(code: str) -> list[str]:
    """Every message of a catalogue, each plural form on its own, placeholders removed."""
    found = []
    for value in catalogue(code).values():
        for text in value.values() if isinstance(value, dict) else [value]:
            found.append(PLACEHOLDER.sub(" ", text))
    return found


def words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text)}


@cache
def english_only_words() -> frozenset[str]:
    """Words of the English catalogue that the Indonesian one never uses (loanwords such as "nil",
    "bag" or "trump", which seed 002 uses in Indonesian, are in both and so allowed)."""
    english = set().union(*(words(text) for text in texts("en")))
    indonesian = set().union(*(words(text) for text in texts("id")))
    return frozenset(english - indonesian)


def english_words_in(text: str, allowed: set[str] = frozenset()) -> set[str]:
    """The English-only words in a page's text, besides `allowed` (the players' names)."""
    return (words(text) & english_only_words()) - {word.lower() for word in allowed}
