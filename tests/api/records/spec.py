"""The record schemas of openapi.yaml as JSON Schema validators."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC = Path(__file__).resolve().parents[3] / "openapi.yaml"


@cache
def validator(name: str) -> Draft202012Validator:
    """A validator of ``#/components/schemas/<name>`` (its references resolved in the spec)."""
    spec: dict[str, Any] = yaml.safe_load(SPEC.read_text())
    registry = Registry().with_resource("spec", Resource(contents=spec, specification=DRAFT202012))
    return Draft202012Validator({"$ref": f"spec#/components/schemas/{name}"}, registry=registry)
