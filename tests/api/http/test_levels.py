"""The computer levels over HTTP: the catalogue, and every level accepted
for AI seats and for options.ai_takeover in both presets (checked against openapi.yaml)."""

from __future__ import annotations

import pytest

from services.computers import DEFAULT_LEVEL, HINT_LEVEL, LEVEL_NAMES, LEVELS

from ..contract import ContractSession

pytestmark = pytest.mark.integration


def test_the_levels_catalogue_lists_every_level_with_its_description_and_seed(api_server):
    session = ContractSession(api_server)
    response = session.get("/v1/levels")
    assert response.status_code == 200
    body = response.json()
    assert (body["default_level"], body["hint_level"]) == (DEFAULT_LEVEL, HINT_LEVEL)
    assert [level["name"] for level in body["levels"]] == list(LEVEL_NAMES)
    for level in body["levels"]:
        known = LEVELS[level["name"]]
        assert (level["seed"], level["description"]) == (known.seed, known.description)
        assert (level["strength"], level["summary"]) == (known.strength, known.summary)
    assert sorted(level["strength"] for level in body["levels"]) == list(range(1, len(LEVEL_NAMES) + 1))
    strongest = max(body["levels"], key=lambda level: level["strength"])
    assert strongest["name"] == HINT_LEVEL, "hints come from the strongest level"
    assert {level["seed"] for level in body["levels"]} == {"000", "002"}


@pytest.mark.parametrize("preset", ["partnership", "individual"])
@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_every_level_is_accepted_for_seats_and_takeover(api_server, preset, level):
    session = ContractSession(api_server)
    # An open seat keeps the game waiting: nothing is sent to the workers.
    seats = [{"type": "ai", "level": level}, {"type": "ai"}, {"type": "human"}, {"type": "open"}]
    body = {"rules": {"preset": preset}, "seats": seats, "options": {"ai_takeover": level}}
    response = session.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    state = response.json()["state"]
    assert [seat["level"] for seat in state["seats"]] == [level, DEFAULT_LEVEL, None, None]
    assert state["options"] == {
        "ai_takeover": level,
        "hints": True,
        "public": False,
        "clock": "normal",
    }  # two seats for people
    assert state["phase"] == "waiting"


def test_an_unknown_level_is_a_400_naming_the_field(api_server):
    session = ContractSession(api_server)
    seats = [{"type": "ai", "level": "grandmaster"}] + [{"type": "human"}] * 3
    response = session.post("/v1/games", json={"seats": seats, "options": {"ai_takeover": "grandmaster"}})
    assert response.status_code == 400
    fields = {error["field"] for error in response.json()["errors"]}
    assert fields == {"seats.0.level", "options.ai_takeover"}
