"""Hints and a round review for the house rules' decisions end to end: real gunicorn, Redis and a
Celery worker answering ``ai.hint``.  A blind decision (the hand hidden) and the nil exchange get a
hint of their own kind; a finished round with them is reviewed decision by decision.

Every response is checked against openapi.yaml (ContractSession).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ..contract import ContractSession
from ..helpers import auth
from .test_hints import assert_problem

pytestmark = pytest.mark.integration
RULES = {
    "preset": "partnership",
    "blind_nil": True,
    "blind_bids": True,
    "blind_margin": 0,  # every seat may bid blind in round 1
    "nil_pass_cards": 2,
}
NIL = 1  # round 1's first bidder bids blind nil; its partner is seat 3


@pytest.fixture
def session(api_server, ai_worker) -> ContractSession:
    return ContractSession(api_server)


def house_game(session: ContractSession, seed: int) -> tuple[str, list[str]]:
    body = {"rules": RULES, "seats": [{"type": "human"}] * 4, "seed": seed}
    response = session.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    return created["game_id"], [seat["token"] for seat in created["seats"]]


def hint_at(session: ContractSession, game_id: str, token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The seat's view and its hint, which must be for that view's version."""
    mine = session.get(f"/v1/games/{game_id}", headers=auth(token)).json()
    response = session.get(f"/v1/games/{game_id}/hint", headers=auth(token))
    assert response.status_code == 200, response.text
    hint = response.json()
    assert (hint["seat"], hint["version"]) == (mine["you"], mine["version"])
    return mine, hint


def blind_legal(move: dict[str, Any], mine: dict[str, Any]) -> bool:
    """Looking, or a blind bid the view allows (figures aside)."""
    return move.get("look") is True or (move.get("blind") is True and move["bid"] in mine["legal_blind"])


def test_hints_at_a_blind_decision_and_in_the_exchange_then_the_round_reviewed(session):
    game_id, tokens = house_game(session, seed=73)
    rng = random.Random(73)
    post = lambda kind, body, seat: session.post(f"/v1/games/{game_id}/{kind}", json=body, headers=auth(tokens[seat]))  # noqa: E731

    while (public := session.get(f"/v1/games/{game_id}").json())["phase"] == "bidding":
        seat = public["turn"]
        mine, hint = hint_at(session, game_id, tokens[seat])
        if mine["hand_hidden"]:
            assert mine["hand"] is None
            assert blind_legal(hint["move"], mine)
            weighed = [c for c in hint["candidates"] if blind_legal(c, mine)]
            assert weighed == hint["candidates"] and any(c.get("look") for c in weighed)
            assert any("value" in c for c in weighed), "looking and the blind bids weighed"
            body = {"bid": 0} if seat == NIL else {"look": True}
            assert post("blind", body, seat).status_code == 200
        else:  # it looked: an ordinary bid hint
            assert set(hint["move"]) == {"bid"} and hint["move"]["bid"] in mine["legal"]
            assert post("bids", {"bid": rng.choice([b for b in mine["legal"] if 1 <= b <= 4])}, seat).status_code == 200

    assert public["phase"] == "passing"
    while (public := session.get(f"/v1/games/{game_id}").json())["phase"] == "passing":
        seat = public["turn"]
        other = tokens[(seat + 1) % 4]
        assert_problem(session.get(f"/v1/games/{game_id}/hint", headers=auth(other)), 409, "not_your_turn")
        mine, hint = hint_at(session, game_id, tokens[seat])
        cards = hint["move"]["pass"]
        assert len(set(cards)) == mine["pass_count"] == 2 and set(cards) <= set(mine["hand"])
        assert all(set(c["pass"]) <= set(mine["hand"]) for c in hint["candidates"])
        assert post("passes", {"cards": cards}, seat).status_code == 200, "the hint is a move the game accepts"

    while (public := session.get(f"/v1/games/{game_id}").json())["round"] == 1:
        seat = public["turn"]
        mine = session.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()
        assert post("plays", {"card": rng.choice(mine["legal"])}, seat).status_code == 200

    reviewed = {}
    for seat in (NIL, (NIL + 2) % 4):
        response = session.get(f"/v1/games/{game_id}/rounds/1/review", headers=auth(tokens[seat]))
        assert response.status_code == 200, response.text
        reviewed[seat] = response.json()
    record = reviewed[NIL]["record"]
    assert record["blind"][NIL] is True and record["bids"][NIL] == 0
    nil, partner = reviewed[NIL]["decisions"], reviewed[(NIL + 2) % 4]["decisions"]
    assert [next(iter(d["made"])) for d in nil[:2]] == ["bid", "pass"] and nil[0]["made"] == {"bid": 0, "blind": True}
    assert [next(iter(d["made"])) for d in partner[:3]] == ["look", "bid", "pass"]
    for decisions, seat in ((nil, NIL), (partner, (NIL + 2) % 4)):
        passed = next(d for d in decisions if "pass" in d["made"])
        assert sorted(passed["made"]["pass"]) == sorted(record["passes"][seat])
        assert "pass" in passed["best"] and all("pass" in c for c in passed["candidates"])
        assert [d.get("trick") for d in decisions if "card" in d["made"]] == list(range(1, 14))
    assert blind_legal(nil[0]["best"], {"legal_blind": list(range(14))})
