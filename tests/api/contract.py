"""Checks every HTTP response of the API tests against openapi.yaml (openapi-core)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import requests
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"


def _text(raw: bytes | str, **_params: str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _json(raw: bytes | str, **_params: str) -> object:
    return json.loads(raw)


@cache
def openapi() -> OpenAPI:
    deserializers = {
        "application/problem+json": _json,
        "application/yaml": _text,
        "text/html": _text,
        "text/event-stream": _text,
        "application/x-ndjson": _text,
    }
    config = Config(extra_media_type_deserializers=deserializers)
    return OpenAPI.from_file_path(str(SPEC_PATH), config=config)


def check_response(response: requests.Response) -> None:
    """Raise if ``response`` (and its request) breaks the contract."""
    prepared = response.request
    openapi().validate_response(RequestsOpenAPIRequest(prepared), RequestsOpenAPIResponse(response))


class ContractSession(requests.Session):
    """A requests session that validates every response against openapi.yaml.

    ``checked`` counts the validated responses, so a test can show it checked some.
    """

    def __init__(self, base_url: str) -> None:
        super().__init__()
        self.base_url = base_url
        self.checked = 0

    def request(self, method, url, *args, **kwargs):  # type: ignore[override]
        kwargs.setdefault("timeout", 60)
        response = super().request(method, self.base_url + url, *args, **kwargs)
        check_response(response)
        self.checked += 1
        return response


def records_server(request, gunicorn_factory, redis_url: str, tmp_path, **env: str) -> ContractSession:
    """A server without computers on the records database ``request.param`` names (``sqlite`` in ``tmp_path``, or
    ``postgresql``), checked against the contract: the players' tests run on both."""
    if request.param == "sqlite":
        database = {"DATA_DIR": str(tmp_path)}
    else:
        database = {"RECORDS_DATABASE_URL": request.getfixturevalue("postgres_records_url")}
    return ContractSession(gunicorn_factory({"AI_ENABLED": "0", **database, **env}, redis=redis_url))
