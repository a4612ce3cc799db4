"""The one list of the log's event types (services.api.games.event_types) against everything that repeats it: the
contract's enum, the web client's handling, the Python client's end of a stream.  (Every entry the service makes
is checked against the list as it is made: ``services.api.games.events.event``.)"""

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


def test_the_contracts_enum_is_the_list():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert sorted(spec["components"]["schemas"]["EventType"]["enum"]) == sorted(BY_NAME)


def test_the_web_client_steps_every_type_and_reads_the_view_after_a_change_of_seats():
    """``events.js`` applies each type to its copy of the view, except those that change who sits where: its
    ``default`` reads the view again for them; ``news.js`` tells the table of known types only."""
    stepped = cases(JS / "events.js")
    assert stepped == {kind.name for kind in TYPES if not kind.seats}
    assert cases(JS / "news.js") <= set(BY_NAME)


def test_the_clients_end_a_stream_after_the_last_type():
    assert re.search(rf'const LAST_TYPE = "{LAST}";', (JS / "transport.js").read_text())
    assert sse.END_TYPE == LAST
    assert [kind.name for kind in TYPES if kind.last] == [LAST], "one type ends a game's log"
