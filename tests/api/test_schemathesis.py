"""schemathesis against the live gunicorn: generated requests for every operation
find no 5xx and no response that breaks openapi.yaml; a stateful run follows
the OpenAPI links (create → read / claim / events / bid / play)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
import yaml

from tests.conftest import run_gunicorn

from .helpers import auth

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]

CONFIG = """
base-url = "{base}"
headers = {{ Authorization = "Bearer {token}" }}

[generation]
max-examples = {examples}

[parameters]
"path.game_id" = "{game_id}"
# No long polls: with wait=0 /events answers at once (a fuzzer run outside the tests
# allows the long poll's response time instead; see docs/api.md "Tests").
"query.wait" = 0

[[operations]]
include-operation-id = ["placeBid", "playCard", "decideBlind", "passCards"]
# a schema-valid move may be out of turn, illegal, or against a stale If-Match
checks.positive_data_acceptance.expected-statuses = [200, 401, 404, 409, 412, 422]

[[operations]]
include-operation-id = ["listRecords", "listTables"]
# a schema-valid cursor may be none the listing issued (400)
checks.positive_data_acceptance.expected-statuses = [200, 400]

[[operations]]
include-operation-id = ["listPlayerGames"]
# a schema-valid cursor may be none the listing issued (400), a schema-valid id no player's (404); an over-long
# generated cursor makes a request line gunicorn refuses before the app (414, documented)
checks.positive_data_acceptance.expected-statuses = [200, 400, 404]
checks.negative_data_rejection.expected-statuses = [400, 404, 414, 429]

[[operations]]
include-operation-id = ["getGameRecord"]
checks.positive_data_acceptance.expected-statuses = [200, 404, 409]

[[operations]]
include-operation-id = ["createRejoinCode", "revokeRejoinCode"]
# the token holds one seat: another seat's code is refused (403)
checks.positive_data_acceptance.expected-statuses = [200, 204, 401, 403, 404]

[[operations]]
include-operation-id = ["redeemRejoinCode"]
# a schema-valid code is (all but never) no seat's code
checks.positive_data_acceptance.expected-statuses = [200, 403]

[[operations]]
include-operation-id = ["joinRematch"]
# the game is in play: a rematch is for a finished one
checks.positive_data_acceptance.expected-statuses = [200, 401, 409]

[[operations]]
include-operation-id = ["createPlayer", "renameMyPlayer"]
# a schema-valid name may be one the names' rules refuse (400) or one a player has (409)
checks.positive_data_acceptance.expected-statuses = [200, 201, 400, 401, 409]

[[operations]]
include-operation-id = ["signIn"]
# a schema-valid device name may be one the names' rules refuse (400); a schema-valid code or passkey answer is
# (all but never) a player's (403, 410)
checks.positive_data_acceptance.expected-statuses = [201, 400, 403, 410, 429]

[[operations]]
include-operation-id = ["getEvent", "getEventBoard"]
# a schema-valid id is (all but never) no event's; a board no event has dealt
checks.positive_data_acceptance.expected-statuses = [200, 404]

[[operations]]
include-operation-id = ["createEvent", "joinEvent", "acceptPair", "withdrawPair", "startEvent"]
# every change to an event needs a Player-Token, which the generated requests do not carry
checks.positive_data_acceptance.expected-statuses = [200, 201, 401, 404]

[[operations]]
include-operation-id = ["postMessage"]
# a seat posts one message every 2 s
checks.positive_data_acceptance.expected-statuses = [200, 401, 429]
"""


def _run(
    tmp_path: Path, base: str, game_id: str, token: str, phases: str, examples: int
) -> subprocess.CompletedProcess:
    config = tmp_path / f"schemathesis-{phases.replace(',', '-')}.toml"
    config.write_text(CONFIG.format(base=base, token=token, game_id=game_id, examples=examples))
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(config),
        "run",
        str(ROOT / "openapi.yaml"),
        "--checks",
        "all",
        "--phases",
        phases,
        "--seed",
        "1",
        "--request-timeout",
        "60",
        # One worker: CPython 3.11.7's ast.parse is not thread-safe (gh-106905, "AST constructor
        # recursion depth mismatch"), and hypothesis parses lambda sources while generating.
        "--workers",
        "1",
        # Generating createGame's body (RulesRequest's if/then combinations) is slow on a busy machine; hypothesis's
        # too_slow health check then stops that operation's fuzzing as an error, which says nothing about the API.
        "--suppress-health-check",
        "too_slow",
        "--report",
        "junit",
        "--report-dir",
        str(tmp_path),
    ]
    return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=480)


def operation_count() -> int:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    methods = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
    return sum(len(methods & set(item)) for item in spec["paths"].values())


def _game(base: str) -> tuple[str, str]:
    created = requests.post(f"{base}/v1/games", json={"seats": [{"type": "human"}] * 4, "seed": 5}, timeout=10).json()
    seat = created["state"]["turn"]
    return created["game_id"], created["seats"][seat]["token"]


@pytest.fixture(scope="module")
def bounded_streams(redis_db1) -> Iterator[str]:
    """A server like api_server (shared by this module's runs, each on a game of its own) whose event streams
    (GET .../stream) close after 0.2 s, a keep-alive sent after 0.1 s: a generated request reads a stream to
    its end, which would otherwise take STREAM_MAX_SECONDS.  The computer-only games generated requests create
    are paced and paused unread, as deployed, rather than played out at full speed by the worker meanwhile."""
    env = {
        "STREAM_MAX_SECONDS": "0.2",
        "STREAM_HEARTBEAT_SECONDS": "0.1",
        "COMPUTER_GAME_PACE_SECONDS": "0.25",
        "PAUSE_UNWATCHED_SECONDS": "1",
    }
    with run_gunicorn(env) as base:
        yield base


def test_generated_requests_find_no_5xx_and_no_schema_violation(bounded_streams, ai_worker, tmp_path):
    # ai_worker: the service as deployed, so /readyz is ready (without a worker its 503 is by design)
    api_server = bounded_streams
    game_id, token = _game(api_server)
    result = _run(tmp_path, api_server, game_id, token, "examples,coverage,fuzzing", 40)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert f"Tested: {operation_count()}" in result.stdout  # every operation in the contract
    assert requests.get(f"{api_server}/v1/games/{game_id}", headers=auth(token), timeout=10).status_code in (200, 401)


def test_stateful_run_over_links_finds_nothing(bounded_streams, ai_worker, tmp_path):
    api_server = bounded_streams
    game_id, token = _game(api_server)
    result = _run(tmp_path, api_server, game_id, token, "stateful", 20)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "Stateful" in result.stdout
