"""spades_client and openapi.yaml held together: every operation, every modelled schema's fields, the
problem codes and the move paths.  A change to the contract fails here until the client follows it."""

from __future__ import annotations

import ast
import dataclasses
import typing
from pathlib import Path

import pytest
import yaml

from spades_client import client as client_module
from spades_client.client import OPERATIONS, SpadesClient, snake
from spades_client.errors import PROBLEM_CLASSES
from spades_client.events import EVENT_MODELS
from spades_client.friends import FRIEND_MODELS
from spades_client.lobby import LOBBY_MODELS
from spades_client.models import MODELS as CORE_MODELS
from spades_client.models import Body
from spades_client.moves import MOVE_PATHS
from spades_client.operator import OPERATOR_MODELS
from spades_client.passkeys import PASSKEY_MODELS
from spades_client.players import PLAYER_MODELS
from spades_client.ratings import RATING_MODELS

ROOT = Path(__file__).resolve().parents[2]
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
SCHEMAS = SPEC["components"]["schemas"]
METHODS = ("get", "post", "put", "patch", "delete")
MODELS = (
    CORE_MODELS
    + LOBBY_MODELS
    + PLAYER_MODELS
    + PASSKEY_MODELS
    + FRIEND_MODELS
    + RATING_MODELS
    + OPERATOR_MODELS
    + EVENT_MODELS
)
# Problem subtypes whose own properties the one Problem model carries as optional fields.
PROBLEM_SUBTYPES = ("QuotaProblem", "TooFarBehindProblem", "PairingBannedProblem")


def spec_operations() -> dict[str, tuple[str, str]]:
    return {
        op["operationId"]: (method.upper(), path)
        for path, item in SPEC["paths"].items()
        for method, op in item.items()
        if method in METHODS
    }


def properties(name: str) -> tuple[set[str], set[str]]:
    """A schema's property names and required ones (allOf parts merged)."""
    schema = SCHEMAS[name]
    parts = [schema, *schema.get("allOf", [])]
    names: set[str] = set()
    required: set[str] = set()
    for part in parts:
        if "$ref" in part:
            more, more_required = properties(part["$ref"].rsplit("/", 1)[-1])
            names |= more
            required |= more_required
        names |= set(part.get("properties", {}))
        required |= set(part.get("required", []))
    return names, required


def model_fields(model: type[Body]) -> dict[str, bool]:
    """A model's fields → whether it may be absent (it has a default)."""
    return {
        f.name: f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        for f in dataclasses.fields(model)
        if f.name not in ("extra", "raw")
    }


def test_the_client_calls_every_operation_of_the_contract_with_its_method_and_path():
    assert spec_operations() == OPERATIONS


@pytest.mark.parametrize("operation_id", sorted(spec_operations()))
def test_every_operation_has_a_client_method_named_after_it(operation_id: str):
    assert callable(getattr(SpadesClient, snake(operation_id), None)), snake(operation_id)


def test_every_operation_named_in_the_client_source_exists():
    named = {
        node.args[0].value
        for node in ast.walk(ast.parse(Path(client_module.__file__).read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "_call" and node.args
    }
    assert named <= set(OPERATIONS)


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.SCHEMA)
def test_each_model_has_exactly_its_schemas_properties(model: type[Body]):
    names, required = properties(model.SCHEMA)
    optional_extras = set()
    if model.SCHEMA == "Problem":
        for subtype in PROBLEM_SUBTYPES:
            optional_extras |= properties(subtype)[0] - names
    fields = model_fields(model)
    assert set(fields) == names | optional_extras
    assert {name for name, may_be_absent in fields.items() if may_be_absent} == (names - required) | optional_extras


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.SCHEMA)
def test_a_field_is_optional_in_python_only_where_the_schema_allows_null_or_absence(model: type[Body]):
    required = properties(model.SCHEMA)[1]
    hints = typing.get_type_hints(model)
    props = SCHEMAS[model.SCHEMA].get("properties", {})
    for name in required & set(props):
        prop = props[name]
        nullable = "null" in str(prop.get("type", "")) or any(
            part.get("type") == "null" for part in prop.get("oneOf", []) + prop.get("anyOf", [])
        )
        allows_none = type(None) in typing.get_args(hints[name])
        assert allows_none == nullable, f"{model.SCHEMA}.{name}"


def test_every_model_named_is_a_schema_and_every_response_schema_the_client_returns_is_modelled():
    assert {m.SCHEMA for m in MODELS} <= set(SCHEMAS)
    returned = {"GameView", "CreatedGame", "ClaimedSeat", "EventPage", "HintResponse", "RoundReview",
                "RulesCatalogue", "LevelsCatalogue", "Event", "Problem"}  # fmt: skip
    assert returned <= {m.SCHEMA for m in MODELS}


def test_every_problem_code_of_the_contract_has_its_exception():
    assert set(PROBLEM_CLASSES) == set(SCHEMAS["Problem"]["properties"]["code"]["enum"])


def test_every_move_path_is_a_move_operation_of_the_contract():
    for kind, path in MOVE_PATHS.items():
        operation = SPEC["paths"][f"/v1/games/{{game_id}}/{path}"]["post"]
        body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        assert properties(body)[1] == {kind}


def test_event_types_and_stream_messages_name_one_schema():
    assert SCHEMAS["Event"]["properties"]["type"] == {"$ref": "#/components/schemas/EventType"}
    assert SCHEMAS["StreamMessage"]["properties"]["event"] == {"$ref": "#/components/schemas/EventType"}
