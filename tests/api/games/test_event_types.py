"""The one list of the log's event types (services.api.games.event_types) against everything that repeats it: the
contract's enum and its table of each type's ``data``, the web client's handling, the Python client's end of a
stream.  (Every entry the service makes is checked against the list as it is made:
``services.api.games.events.event``.)"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from services.api.games.event_types import BY_NAME, LAST, TYPES
from spades_client import sse

ROOT = Path(__file__).resolve().parents[3]
JS = ROOT / "services" / "web" / "static" / "js"


def cases(path: Path) -> set[str]:
    """The event types a client module's ``switch`` handles by name."""
    return set(re.findall(r'case "([a-z_]+)":', path.read_text()))


SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text())


def test_the_contracts_enum_is_the_list():
    assert sorted(SPEC["components"]["schemas"]["EventType"]["enum"]) == sorted(BY_NAME)


def test_the_contract_tells_each_types_data():
    """``GET /events``' table of types and their ``data``: a row per type, in the list's order."""
    described = SPEC["paths"]["/v1/games/{game_id}/events"]["get"]["description"]
    assert re.findall(r"^\| `([a-z_]+)` \|", described, re.MULTILINE) == [kind.name for kind in TYPES]


def test_the_web_client_steps_known_types_and_reads_the_view_for_the_rest():
    """``events.js`` applies a type it has a step for to its copy of the view; its ``default`` reads the view again,
    which is right for any type: a change of seats (never stepped: only the view shows who sits where) and a type
    with no step yet (``tests/web/test_people_logic.py``).  ``news.js`` tells the table of known types only."""
    stepped = cases(JS / "events.js")
    assert stepped <= set(BY_NAME)
    assert not stepped & {kind.name for kind in TYPES if kind.seats}
    assert cases(JS / "news.js") <= set(BY_NAME)


def test_the_clients_end_a_stream_after_the_last_type():
    assert re.search(rf'const LAST_TYPE = "{LAST}";', (JS / "transport.js").read_text())
    assert sse.END_TYPE == LAST
    assert [kind.name for kind in TYPES if kind.last] == [LAST], "one type ends a game's log"
