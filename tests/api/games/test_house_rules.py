"""The house rules through the API's commands (memory store, no server): the blind decision and the
nil exchange as moves, cards read in the game's own deck, and the event log's private parts."""

from __future__ import annotations

import random
from typing import Any

import pytest

from services.api.games import commands, pipeline
from services.api.games.commands import Collaborators
from services.api.games.events import visible_event
from services.api.games.move_request import MoveRequest, computer_move
from services.api.games.record import GameRecord
from services.api.games.rendering import ViewCache
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore
from services.engine import HIGH_DEUCE_OF_SPADES, Bid, Look, Pass, Play, make_rules, mask_of

RULES = {"preset": "house", "blind_margin": 0, "win_score": 150, "lose_score": -150, "mercy_margin": None}


def create(ctx: Collaborators, rules: dict[str, Any]) -> tuple[str, list[str]]:
    body = request_schemas.CREATE_GAME_REQUEST.load({"rules": rules, "seats": [{"type": "human"}] * 4, "seed": 7})
    created = commands.create_game(ctx, body)
    return created["game_id"], [s["token"] for s in created["seats"]]


def send(ctx: Collaborators, game_id: str, token: str, kind: str, body: dict[str, Any]) -> dict[str, Any]:
    schema = {"bid": request_schemas.BID_REQUEST, "play": request_schemas.PLAY_REQUEST,
              "blind": request_schemas.BLIND_REQUEST, "pass": request_schemas.PASS_REQUEST}[kind]  # fmt: skip
    return commands.make_move(ctx, game_id, MoveRequest(token=token, kind=kind, body=schema.load(body)))


def move_for(view: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    if view.get("hand_hidden"):
        return ("blind", {"bid": 0}) if 0 in view["legal_blind"] and rng.random() < 0.5 else ("blind", {"look": True})
    if view["phase"] == "bidding":
        return "bid", {"bid": 0 if 0 in view["legal"] and rng.random() < 0.3 else max(1, min(view["legal"]))}
    if view["phase"] == "passing":
        return "pass", {"cards": view["legal"][: view["pass_count"]]}
    return "play", {"card": rng.choice(view["legal"])}


def test_a_house_rules_game_plays_through_the_commands_and_its_log_leaks_nothing():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(64))
    game_id, tokens = create(ctx, RULES)
    rng = random.Random(3)
    kinds = set()
    view = commands.game_view(pipeline.load(ctx.store, game_id), None)
    while view["phase"] != "game_over":
        seat = view["turn"]
        mine = commands.game_view(pipeline.load(ctx.store, game_id), seat)
        kind, body = move_for(mine, rng)
        view = send(ctx, game_id, tokens[seat], kind, body)
        kinds.add(kind)
    assert kinds == {"bid", "blind", "pass", "play"}
    log = ctx.store.events_after(game_id, 0, 10_000)
    for entry in log:
        shown = {seat: visible_event(entry, seat)["data"] for seat in (None, 0, 1, 2, 3)}
        if entry["type"] == "round_started":
            for seat in entry["data"].get("hidden", []):
                assert "hand" not in shown[seat]
        if entry["type"] == "cards_passed":
            assert [s for s in shown if "cards" in shown[s]] == [entry["data"]["seat"]]
        if entry["type"] in ("hand_shown", "exchange_done", "round_started"):
            assert "hand" not in shown[None]
        if entry["type"] == "hand_shown":
            assert [s for s in shown if "hand" in shown[s]] == [entry["data"]["seat"]]
    assert any(e["type"] == "exchange_done" for e in log) and any(e["data"].get("blind") for e in log)


def test_a_combination_is_a_422_naming_both_options_and_a_bad_option_a_400():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    with pytest.raises(ApiError) as error:
        create(ctx, {"preset": "individual", "nil_pass_cards": 2})
    assert (error.value.status, error.value.code) == (422, "invalid_rules")
    assert [e["field"] for e in error.value.extra["errors"]] == ["rules.nil_pass_cards", "rules.scoring"]
    with pytest.raises(ApiError) as error:
        create(ctx, {"preset": "partnership", "max_team_bid": 2})
    assert (error.value.status, error.value.code) == (400, "invalid_request")


def test_a_blind_request_is_exactly_one_decision():
    assert request_schemas.BLIND_REQUEST.load({"look": True}) == {"look": True}
    for bad in ({}, {"look": True, "bid": 0}, {"look": False}, {"bid": 14}):
        with pytest.raises(request_schemas.ValidationError):
            request_schemas.BLIND_REQUEST.load(bad)
    with pytest.raises(request_schemas.ValidationError):
        request_schemas.PASS_REQUEST.load({"cards": ["2H", "2H"]})


def test_a_computers_decisions_are_read_in_the_games_deck():
    deck = make_rules("jokers_deuces_high").deck
    assert computer_move({"card": "2S"}, deck) == Play(HIGH_DEUCE_OF_SPADES)
    assert computer_move({"look": True}, deck) == Look()
    assert computer_move({"bid": 0, "blind": True}, deck) == Bid(0, blind=True)
    assert computer_move({"pass": ["BJ", "3H"]}, deck) == Pass(mask_of([54, deck.parse("3H")]))
    with pytest.raises(ValueError):
        computer_move({"card": "2C"}, deck)  # out of the deck with jokers
