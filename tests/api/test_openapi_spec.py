"""openapi.yaml read strictly, without a server: it is a valid OpenAPI 3.1 document,
every schema object holds only JSON Schema / OpenAPI keywords (so a description
that flow-style YAML cut at a comma, whose tail became a bogus key, fails here),
and ``RulesRequest`` states exactly what the server enforces: its ranges and
choices are the engine's, and a request is schema-valid if and only if the API
accepts it."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator
from marshmallow import ValidationError
from openapi_spec_validator import validate as validate_spec

from services.api.http.request_schemas import CREATE_GAME_REQUEST
from services.computers import LEVEL_NAMES
from services.engine import PRESETS, RuleError, Rules, make_rules
from services.engine.errors import CODES as ENGINE_CODES
from services.engine.rules import OPTION_CHOICES, OPTION_RANGES
from tests.engine.strategies_util import rules_overrides, rules_requests

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"

# JSON Schema 2020-12 (core, applicator, validation, unevaluated, format, content,
# meta-data) plus the OpenAPI 3.1 schema-object additions.
SCHEMA_KEYWORDS = frozenset(
    [
        "$schema",
        "$id",
        "$ref",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$vocabulary",
        "$comment",
        "$defs",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "prefixItems",
        "items",
        "contains",
        "properties",
        "patternProperties",
        "additionalProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "type",
        "enum",
        "const",
        "multipleOf",
        "maximum",
        "exclusiveMaximum",
        "minimum",
        "exclusiveMinimum",
        "maxLength",
        "minLength",
        "pattern",
        "maxItems",
        "minItems",
        "uniqueItems",
        "maxContains",
        "minContains",
        "maxProperties",
        "minProperties",
        "required",
        "dependentRequired",
        "format",
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
        "title",
        "description",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "examples",
        "discriminator",
        "xml",
        "externalDocs",
        "example",
    ]
)
SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SUBSCHEMA = ("not", "if", "then", "else", "items", "contains", "additionalProperties", "propertyNames")
SUBSCHEMA_MAPS = ("properties", "patternProperties", "dependentSchemas", "$defs")


@cache
def spec() -> dict[str, Any]:
    return yaml.safe_load(SPEC_PATH.read_text())


def _schemas_in(node: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Every schema object under an OpenAPI object: the ``schema`` of parameters,
    headers and media types, wherever they sit."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "schema":
                yield from _walk_schema(value, f"{path}.schema")
            elif key not in ("example", "examples"):
                yield from _schemas_in(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _schemas_in(item, f"{path}.{index}")


def _walk_schema(schema: Any, path: str) -> Iterator[tuple[str, Any]]:
    yield path, schema
    if not isinstance(schema, dict):
        return
    for key in SUBSCHEMA_LISTS:
        for index, sub in enumerate(schema.get(key, [])):
            yield from _walk_schema(sub, f"{path}.{key}.{index}")
    for key in SUBSCHEMA:
        if isinstance(schema.get(key), dict):
            yield from _walk_schema(schema[key], f"{path}.{key}")
    for key in SUBSCHEMA_MAPS:
        for name, sub in schema.get(key, {}).items():
            yield from _walk_schema(sub, f"{path}.{key}.{name}")


def all_schemas() -> list[tuple[str, Any]]:
    found = list(_schemas_in(spec()["paths"], "paths"))
    components = spec()["components"]
    found += list(_schemas_in({k: v for k, v in components.items() if k != "schemas"}, "components"))
    for name, schema in components["schemas"].items():
        found += list(_walk_schema(schema, f"components.schemas.{name}"))
    return found


def test_the_spec_is_valid_openapi_3_1():
    validate_spec(spec())  # raises on any structural error


def test_every_schema_holds_only_keywords():
    schemas = all_schemas()
    assert len(schemas) > 200  # the walk reaches nested schemas, not just the named ones
    bad = [
        f"{path}: {key!r}"
        for path, schema in schemas
        if isinstance(schema, dict)
        for key in schema
        if key not in SCHEMA_KEYWORDS and not str(key).startswith("x-")
    ]
    assert not bad, "not JSON Schema / OpenAPI keywords (a description cut at a comma?):\n" + "\n".join(bad)


def test_every_description_and_summary_is_text_and_nothing_is_null():
    """Outside schemas too (operations, parameters, responses): a key with no value
    is the tail of a cut sentence, and a description must be one string."""

    def walk(node: Any, path: str, names: bool = False) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if not names and key in ("description", "summary") and not isinstance(value, str):
                    yield f"{path}.{key} is not text"
                if value is None and key not in ("default", "const"):
                    yield f"{path}.{key} is null"
                yield from walk(value, f"{path}.{key}", names=key in SUBSCHEMA_MAPS and not names)
        elif isinstance(node, list):
            for index, item in enumerate(node):
                yield from walk(item, f"{path}.{index}")

    assert list(walk(spec(), "")) == []


def rules_request_schema() -> dict[str, Any]:
    return spec()["components"]["schemas"]["RulesRequest"]


def test_rules_request_ranges_and_choices_are_the_engines():
    properties = rules_request_schema()["properties"]
    assert set(properties) == {"preset", *Rules.__dataclass_fields__}
    assert sorted(properties["preset"]["enum"]) == sorted(PRESETS)
    for name, choices in OPTION_CHOICES.items():
        assert sorted(properties[name]["enum"]) == sorted(choices), name
    for name, (low, high) in OPTION_RANGES.items():
        assert (properties[name]["minimum"], properties[name]["maximum"]) == (low, high), name


def _api_accepts(request: dict[str, Any]) -> bool:
    """What POST /v1/games does with these rules: marshmallow, then the engine."""
    try:
        preset, overrides = rules_overrides(CREATE_GAME_REQUEST.load({"rules": request})["rules"])
        make_rules(preset, **overrides)
    except (ValidationError, RuleError):
        return False
    return True


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_requests())
def test_a_rules_request_is_schema_valid_exactly_when_the_api_accepts_it(request):
    schema_valid = Draft202012Validator(rules_request_schema()).is_valid(request)
    assert schema_valid == _api_accepts(request), request


def test_a_problems_reason_is_any_of_the_engines_codes():
    reasons = spec()["components"]["schemas"]["Problem"]["properties"]["reason"]["enum"]
    assert sorted(reasons) == sorted(ENGINE_CODES)


def test_the_level_enum_is_the_catalogues():
    """Code generators read the enum; services.computers is the one list it must match, in its order."""
    assert spec()["components"]["schemas"]["AiLevel"]["enum"] == list(LEVEL_NAMES)
