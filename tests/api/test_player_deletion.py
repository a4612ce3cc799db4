"""Deletion is final, over HTTP (gunicorn, Redis and each records database; every response checked against
openapi.yaml): a player who deleted themselves is seated again neither by their old seat token's rematch
(``403 player_deleted``, while the others' rematch goes on without them) nor by the quick-match request they
sent before (it ends ``cancelled``, and a computer takes its seat).  The rules, on the memory store:
tests/api/games/test_seat_players.py and tests/api/lobby/test_matchmaker.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.engine import make_rules, new_game
from testkit.http_clients import planned_moves

from .contract import ContractSession
from .helpers import auth
from .test_players import as_player, code, make_player

pytestmark = pytest.mark.integration
SEED = 11
RULES = {"preset": "partnership", "win_score": 1}  # over after a round or two


@pytest.fixture(params=["sqlite", "postgresql"])
def session(request, gunicorn_factory, private_redis_url, tmp_path) -> Iterator[ContractSession]:
    if request.param == "sqlite":
        database = {"DATA_DIR": str(tmp_path)}
    else:
        database = {"RECORDS_DATABASE_URL": request.getfixturevalue("postgres_records_url")}
    env = {"AI_ENABLED": "0", "PLAYER_CREATE_RATE_LIMIT": "", "REMATCH_WAIT_SECONDS": "600", **database}
    yield ContractSession(gunicorn_factory(env, redis=private_redis_url))


def finished_game(session: ContractSession, player_token: str) -> tuple[str, list[str]]:
    """Four people, seat 0 taken as the player of ``player_token``, played to the end: the game and its tokens."""
    seats = [{"type": "human", "player": True}] + [{"type": "human"}] * 3
    body = {"rules": RULES, "seats": seats, "seed": SEED, "options": {"clock": "none"}}
    created = session.post("/v1/games", json=body, headers=as_player(player_token))
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["game_id"], [seat["token"] for seat in created.json()["seats"]]
    overrides = {k: v for k, v in RULES.items() if k != "preset"}
    for path, move, headers in planned_moves(game_id, tokens, new_game(make_rules("partnership", **overrides), SEED)):
        assert session.post(path, data=move, headers={**headers, "Content-Type": "application/json"}).ok
    return game_id, tokens


def test_a_deleted_players_old_seat_token_gets_no_seat_in_the_rematch(session: ContractSession):
    ada, ada_token = make_player(session, "Ada Gone")
    game_id, tokens = finished_game(session, ada_token)
    assert session.delete("/v1/players/me", headers=as_player(ada_token)).status_code == 204

    refused = session.post(f"/v1/games/{game_id}/rematch", headers=auth(tokens[0]))
    assert (refused.status_code, code(refused)) == (403, "player_deleted")
    assert session.get(f"/v1/games/{game_id}").json().get("rematch") is None  # nothing offered in her name

    others = session.post(f"/v1/games/{game_id}/rematch", headers=auth(tokens[1]))
    assert others.status_code == 200, others.text
    next_id = others.json()["game_id"]
    again = session.post(f"/v1/games/{game_id}/rematch", headers=auth(tokens[0]))
    assert (again.status_code, code(again)) == (403, "player_deleted")
    seat_zero = session.get(f"/v1/games/{next_id}").json()["seats"][0]
    assert (seat_zero["type"], seat_zero["player"]) == ("open", None)  # kept for its person, who never comes
    assert ada not in session.get(f"/v1/games/{next_id}").text

    _, fresh_token = make_player(session, "Ada Again")  # a new player of hers: the seat is that one's
    joined = session.post(f"/v1/games/{game_id}/rematch", headers={**auth(tokens[0]), **as_player(fresh_token)})
    assert joined.status_code == 200, joined.text
    assert joined.json()["state"]["seats"][0]["player"]["name"] == "Ada Again"


def test_a_quick_match_request_of_a_player_deleted_while_it_waits_is_never_seated(session: ContractSession):
    _, gone_token = make_player(session, "Quick Gone")
    body = {"rules": RULES, "clock": "none", "max_wait_seconds": 60, "fill_level": "easy"}
    first = session.post("/v1/matches", json=body, headers=as_player(gone_token))
    assert first.status_code == 202, first.text
    assert session.delete("/v1/players/me", headers=as_player(gone_token)).status_code == 204
    others = [session.post("/v1/matches", json=body).json() for _ in range(3)]  # the fourth forms the group

    def looked(match: dict) -> dict:
        found = session.get(f"/v1/matches/{match['match_id']}", params={"wait": 10}, headers=auth(match["secret"]))
        assert found.status_code == 200, found.text
        return found.json()

    mine = looked(first.json())
    assert (mine["status"], mine["game_id"], mine["seat"], mine["token"]) == ("cancelled", None, None, None)
    seated = [looked(match) for match in others]
    assert {m["status"] for m in seated} == {"seated"} and len({m["game_id"] for m in seated}) == 1
    view = session.get(f"/v1/games/{seated[0]['game_id']}").json()
    assert sorted(m["seat"] for m in seated) == [1, 2, 3]
    assert (view["seats"][0]["type"], view["seats"][0]["level"]) == ("ai", "easy")  # her seat: a computer's
    assert view["phase"] == "bidding"
