"""openapi.yaml generates whole: openapi-python-client and openapi-typescript read it with no warning and
drop no schema, and the generated Python client plays a card on a real server.

What keeps a spec generator-clean (docs/bots.md, "Generating a client"): no ``$ref`` into a property (name the
schema), unions whose members are named schemas, an ``operationId`` and a named schema for every body."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.api.helpers import wait_until

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi.yaml"
SCHEMAS = yaml.safe_load(SPEC.read_text(encoding="utf-8"))["components"]["schemas"]
HERE = Path(__file__).resolve().parent
OPENAPI_TYPESCRIPT = HERE / "node_modules" / ".bin" / "openapi-typescript"
VENV_BIN = Path(sys.executable).parent
# Names openapi-python-client makes up for what the spec left unnamed: inline union members, response bodies,
# request bodies, array items.
MADE_UP_NAME = re.compile(r"(Type\d+|Response\d{3}|Body|Item)$")
PACKAGE = "spades_generated"


def generate_python(out: Path) -> subprocess.CompletedProcess[str]:
    generator = VENV_BIN / "openapi-python-client"
    cmd = [str(generator), "generate", "--path", str(SPEC), "--output-path", str(out), "--meta", "none"]
    env = {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}"}  # its ruff post-hook
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, check=False)


def generated_classes(out: Path) -> set[str]:
    init = (out / "models" / "__init__.py").read_text(encoding="utf-8")
    return set(re.findall(r'^\s+"(\w+)",$', init, re.MULTILINE))


def modelled_schemas() -> set[str]:
    """The schemas a Python generator makes a class of: objects, enums and compositions of objects."""
    return {
        name for name, schema in SCHEMAS.items()
        if schema.get("type") == "object" or "enum" in schema or "allOf" in schema
    }  # fmt: skip


@pytest.fixture(scope="module")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    out = tmp_path_factory.mktemp("generated") / PACKAGE
    return out, generate_python(out)


def test_openapi_python_client_generates_without_a_warning(python_client):
    _, result = python_client
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert not re.search(r"warning|unable|cannot|skipping|removal", output, re.IGNORECASE), output


def test_openapi_python_client_keeps_every_schema_and_names_every_class(python_client):
    out, _ = python_client
    classes = generated_classes(out)
    missing = {name for name in modelled_schemas() if name.replace("_", "") not in classes}
    assert missing == set()
    assert sorted(c for c in classes - set(SCHEMAS) if MADE_UP_NAME.search(c)) == []


def test_openapi_typescript_generates_without_a_warning(tmp_path: Path):
    if not OPENAPI_TYPESCRIPT.exists():
        pytest.fail(
            "openapi-typescript is missing: run scripts/ensure_npm_tools.sh tests/clients (scripts/test.sh does)"
        )
    out = tmp_path / "api.d.ts"
    result = subprocess.run(
        [str(OPENAPI_TYPESCRIPT), str(SPEC), "--redocly", str(HERE / "redocly.yaml"), "-o", str(out)],
        capture_output=True, text=True, timeout=120, cwd=HERE, check=False,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "⚠" not in output and "warn" not in output.lower(), output
    types = out.read_text(encoding="utf-8")
    missing = {name for name in SCHEMAS if not re.search(rf"^\s+{name}: ", types, re.MULTILINE)}
    assert missing == set()


@pytest.mark.integration  # real Redis / gunicorn / Celery processes
def test_the_generated_python_client_creates_a_game_and_plays_a_card(python_client, api_server, ai_worker):
    out, result = python_client
    assert result.returncode == 0, result.stdout + result.stderr
    sys.path.insert(0, str(out.parent))
    try:
        generated = importlib.import_module(PACKAGE)
        models = importlib.import_module(f"{PACKAGE}.models")
        create_game = importlib.import_module(f"{PACKAGE}.api.games.create_game")
        get_game = importlib.import_module(f"{PACKAGE}.api.games.get_game")
        place_bid = importlib.import_module(f"{PACKAGE}.api.moves.place_bid")
        play_card = importlib.import_module(f"{PACKAGE}.api.moves.play_card")
    finally:
        sys.path.remove(str(out.parent))
    body = models.CreateGameRequest.from_dict({
        "rules": {"preset": "partnership", "win_score": 100},
        "seats": [{"type": "human"}, {"type": "ai", "level": "basic"}, {"type": "ai", "level": "basic"},
                  {"type": "ai", "level": "basic"}],
    })  # fmt: skip
    anonymous = generated.Client(base_url=api_server, raise_on_unexpected_status=True)
    created = create_game.sync(client=anonymous, body=body)
    assert isinstance(created, models.CreatedGame)
    me = generated.AuthenticatedClient(base_url=api_server, token=created.seats[0].token)
    game_id = created.game_id

    def my_turn() -> models.GameView:
        view = get_game.sync(client=me, game_id=game_id)
        assert isinstance(view, models.GameView)
        return view

    wait_until(lambda: my_turn().turn == 0, "seat 0 (the dealer) bids after the three computers")
    view = my_turn()
    bid = next(b for b in view.legal if b != 0)
    view = place_bid.sync(client=me, game_id=game_id, body=models.BidRequest(bid=bid), if_match=f'"{view.version}"',
                          idempotency_key="bid-1")  # fmt: skip
    assert isinstance(view, models.GameView), view
    wait_until(lambda: (v := my_turn()).phase == "playing" and v.turn == 0, "seat 0's turn to play")
    view = my_turn()
    card = view.legal[0]
    after = play_card.sync(client=me, game_id=game_id, body=models.PlayRequest(card=card),
                           if_match=f'"{view.version}"', idempotency_key="card-1")  # fmt: skip
    assert isinstance(after, models.GameView), after
    assert card not in after.hand and after.version > view.version
