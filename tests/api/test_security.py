"""Security and bad input, over HTTP against real gunicorn + Redis:
hands stay private, tokens act only for their own seat of their own game,
and malformed requests get a 4xx problem+json that changes nothing."""

from __future__ import annotations

import pytest
import requests

from services.engine.cards import codes
from tests.api.helpers import stored_state

from .contract import ContractSession
from .helpers import auth, create_game, hands_visible_in

pytestmark = pytest.mark.integration


@pytest.fixture
def session(api_server):
    return ContractSession(api_server)


@pytest.fixture
def game(session):
    created = create_game(session, {"preset": "partnership", "win_score": 50}, [{"type": "human"}] * 4, seed=99)
    return created["game_id"], [s["token"] for s in created["seats"]]


def _hands(redis_db1, game_id: str) -> list[set[str]]:
    state = stored_state(redis_db1, game_id)
    return [set(codes(h)) for h in state.hands]


def _snapshot(redis_db1, game_id: str) -> tuple:
    return (
        redis_db1.hgetall(f"game:{{{game_id}}}"),
        redis_db1.xlen(f"game:{{{game_id}}}:events"),
    )


def _refused_move(session, game, redis_db1, kind: str, **post):
    """POST a move for the seat whose turn it is, assert it changed nothing, return the response."""
    game_id, tokens = game
    seat = session.get(f"/v1/games/{game_id}").json()["turn"]
    before = _snapshot(redis_db1, game_id)
    headers = {**auth(tokens[seat]), **post.pop("headers", {})}
    response = session.post(f"/v1/games/{game_id}/{kind}", headers=headers, **post)
    assert _snapshot(redis_db1, game_id) == before
    return response


def _play_a_few(session, game_id, tokens, count):
    for _ in range(count):
        spectator = session.get(f"/v1/games/{game_id}").json()
        seat = spectator["turn"]
        mine = session.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()
        if mine["phase"] == "bidding":
            kind, body = "bids", {"bid": next(b for b in mine["legal"] if b >= 1)}
        else:
            kind, body = "plays", {"card": mine["legal"][0]}
        assert session.post(f"/v1/games/{game_id}/{kind}", json=body, headers=auth(tokens[seat])).status_code == 200


def test_a_token_sees_only_its_own_hand_everywhere(session, game, redis_db1):
    game_id, tokens = game
    _play_a_few(session, game_id, tokens, 6)  # bidding done, two cards into the first trick
    hands = _hands(redis_db1, game_id)
    for seat, token in enumerate(tokens):
        others = set().union(*(hands[s] for s in range(4) if s != seat))
        view = session.get(f"/v1/games/{game_id}", headers=auth(token)).json()
        assert set(view["hand"]) == hands[seat]
        assert not hands_visible_in(view) & others
        played_by_me = {c["card"] for c in view["trick"] if c["seat"] == seat}
        events = session.get(f"/v1/games/{game_id}/events", headers=auth(token)).json()
        assert hands_visible_in(events) == hands[seat] | played_by_me  # the dealt hand, nothing else
        assert not hands_visible_in(events) & others
    spectator = session.get(f"/v1/games/{game_id}").json()
    assert spectator["hand"] is None and spectator["you"] is None and spectator["legal"] == []
    assert hands_visible_in(session.get(f"/v1/games/{game_id}/events").json()) == set()


def test_a_token_cannot_act_for_another_seat(session, game, redis_db1):
    game_id, tokens = game
    seat = session.get(f"/v1/games/{game_id}").json()["turn"]
    other = (seat + 1) % 4
    before = _snapshot(redis_db1, game_id)
    response = session.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[other]))
    assert response.status_code == 409 and response.json()["code"] == "not_your_turn"
    leave = session.post(f"/v1/games/{game_id}/seats/{seat}/leave", headers=auth(tokens[other]))
    assert leave.status_code == 403 and leave.json()["code"] == "forbidden"
    assert _snapshot(redis_db1, game_id) == before


def test_a_token_is_useless_in_another_game(session, game, redis_db1):
    _, tokens = game
    other_id = create_game(session, seats=[{"type": "human"}] * 4, seed=5)["game_id"]
    other_turn = session.get(f"/v1/games/{other_id}").json()["turn"]
    before = _snapshot(redis_db1, other_id)
    for token in tokens:
        assert session.get(f"/v1/games/{other_id}", headers=auth(token)).status_code == 401
        response = session.post(f"/v1/games/{other_id}/bids", json={"bid": 3}, headers=auth(token))
        assert response.status_code == 401 and response.json()["code"] == "unauthorized"
        assert session.get(f"/v1/games/{other_id}/events", headers=auth(token)).status_code == 401
        leave = session.post(f"/v1/games/{other_id}/seats/{other_turn}/leave", headers=auth(token))
        assert leave.status_code == 401
    assert _snapshot(redis_db1, other_id) == before


def test_a_left_seats_token_stops_working(session):
    body = {
        "rules": {"preset": "partnership", "win_score": 50},
        "seats": [{"type": "human"}] * 4,
        "seed": 99,
        "options": {"ai_takeover": None},  # the seat stays open: the game waits
    }
    created = session.post("/v1/games", json=body).json()
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    assert session.post(f"/v1/games/{game_id}/seats/2/leave", headers=auth(tokens[2])).status_code == 200
    assert session.get(f"/v1/games/{game_id}", headers=auth(tokens[2])).status_code == 401
    waiting = session.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json()
    assert waiting["phase"] == "waiting" and waiting["seats"][2]["type"] == "open"
    turn = session.get(f"/v1/games/{game_id}").json()["turn"]
    assert turn is None
    blocked = session.post(f"/v1/games/{game_id}/bids", json={"bid": 2}, headers=auth(tokens[1]))
    assert blocked.status_code == 409 and blocked.json()["code"] == "waiting_for_players"
    claimed = session.post(f"/v1/games/{game_id}/seats/2/claim")
    assert claimed.status_code == 200
    assert claimed.json()["state"]["phase"] == "bidding"
    assert session.post(f"/v1/games/{game_id}/seats/2/claim").json()["code"] == "seat_taken"


def test_tokens_are_stored_only_as_hashes(session, game, redis_db1):
    game_id, tokens = game
    stored = b"".join(redis_db1.hgetall(f"game:{{{game_id}}}").values())
    assert len(tokens[0]) >= 43  # 256 bits, URL-safe base64
    for token in tokens:
        assert token.encode() not in stored


BAD_BIDS = [
    ({"bid": "3"}, "bid"),
    ({"bid": 3.5}, "bid"),
    ({"bid": True}, "bid"),
    ({"bid": 10**30}, "bid"),
    ({"bid": -1}, "bid"),
    ({"bid": 14}, "bid"),
    ({"bid": None}, "bid"),
    ({}, "bid"),
    ({"bid": 3, "extra": 1}, "extra"),
]
BAD_PLAYS = [
    ({"card": "ZZ"}, "card"),
    ({"card": "qs"}, "card"),
    ({"card": "10S"}, "card"),
    ({"card": 51}, "card"),
    ({"card": ["QS"]}, "card"),
    ({"card": "QS" * 10000}, None),  # oversized: 413
]


@pytest.mark.parametrize(("body", "field"), BAD_BIDS)
def test_bad_bid_bodies_are_400(session, game, redis_db1, body, field):
    response = _refused_move(session, game, redis_db1, "bids", json=body)
    assert response.status_code == 400
    assert response.headers["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == "invalid_request"
    assert field in [e["field"] for e in problem["errors"]]


@pytest.mark.parametrize(("body", "field"), BAD_PLAYS)
def test_bad_play_bodies_are_4xx(session, game, redis_db1, body, field):
    response = _refused_move(session, game, redis_db1, "plays", json=body)
    assert response.headers["Content-Type"] == "application/problem+json"
    if field is None:
        assert response.status_code == 413 and response.json()["code"] == "payload_too_large"
    else:
        assert response.status_code == 400
        assert field in [e["field"] for e in response.json()["errors"]]


RAW_BODIES = [
    ("application/json", b"{not json", 400),
    ("application/json", b"[1, 2]", 400),
    ("application/json", b'"bid"', 400),
    ("application/json", b"\xff\xfe\x00", 400),
    ("application/json", b'{"bid": 1e400}', 400),
    ("application/json", b"[" * 5000 + b"]" * 5000, 400),
    ("text/plain", b'{"bid": 3}', 415),
    ("application/x-www-form-urlencoded", b"bid=3", 415),
    ("application/json", b" " * 20000, 413),
]


@pytest.mark.parametrize(("content_type", "raw", "status"), RAW_BODIES)
def test_malformed_bodies_never_500(session, game, redis_db1, content_type, raw, status):
    response = _refused_move(session, game, redis_db1, "bids", data=raw, headers={"Content-Type": content_type})
    assert response.status_code == status
    assert response.headers["Content-Type"] == "application/problem+json"
    assert {"type", "title", "status", "detail", "code"} <= set(response.json())


BAD_CREATES = [
    ({"rules": {"preset": "bridge"}}, "rules.preset"),
    ({"rules": {"win_score": "500"}}, "rules.win_score"),
    ({"rules": {"win_score": 10**20}}, "rules.win_score"),
    ({"rules": {"nil": "yes"}}, "rules.nil"),
    ({"rules": {"lose_score": 600}}, "rules.lose_score"),  # at most 0, so below win_score
    ({"rules": {"nil": False, "min_team_bid": 0, "max_team_bid": 1}}, "rules.max_team_bid"),  # no legal first bid
    ({"rules": {"preset": "individual", "min_team_bid": 4}}, "rules.min_team_bid"),
    ({"rules": {"colour": "red"}}, "rules.colour"),
    ({"seats": [{"type": "human"}] * 3}, "seats"),
    ({"seats": [{"type": "robot"}] * 4}, "seats.0.type"),
    ({"seats": [{"type": "ai", "level": "genius"}] + [{"type": "human"}] * 3}, "seats.0.level"),
    ({"seats": [{"type": "human", "level": "pro"}] + [{"type": "human"}] * 3}, "seats.0.level"),
    ({"seed": -1}, "seed"),
    ({"seed": 2**64}, "seed"),
    ({"options": {"ai_takeover": "boss"}}, "options.ai_takeover"),
    ({"game_id": "mine"}, "game_id"),
]


def _game_records(redis_db1) -> set[bytes]:
    """Every stored game's record key (``game:{id}``); AI games of earlier tests may still
    be playing and writing task results, so the whole database's size is no measure."""
    return set(redis_db1.scan_iter(match="game:{*}", count=1000))


@pytest.mark.parametrize(("body", "field"), BAD_CREATES)
def test_bad_create_bodies_are_400_naming_the_field(session, redis_db1, body, field):
    games_before = _game_records(redis_db1)
    response = session.post("/v1/games", json=body)
    assert response.status_code == 400, response.text
    assert response.headers["Content-Type"] == "application/problem+json"
    assert field in [e["field"] for e in response.json()["errors"]]
    assert _game_records(redis_db1) == games_before


def test_illegal_move_is_422_with_engine_reason(session, game, redis_db1):
    game_id, tokens = game
    _play_a_few(session, game_id, tokens, 4)
    seat = session.get(f"/v1/games/{game_id}").json()["turn"]
    mine = session.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()
    before = _snapshot(redis_db1, game_id)
    not_held = next(c for c in ("AS", "KS", "QS", "JS", "2C", "3C") if c not in mine["hand"])
    response = session.post(f"/v1/games/{game_id}/plays", json={"card": not_held}, headers=auth(tokens[seat]))
    assert response.status_code == 422
    assert response.json()["code"] == "illegal_move" and response.json()["reason"] == "card_not_in_hand"
    spades = [c for c in mine["hand"] if c.endswith("S")]
    if spades and len(spades) < len(mine["hand"]):
        lead = session.post(f"/v1/games/{game_id}/plays", json={"card": spades[0]}, headers=auth(tokens[seat]))
        assert lead.json()["reason"] == "spades_not_broken"
    wrong_phase = session.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[seat]))
    assert wrong_phase.status_code == 422 and wrong_phase.json()["reason"] == "wrong_phase"
    assert _snapshot(redis_db1, game_id) == before


def test_auth_header_variants_are_401(session, game):
    game_id, _ = game
    for header in ("Bearer", "Basic abc", "Bearer " + "x" * 300, "Token abc"):
        response = session.get(f"/v1/games/{game_id}", headers={"Authorization": header})
        assert response.status_code == 401 and response.json()["code"] == "unauthorized"
        assert "Bearer" in response.headers["WWW-Authenticate"]
    missing = session.post(f"/v1/games/{game_id}/bids", json={"bid": 3})
    assert missing.status_code == 401


def test_unknown_games_and_seats_are_404(session, game):
    game_id, _ = game
    assert session.get("/v1/games/not-a-game").json()["code"] == "not_found"
    assert session.get("/v1/games/" + "x" * 70).status_code == 404
    assert session.post(f"/v1/games/{game_id}/seats/7/claim").status_code == 404
    assert session.post(f"/v1/games/{game_id}/seats/-1/claim").status_code == 404
    assert session.get("/v1/games/nope/events").status_code == 404


def test_bad_event_queries_are_400(session, game):
    game_id, _ = game
    for params in ({"after": "x"}, {"wait": 31}, {"after": -1}, {"wait": "soon"}, {"after": 10**30}):
        response = session.get(f"/v1/games/{game_id}/events", params=params)
        assert response.status_code == 400, params
        assert response.json()["code"] == "invalid_request"


def test_bad_if_match_and_idempotency_key(session, game):
    game_id, tokens = game
    seat = session.get(f"/v1/games/{game_id}").json()["turn"]
    bad = session.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers={**auth(tokens[seat]), "If-Match": "abc"})
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "If-Match"
    stale = session.post(
        f"/v1/games/{game_id}/bids", json={"bid": 3}, headers={**auth(tokens[seat]), "If-Match": '"999"'}
    )
    assert stale.status_code == 412 and stale.json()["code"] == "version_conflict"


def test_wrong_method_is_405_problem(api_server):
    response = requests.delete(f"{api_server}/v1/games", timeout=10)
    assert response.status_code == 405
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "method_not_allowed"
