"""Rated games played through the API alone (no page), so that the players' pages have more than one
game and one player to show: each player made with ``POST /v1/players`` sits South (its seat bound with
``Player-Token``) against three computers in a short game and makes random legal moves until it ends.
Every step waits on the game's view (a poll with a deadline), never on a sleep's length.

A few games leave every rating provisional (off the leaderboards), and thirty are too long for a browser test:
:func:`season` writes a rating of many games straight into the records database the tests' servers share, so a
leaderboard has someone on it."""

from __future__ import annotations

import random
import secrets
import time

import requests
from sqlalchemy import Engine, text

from services.api.config import load_config
from services.api.ratings.recount import recount
from services.api.records.database import database_url, make_engine

DEADLINE = 300.0  # seconds a whole game may take on a busy machine


def make_player(base: str, name: str) -> dict:
    """A new person called ``name`` (with a few letters more if a test before took it): {player, token}."""
    answer = requests.post(f"{base}/v1/players", json={"name": name, "kind": "person"}, timeout=30)
    if answer.status_code == 409:
        answer = requests.post(f"{base}/v1/players", json={"name": f"{name} {secrets.token_hex(2)}"}, timeout=30)
    assert answer.status_code == 201, answer.text
    return answer.json()


def credential_state(base: str, token: str) -> str:
    """What the server says of ``token`` now (``GET /v1/players/me``): a failure's message, when a page that held
    the player shows it no longer does."""
    answer = requests.get(f"{base}/v1/players/me", headers={"Player-Token": token}, timeout=30)
    return f"GET /v1/players/me: {answer.status_code} {answer.text[:300]}"


def play_rated_game(base: str, player_token: str, rng: random.Random, partner: str = "easy") -> str:
    """A game to 50 with a computer partner of level ``partner`` against two easy computers, played to its
    end (bids near 3, never nil; cards at random); its id."""
    created = requests.post(
        f"{base}/v1/games",
        json={
            "rules": {"preset": "partnership", "win_score": 50, "lose_score": -50},
            "seats": [{"type": "human", "player": True}]
            + [{"type": "ai", "level": level} for level in ("easy", partner, "easy")],
            "options": {"hints": False},  # rated: no engine help
        },
        headers={"Player-Token": player_token},
        timeout=30,
    )
    assert created.status_code == 201, created.text
    game_id, token = created.json()["game_id"], created.json()["seats"][0]["token"]
    return play_to_end(base, game_id, {0: token}, rng)


def play_to_end(base: str, game_id: str, tokens: dict[int, str], rng: random.Random) -> str:
    """The game played to its end by these seats (seat -> token; the computers play the others): bids near 3,
    never nil, cards at random; its id."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        views = {
            seat: requests.get(f"{base}/v1/games/{game_id}", headers=bearer(t), timeout=30).json()
            for seat, t in tokens.items()
        }
        if any(view["phase"] == "game_over" for view in views.values()):
            return game_id
        mine = [(seat, view) for seat, view in views.items() if view["turn"] == view["you"] and view["legal"]]
        if not mine:
            time.sleep(0.05)  # a poll: the computers are moving
            continue
        seat, view = mine[0]
        if view["phase"] == "bidding":
            kind, body = "bids", {"bid": min((b for b in view["legal"] if b), key=lambda b: abs(b - 3))}
        else:
            kind, body = "plays", {"card": rng.choice(view["legal"])}
        headers = {**bearer(tokens[seat]), "If-Match": f'"{view["version"]}"', "Idempotency-Key": secrets.token_hex(16)}
        answer = requests.post(f"{base}/v1/games/{game_id}/{kind}", json=body, headers=headers, timeout=30)
        assert answer.status_code in (200, 409, 412), answer.text  # 409/412: the view moved on meanwhile
    raise AssertionError(f"game {game_id} did not end in {DEADLINE} s")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def rated_once(base: str, game_id: str) -> dict:
    """The game's record once its ratings are applied (the records writer rates it a moment after the end)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = requests.get(f"{base}/v1/games/{game_id}/record", timeout=30)
        if answer.status_code == 200 and answer.json().get("ratings"):
            return answer.json()
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} was not rated in 60 s")


def records_engine() -> Engine:
    """The records database of the tests' servers (they read the settings of this process's environment)."""
    return make_engine(database_url(load_config()))


def season(player_ids: list[str], board: str = "partnership", games: int = 60, sigma: float = 2.0) -> None:
    """These players' ratings on ``board`` as a seasoned player's: at least ``games`` rated games and ``sigma``
    (a rating made at mu 25 where there is none), then every flag and bucket counted again, as a server's start
    does (:func:`services.api.ratings.recount.recount`): the leaderboards list them.  Writes before it reads, so
    the SQLite file's one writer is this transaction from its first statement."""
    engine = records_engine()
    try:
        with engine.begin() as connection:
            for player in player_ids:
                values = {"id": player, "board": board, "games": games, "sigma": sigma}
                updated = connection.execute(
                    text(
                        "UPDATE player_ratings SET sigma = :sigma, score = mu - 3 * :sigma,"
                        " games = CASE WHEN games > :games THEN games ELSE :games END"
                        " WHERE player_id = :id AND board = :board"
                    ),
                    values,
                )
                if updated.rowcount == 0:
                    connection.execute(
                        text(
                            "INSERT INTO player_ratings (player_id, board, kind, mu, sigma, score, games, updated_ms,"
                            " provisional) SELECT id, :board, kind, 25.0, :sigma, 25.0 - 3 * :sigma, :games, 0, true"
                            " FROM players WHERE id = :id"
                        ),
                        values,
                    )
            recount(connection)
    finally:
        engine.dispose()
