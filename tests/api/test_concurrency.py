"""Racing moves over HTTP (real gunicorn with 2 workers, real Redis): exactly one applies."""

from __future__ import annotations

import threading

import pytest
import requests

from .contract import ContractSession, check_response
from .helpers import auth, create_game

pytestmark = pytest.mark.integration
THREADS = 20


def _race(url: str, requests_to_send: list[tuple[dict, dict]]) -> list[requests.Response]:
    """POST every (json, headers) at once, released together by a barrier."""
    barrier = threading.Barrier(len(requests_to_send))
    results: list[requests.Response | None] = [None] * len(requests_to_send)

    def send(i: int, body: dict, headers: dict) -> None:
        with requests.Session() as http:
            barrier.wait()
            results[i] = http.post(url, json=body, headers=headers, timeout=60)

    threads = [threading.Thread(target=send, args=(i, b, h)) for i, (b, h) in enumerate(requests_to_send)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for response in results:
        assert response is not None
        check_response(response)
    return results  # type: ignore[return-value]


def _events(session, game_id):
    return session.get(f"/v1/games/{game_id}/events").json()["events"]


@pytest.fixture
def playing_game(api_server):
    """A game just past bidding: the first card of round 1 is next."""
    return start_playing(api_server)


def start_playing(api_server: str):
    """A game past bidding on ``api_server``: (session, game id, tokens)."""
    session = ContractSession(api_server)
    created = create_game(session, {"preset": "partnership"}, [{"type": "human"}] * 4, seed=2024)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    for _ in range(4):
        seat = session.get(f"/v1/games/{game_id}").json()["turn"]
        legal = session.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()["legal"]
        bid = next(b for b in legal if b >= 2)
        assert session.post(f"/v1/games/{game_id}/bids", json={"bid": bid}, headers=auth(tokens[seat])).ok
    return session, game_id, tokens


def test_twenty_racing_plays_apply_exactly_once(playing_game):
    session, game_id, tokens = playing_game
    before = session.get(f"/v1/games/{game_id}").json()
    seat = before["turn"]
    legal = session.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()["legal"]
    events_before = _events(session, game_id)
    # the mover sends the same card and different legal cards; other seats try too
    sends = []
    for i in range(THREADS):
        token = tokens[seat] if i % 5 else tokens[(seat + 1 + i) % 4]
        sends.append(({"card": legal[i % min(3, len(legal))]}, auth(token)))
    results = _race(f"{session.base_url}/v1/games/{game_id}/plays", sends)

    statuses = [r.status_code for r in results]
    assert statuses.count(200) == 1, statuses
    for response in results:
        if response.status_code != 200:
            assert response.status_code in (409, 422)
            assert response.json()["code"] in ("not_your_turn", "illegal_move")
    after = session.get(f"/v1/games/{game_id}").json()
    assert after["version"] == before["version"] + 1
    assert len(after["trick"]) == 1
    winner = next(r for r in results if r.status_code == 200).json()
    assert after["trick"][0] == {"seat": seat, "card": winner["trick"][0]["card"]}
    new_events = _events(session, game_id)[len(events_before) :]
    assert [e["type"] for e in new_events] == ["card_played"]
    assert new_events[0]["version"] == after["version"]


def test_racing_bids_with_if_match_apply_exactly_once(api_server):
    session = ContractSession(api_server)
    created = create_game(session, seats=[{"type": "human"}] * 4, seed=77)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    seat, version = created["state"]["turn"], created["state"]["version"]
    headers = {**auth(tokens[seat]), "If-Match": f'"{version}"'}
    sends = [({"bid": 1 + i % 4}, headers) for i in range(THREADS)]
    results = _race(f"{session.base_url}/v1/games/{game_id}/bids", sends)
    statuses = [r.status_code for r in results]
    assert statuses.count(200) == 1, statuses
    assert set(statuses) <= {200, 412}
    after = session.get(f"/v1/games/{game_id}").json()
    assert after["version"] == version + 1
    assert [e["type"] for e in _events(session, game_id)].count("bid") == 1


def test_idempotent_retries_apply_once_and_replay_the_response(api_server):
    session = ContractSession(api_server)
    created = create_game(session, seats=[{"type": "human"}] * 4, seed=78)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    seat, version = created["state"]["turn"], created["state"]["version"]
    headers = {**auth(tokens[seat]), "Idempotency-Key": "bid-round-1"}
    results = _race(f"{session.base_url}/v1/games/{game_id}/bids", [({"bid": 3}, headers)] * THREADS)
    assert {r.status_code for r in results} == {200}
    assert len({r.content for r in results}) == 1
    assert session.get(f"/v1/games/{game_id}").json()["version"] == version + 1
    retry = session.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=headers)
    assert retry.status_code == 200 and retry.content == results[0].content
    reused = session.post(f"/v1/games/{game_id}/bids", json={"bid": 4}, headers=headers)
    assert reused.status_code == 422 and reused.json()["code"] == "idempotency_key_reused"
    bids = [e for e in _events(session, game_id) if e["type"] == "bid"]
    assert len(bids) == 1 and bids[0]["data"] == {"seat": seat, "bid": 3}
