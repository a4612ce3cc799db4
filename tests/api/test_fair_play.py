"""Fair play in rated games over HTTP, on gunicorn with Redis and SQLite: each way an outside review farmed, dodged or
had a computer earn a rating, sent as an attacker would, and what the service answers now.  Every response is
checked against openapi.yaml.  Each client is its own loopback address (``testkit.http_clients.from_address``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine

from services.api.ratings.watch import raise_flag
from services.api.records.database import SQLITE_FILE, make_engine
from services.api.records.schema import pairing_bans
from services.ratings.watch import BOOSTING
from testkit.http_clients import from_address

from .contract import ContractSession

pytestmark = pytest.mark.integration
OPERATOR_TOKEN = "operator-secret-for-tests"
RATED_TABLE = {"public": True, "hints": False, "clock": "normal", "ai_takeover": "expert"}
ONE_ROUND = {"preset": "partnership", "win_score": 1}


@pytest.fixture
def base(gunicorn_factory, private_redis_url, tmp_path) -> Iterator[str]:
    """A server with the default length of a rated game (RATED_MIN_WIN_SCORE 500) and no AI worker (the API
    plays basic's move for a computer after one short deadline)."""
    env = {
        "DATA_DIR": str(tmp_path),
        "RATED_MIN_WIN_SCORE": "500",
        "PLAYER_CREATE_RATE_LIMIT": "",
        "AI_MAX_ATTEMPTS": "1",
        "AI_DECISION_DEADLINE_SECONDS": "0.2",
        "AI_SWEEP_INTERVAL_SECONDS": "0.1",
        "RECORDS_DRAIN_INTERVAL_SECONDS": "0.2",
        "OPERATOR_TOKEN": OPERATOR_TOKEN,
    }
    yield gunicorn_factory(env, redis=private_redis_url)


@pytest.fixture
def records(base, tmp_path) -> Iterator[Engine]:
    """The server's records database (SQLite in its DATA_DIR, migrated by its first request for a player)."""
    engine = make_engine(f"sqlite:///{tmp_path}/{SQLITE_FILE}")
    yield engine
    engine.dispose()


def client(base: str, n: int) -> ContractSession:
    """The n-th client: its own address (127.0.0.n)."""
    return from_address(ContractSession(base), f"127.0.0.{n}")  # type: ignore[return-value]


def player(session: ContractSession, name: str) -> str:
    made = session.post("/v1/players", json={"name": name})
    assert made.status_code == 201, made.text
    return made.json()["token"]


def code(response: Any) -> str:
    return response.json()["code"]


def seat_auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def rated_table(base: str, ai_takeover: str = "expert") -> tuple[str, dict[int, str], dict[int, str]]:
    """A public table under a clock, hints off, to 500: its creator on seat 0, three strangers (each its own
    client and player) on the others.  The game id, each seat's token and each seat's player token."""
    creator = client(base, 10)
    players = {0: player(creator, "Rated Zero")}
    options = {**RATED_TABLE, "ai_takeover": ai_takeover}
    body = {"seats": [{"type": "human", "player": True}] + [{"type": "open"}] * 3, "options": options}
    created = creator.post("/v1/games", json=body, headers={"Player-Token": players[0]})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["game_id"], {0: created.json()["seats"][0]["token"]}
    for seat in (1, 2, 3):
        stranger = client(base, 10 + seat)
        players[seat] = player(stranger, f"Rated {('One', 'Two', 'Three')[seat - 1]}")
        claimed = stranger.post(f"/v1/games/{game_id}/seats/{seat}/claim", headers={"Player-Token": players[seat]})
        assert claimed.status_code == 200, claimed.text
        tokens[seat] = claimed.json()["token"]
    return game_id, tokens, players


def view(session: ContractSession, game_id: str) -> dict[str, Any]:
    return session.get(f"/v1/games/{game_id}").json()


def move_once(session: ContractSession, game_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The seat to move (one of ``tokens``) makes its first legal move; the view after it."""
    state = view(session, game_id)
    turn = state["turn"]
    mine = session.get(f"/v1/games/{game_id}", headers=seat_auth(tokens[turn])).json()
    legal = mine["legal"][0]
    path, body = ("bids", {"bid": legal}) if mine["phase"] == "bidding" else ("plays", {"card": legal})
    moved = session.post(f"/v1/games/{game_id}/{path}", json=body, headers=seat_auth(tokens[turn]))
    assert moved.status_code == 200, moved.text
    return moved.json()


def until_first_card(session: ContractSession, game_id: str, tokens: dict[int, str]) -> None:
    while not view(session, game_id)["trick"]:
        move_once(session, game_id, tokens)


def test_four_puppets_of_one_client_in_one_quick_match_make_no_rated_game(base):
    """One client, four players, four quick-match requests: one game of its four seats, which does not count —
    not at one round, nor at full length (one client on two seats is one person playing both)."""
    puppeteer = client(base, 20)
    for rules, reason in ((ONE_ROUND, None), ({"preset": "partnership"}, "shared_client")):
        puppets = [player(puppeteer, f"Puppet {rules.get('win_score', 500)} {n}") for n in range(4)]
        body = {"rules": rules, "clock": "normal", "max_wait_seconds": 60}
        asked = [puppeteer.post("/v1/matches", json=body, headers={"Player-Token": p}).json() for p in puppets]
        seated = [
            puppeteer.get(f"/v1/matches/{m['match_id']}", params={"wait": 10}, headers=seat_auth(m["secret"])).json()
            for m in asked
        ]
        assert {m["status"] for m in seated} == {"seated"} and len({m["game_id"] for m in seated}) == 1
        game = view(puppeteer, seated[0]["game_id"])
        assert game["options"]["hints"] is False, "a quick match has no engine help"
        if reason is None:
            assert "fair_play" not in game, "a one-round game is not made to count"
        else:
            assert game["fair_play"] == {
                "counts": False,
                "reason": reason,
                "forfeits": [],
                "timed_out": [],
                "aborted_by": None,
            }


def test_one_client_filling_a_public_tables_open_seats_makes_it_stop_counting(base):
    creator = client(base, 30)
    body = {"seats": [{"type": "human", "player": True}] + [{"type": "open"}] * 3, "options": RATED_TABLE}
    created = creator.post("/v1/games", json=body, headers={"Player-Token": player(creator, "Table Maker")}).json()
    game_id = created["game_id"]
    assert view(creator, game_id)["fair_play"] == {
        "counts": True,
        "reason": None,
        "forfeits": [],
        "timed_out": [],
        "aborted_by": None,
    }
    puppet = player(creator, "Table Puppet")
    claimed = creator.post(f"/v1/games/{game_id}/seats/1/claim", headers={"Player-Token": puppet})
    assert claimed.status_code == 200
    assert claimed.json()["state"]["fair_play"] == {
        "counts": False,
        "reason": "shared_client",
        "forfeits": [],
        "timed_out": [],
        "aborted_by": None,
    }


def test_leaving_a_rated_game_is_a_forfeit_and_only_the_players_own_token_takes_the_seat_back(base):
    game_id, tokens, players = rated_table(base)
    session = client(base, 40)
    until_first_card(session, game_id, tokens)
    left = session.post(f"/v1/games/{game_id}/seats/1/leave", headers=seat_auth(tokens[1]))
    assert left.status_code == 200, left.text
    state = view(session, game_id)
    assert state["fair_play"] == {"counts": True, "reason": None, "forfeits": [1], "timed_out": [], "aborted_by": None}
    assert (state["seats"][1]["type"], state["seats"][1]["level"]) == ("ai", "standard"), "the server's stand-in"
    assert code(session.post(f"/v1/games/{game_id}/seats/1/claim")) == "seat_kept", "no token"
    other = session.post(f"/v1/games/{game_id}/seats/1/claim", headers={"Player-Token": player(session, "Someone")})
    assert other.status_code == 409 and code(other) == "seat_kept", "another player's token"
    back = client(base, 11).post(f"/v1/games/{game_id}/seats/1/claim", headers={"Player-Token": players[1]})
    assert back.status_code == 200, back.text
    assert back.json()["state"]["fair_play"]["forfeits"] == [1], "leaving was the loss"


def test_leaving_at_once_with_an_expert_takeover_aborts_the_rated_game(base):
    """Before the first card a leave is an abort: the game no longer counts, so no stand-in earns anyone's
    rating; the stand-in is the server's level, not the creator's expert."""
    game_id, tokens, _ = rated_table(base, ai_takeover="expert")
    session = client(base, 50)
    left = session.post(f"/v1/games/{game_id}/seats/2/leave", headers=seat_auth(tokens[2]))
    assert left.status_code == 200, left.text
    state = view(session, game_id)
    assert state["fair_play"] == {
        "counts": False,
        "reason": "aborted",
        "forfeits": [],
        "timed_out": [],
        "aborted_by": 2,
    }
    assert state["seats"][2]["level"] == "standard"


def test_a_person_who_leaves_a_game_against_the_computers_at_once_is_not_rated_by_their_stand_in(base):
    solo = client(base, 60)
    token = player(solo, "Solo Leaver")
    seats = [{"type": "human", "player": True}] + [{"type": "ai", "level": "easy"}] * 3
    body = {"rules": {"preset": "partnership", "win_score": 500}, "seats": seats, "options": RATED_TABLE}
    created = solo.post("/v1/games", json=body, headers={"Player-Token": token}).json()
    game_id = created["game_id"]
    assert view(solo, game_id)["fair_play"]["counts"] is True, "one person against the computers, no hints"
    left = solo.post(f"/v1/games/{game_id}/seats/0/leave", headers=seat_auth(created["seats"][0]["token"]))
    assert left.json()["fair_play"] == {
        "counts": False,
        "reason": "aborted",
        "forfeits": [],
        "timed_out": [],
        "aborted_by": 0,
    }


def test_no_hint_nor_round_review_in_a_rated_game(base):
    game_id, tokens, _ = rated_table(base)
    session = client(base, 70)
    turn = view(session, game_id)["turn"]
    hint = session.get(f"/v1/games/{game_id}/hint", headers=seat_auth(tokens[turn]))
    assert (hint.status_code, code(hint)) == (409, "rated_game")
    review = session.get(f"/v1/games/{game_id}/rounds/1/review", headers=seat_auth(tokens[turn]))
    assert (review.status_code, code(review)) == (409, "rated_game")


def player_id(session: ContractSession, token: str) -> str:
    return session.get("/v1/players/me", headers={"Player-Token": token}).json()["id"]


def test_a_player_banned_from_pairing_is_refused_a_quick_match_and_a_public_seat_until_the_ban_ends(base, records):
    banned = client(base, 80)
    token = player(banned, "Banned Leaver")
    me = banned.get("/v1/players/me", headers={"Player-Token": token}).json()
    assert me["pairing_ban"] is None
    ends = 4_102_444_800_000  # 2100-01-01: a ban long enough for any test run
    with records.begin() as connection:
        connection.execute(pairing_bans.insert().values(player_id=me["id"], started_ms=1, ends_ms=ends))
    asked = banned.post("/v1/matches", json={"clock": "normal"}, headers={"Player-Token": token})
    assert (asked.status_code, code(asked)) == (409, "pairing_banned")
    assert asked.json()["ends_at"].startswith("2100-01-01") and int(asked.headers["Retry-After"]) > 0
    assert (
        banned.get("/v1/players/me", headers={"Player-Token": token})
        .json()["pairing_ban"]["ends_at"]
        .startswith("2100-01-01")
    )
    creator = client(base, 81)
    body = {"seats": [{"type": "human"}] + [{"type": "open"}] * 3, "options": RATED_TABLE}
    game_id = creator.post("/v1/games", json=body).json()["game_id"]
    claimed = banned.post(f"/v1/games/{game_id}/seats/1/claim", headers={"Player-Token": token})
    assert (claimed.status_code, code(claimed)) == (409, "pairing_banned")
    friends = creator.post("/v1/games", json={**body, "options": {**RATED_TABLE, "public": False}}).json()
    at_friends = banned.post(f"/v1/games/{friends['game_id']}/seats/1/claim", headers={"Player-Token": token})
    assert at_friends.status_code == 200, "friends' tables stay open"


def test_only_the_operator_token_lists_and_decides_flags_and_a_flag_is_decided_once(base, records):
    session = client(base, 90)
    token = player(session, "Flagged Booster")
    flagged = player_id(session, token)
    with records.begin() as connection:
        flag_id = raise_flag(connection, flagged, BOOSTING, ["g_unknown"], {"loser": "p_x"}, 1)
    assert code(session.get("/v1/operator/flags")) == "unauthorized", "no token"
    for headers in ({"Authorization": f"Bearer {token}"}, {"Authorization": "Bearer operator-secret-for-test"}):
        refused = session.get("/v1/operator/flags", headers=headers)
        assert (refused.status_code, code(refused)) == (403, "operator_only")
    operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    listed = session.get("/v1/operator/flags", headers=operator)
    assert listed.status_code == 200, listed.text
    flag = next(f for f in listed.json()["flags"] if f["id"] == flag_id)
    assert (flag["player"], flag["kind"], flag["status"]) == (
        {"id": flagged, "name": "Flagged Booster"},
        "boosting",
        "open",
    )
    decide = f"/v1/operator/flags/{flag_id}/decision"
    by_player = session.post(decide, json={"decision": "confirm"}, headers={"Authorization": f"Bearer {token}"})
    assert by_player.status_code == 403
    shown = session.get(f"/v1/players/{flagged}", headers={"Player-Token": token}).json()["rating_hold"]
    assert shown == "review", "held while it is open, and the player is told"
    assert session.get(f"/v1/players/{flagged}").json()["rating_hold"] == "hidden", "anyone else: not why"
    confirmed = session.post(decide, json={"decision": "confirm"}, headers=operator)
    assert confirmed.status_code == 200, confirmed.text
    assert (confirmed.json()["flag"]["status"], confirmed.json()["removed_games"]) == ("confirmed", [])
    shown = session.get(f"/v1/players/{flagged}").json()
    assert (shown["rating_hold"], shown["ratings"]) == ("closed", {}), "a confirmed player shows no rating"
    board = session.get("/v1/leaderboards/partnership", headers={"Player-Token": token}).json()
    assert (board["me"], board["me_hold"]) == (None, "closed")
    asked = session.post("/v1/matches", json={"clock": "normal"}, headers={"Player-Token": token})
    assert (asked.status_code, code(asked)) == (409, "rated_play_closed"), "its games would count for nobody"
    again = session.post(decide, json={"decision": "confirm"}, headers=operator)
    assert (again.status_code, code(again)) == (409, "flag_decided")
    assert (
        session.get("/v1/operator/flags", params={"status": "confirmed"}, headers=operator).json()["flags"][0]["id"]
        == flag_id
    )
