"""``GET /openapi.yaml`` answers the contract in the YAML type the client asks for (services/api/app.py)."""

from __future__ import annotations

import pytest
import yaml

from services.api.app import create_app
from services.api.games.record import GameRecord
from services.api.store.memory_store import MemoryStore

SETTINGS = {
    "STORE": MemoryStore(GameRecord.from_stored),
    "AI_ENABLED": False,
    "RATE_LIMIT_ENABLED": False,
    "RECORDS_ENABLED": False,
}


@pytest.mark.parametrize(
    ("accept", "served"),
    [(None, "application/yaml"), ("*/*", "application/yaml"), ("text/yaml", "text/yaml"),
     ("text/yaml;q=0.5, application/yaml", "application/yaml"), ("text/*", "text/yaml")],
)  # fmt: skip
def test_the_contract_comes_in_the_yaml_type_asked_for(accept: str | None, served: str):
    client = create_app({**SETTINGS, "LOG_LEVEL": "WARNING"}).test_client()
    response = client.get("/openapi.yaml", headers={"Accept": accept} if accept else {})
    assert response.status_code == 200
    assert response.mimetype == served
    assert "Accept" in response.headers["Vary"]
    assert yaml.safe_load(response.data)["paths"]["/openapi.yaml"]["get"]["operationId"] == "getOpenApi"
