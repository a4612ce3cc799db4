"""A house-rules game end to end over HTTP: real gunicorn, real Redis (db 1).

Jokers, deuces high, blind nil and blind bids (open to every seat: margin 0) and a two-card nil
exchange, four human seats playing to game_over through /bids, /blind, /passes and /plays. Every
response is checked against openapi.yaml and against the engine replaying the same moves; the
event log each seat (and a spectator) follows shows no card it may not see.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from services.engine import Bid, Look, Pass, Play, apply, make_rules, mask_of, new_game, turn
from testkit.http_clients import EventFollower

from .contract import ContractSession
from .helpers import assert_matches_engine, auth, create_game

RULES = {
    "preset": "partnership",
    "win_score": 150,
    "lose_score": -150,
    "jokers": True,
    "deuces_high": True,
    "blind_nil": True,
    "blind_bids": True,
    "blind_margin": 0,
    "nil_pass_cards": 2,
}
SEED = 19


def choose(view: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A legal move from a seat's view, taking the house rules' moves often."""
    legal = view["legal"]
    if view.get("hand_hidden"):
        blind = view["legal_blind"]
        if blind and rng.random() < 0.5:
            return "blind", {"bid": 0 if 0 in blind else rng.choice(blind)}
        return "blind", {"look": True}
    if view["phase"] == "bidding":
        if 0 in legal and rng.random() < 0.3:
            return "bids", {"bid": 0}
        return "bids", {"bid": rng.choice([b for b in legal if 1 <= b <= 4] or legal)}
    if view["phase"] == "passing":
        return "passes", {"cards": rng.sample(legal, view["pass_count"])}
    return "plays", {"card": rng.choice(legal)}


def engine_move(kind: str, body: dict[str, Any], deck) -> Bid | Look | Pass | Play:
    if kind == "blind":
        return Look() if body.get("look") else Bid(body["bid"], blind=True)
    if kind == "bids":
        return Bid(body["bid"])
    if kind == "passes":
        return Pass(mask_of(deck.parse(c) for c in body["cards"]))
    return Play(deck.parse(body["card"]))


def private_cards(event: dict[str, Any]) -> set[str]:
    return set(event["data"].get("hand", [])) | set(event["data"].get("cards", []))


@pytest.mark.integration
def test_a_house_rules_game_plays_to_game_over_over_http(api_server):
    session = ContractSession(api_server)
    created = create_game(session, RULES, [{"type": "human"}] * 4, seed=SEED)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    state = new_game(make_rules(**RULES), SEED)
    deck = state.rules.deck
    followers = [EventFollower(api_server, game_id, token) for token in tokens] + [EventFollower(api_server, game_id)]
    for follower in followers:
        follower.start()
    rng = random.Random(SEED)
    kinds_sent: set[str] = set()
    played_high_deuce = False
    while state.phase != "game_over":
        seat = turn(state)
        mine = session.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()
        assert_matches_engine(mine, state, seat)
        kind, body = choose(mine, rng)
        response = session.post(f"/v1/games/{game_id}/{kind}", json=body, headers=auth(tokens[seat]))
        assert response.status_code == 200, response.text
        state = apply(state, seat, engine_move(kind, body, deck))
        assert_matches_engine(response.json(), state, seat)
        kinds_sent.add(kind)
        played_high_deuce |= body.get("card") == "2S"
        if kind != "plays" or len(state.plays) % 13 == 0:
            for other in (None, 0, 1, 2, 3):
                headers = auth(tokens[other]) if other is not None else {}
                assert_matches_engine(session.get(f"/v1/games/{game_id}", headers=headers).json(), state, other)
    assert kinds_sent == {"blind", "bids", "passes", "plays"} and played_high_deuce
    assert session.get(f"/v1/games/{game_id}").json()["winner"] == list(state.winner)

    logs = [follower.finish() for follower in followers]
    for seat, events in enumerate(logs):
        for event in events:
            data = event["data"]
            if event["type"] == "round_started" and seat in data.get("hidden", []):
                assert "hand" not in data, "a seat that may bid blind is dealt its hand unseen"
            if event["type"] in ("hand_shown", "cards_passed"):
                assert bool(private_cards(event)) == (seat == data["seat"]), event
            if seat == 4:  # the spectator
                assert not private_cards(event), event
    assert any(e["type"] == "exchange_done" for e in logs[0])
    assert any(e["type"] == "bid" and e["data"].get("blind") for e in logs[0])


@pytest.mark.integration
@pytest.mark.parametrize(
    ("rules", "named"),
    [
        ({"preset": "individual", "suicide": True}, ["rules.suicide", "rules.scoring"]),
        ({"preset": "blind_nil_passing", "nil": False}, ["rules.blind_nil", "rules.nil"]),
    ],
)
def test_a_combination_that_makes_no_sense_is_a_422_naming_both_options(api_server, rules, named):
    session = ContractSession(api_server)
    response = session.post("/v1/games", json={"rules": rules})
    assert response.status_code == 422
    problem = response.json()
    assert problem["code"] == "invalid_rules"
    assert [e["field"] for e in problem["errors"]] == named


@pytest.mark.integration
def test_the_rules_catalogue_lists_the_house_rules_and_presets(api_server):
    catalogue = ContractSession(api_server).get("/v1/rules").json()
    options = {o["name"]: o for o in catalogue["options"]}
    assert options["nil_pass_cards"]["minimum"] == 0 and options["nil_pass_cards"]["maximum"] == 3
    assert options["jokers"]["default"] is False
    assert {"jokers_deuces_high", "blind_nil_passing", "suicide_partners", "house"} <= set(catalogue["presets"])
    assert catalogue["presets"]["house"]["jokers"] is True
    assert set(catalogue["preset_descriptions"]) == set(catalogue["presets"])
