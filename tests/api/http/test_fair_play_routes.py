"""The operator API's token check, in process on the embedded records database (no Redis is reached): the
current ``OPERATOR_TOKEN`` opens it, and ``OPERATOR_TOKEN_PREVIOUS`` too while a new token rolls out, so the
operator's tools are refused by neither release's processes (docs/operations.md, "Rotate secrets")."""

from __future__ import annotations

import pytest

from services.api.app import create_app
from services.api.config import operator_tokens
from tests.conftest import NO_STORE_CONFIG


def flags_status(token: str, **settings: str) -> int:
    app = create_app({**NO_STORE_CONFIG, **settings})
    return app.test_client().get("/v1/operator/flags", headers={"Authorization": f"Bearer {token}"}).status_code


@pytest.fixture(autouse=True)
def records_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(tmp_path))


def test_the_previous_token_opens_the_operator_api_only_while_it_is_set():
    assert flags_status("new", OPERATOR_TOKEN="new", OPERATOR_TOKEN_PREVIOUS="old") == 200
    assert flags_status("old", OPERATOR_TOKEN="new", OPERATOR_TOKEN_PREVIOUS="old") == 200
    assert flags_status("other", OPERATOR_TOKEN="new", OPERATOR_TOKEN_PREVIOUS="old") == 403
    assert flags_status("old", OPERATOR_TOKEN="new") == 403  # the roll is over: the old token is refused
    assert flags_status("new", OPERATOR_TOKEN="new") == 200


def test_a_previous_token_alone_opens_nothing_and_no_token_is_the_operators_without_one():
    assert operator_tokens({"OPERATOR_TOKEN": "", "OPERATOR_TOKEN_PREVIOUS": "old"}) == ()
    assert operator_tokens({"OPERATOR_TOKEN": "new", "OPERATOR_TOKEN_PREVIOUS": "old"}) == ("new", "old")
    assert flags_status("old", OPERATOR_TOKEN_PREVIOUS="old") == 403
    assert flags_status("", OPERATOR_TOKEN="new", OPERATOR_TOKEN_PREVIOUS="") == 401
