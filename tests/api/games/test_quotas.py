"""Games each creator keeps in play (services.api.games.quotas) on the in-memory store: the command logic,
no Redis.  The same holds on Redis and over HTTP: tests/api/http/test_quotas.py."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.quotas import RETRY_AFTER_SECONDS, Quotas, creator_ids
from services.api.games.record import GameRecord
from services.api.games.record_schedule import RecordSchedule
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryBackend, MemoryStore
from testkit import ending_play

HUMANS = [{"type": "human"}] * 4
COMPUTERS = [{"type": "ai", "level": "basic"}] * 4
ONE_ROUND = {"preset": "partnership", "win_score": 1, "lose_score": -1}
ALICE, BOB = creator_ids("192.0.2.1", None), creator_ids("192.0.2.2", None)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def world(games: int = 2, computer: int = 1, hold_seconds: int = 3600) -> tuple[Collaborators, Clock]:
    clock = Clock()
    quotas = Quotas(games_in_play=games, computer_games=computer, hold_seconds=hold_seconds, clock=clock)
    return Collaborators(MemoryStore(GameRecord.from_stored, MemoryBackend()), quotas=quotas), clock


def create(ctx: Collaborators, creators: tuple[str, ...], seats: list[dict] = HUMANS) -> dict[str, Any]:
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats, "rules": ONE_ROUND})
    return commands.create_game(ctx, body, creators)


def refusal(ctx: Collaborators, creators: tuple[str, ...], seats: list[dict] = HUMANS) -> ApiError:
    with pytest.raises(ApiError) as error:
        create(ctx, creators, seats)
    return error.value


def play_to_the_end(ctx: Collaborators, created: dict[str, Any]) -> None:
    """The game ``created`` played to its end by its four people (:mod:`testkit.ending_play`)."""
    ending_play.play_to_the_end(ctx, created["game_id"], [s["token"] for s in created["seats"]])


def test_a_creator_at_its_limit_of_games_in_play_gets_a_429_and_others_do_not():
    ctx, _ = world(games=2)
    create(ctx, ALICE)
    create(ctx, ALICE)
    refused = refusal(ctx, ALICE)
    assert (refused.status, refused.code, refused.retry_after) == (429, "too_many_games", RETRY_AFTER_SECONDS)
    assert refused.extra == {"limit": 2}
    create(ctx, BOB)  # each creator has its own count
    assert len(ctx.store.backend.games) == 3, "the refused game was never stored"


def test_computer_only_games_have_their_own_lower_limit():
    ctx, _ = world(games=3, computer=1)
    create(ctx, ALICE, COMPUTERS)
    assert refusal(ctx, ALICE, COMPUTERS).code == "too_many_computer_games"
    create(ctx, ALICE, [{"type": "human"}] + COMPUTERS[1:])  # a person sits in it: only the first limit counts
    create(ctx, ALICE)
    assert refusal(ctx, ALICE).code == "too_many_games"


def test_a_seat_token_is_a_creator_of_its_own_across_addresses():
    ctx, _ = world(games=2)
    token = "a-seat-token-of-an-earlier-game"
    create(ctx, creator_ids("192.0.2.1", token))
    create(ctx, creator_ids("192.0.2.2", token))
    other_address_same_token = creator_ids("192.0.2.3", token)
    assert refusal(ctx, other_address_same_token).code == "too_many_games"
    # the address's hold made before the token's refusal was given back: that address still has room for 2
    address_only = creator_ids("192.0.2.3", None)
    create(ctx, address_only)
    create(ctx, address_only)
    assert refusal(ctx, address_only).code == "too_many_games"


def test_a_game_that_ends_frees_its_place_for_every_creator():
    ctx, _ = world(games=1)
    creators = creator_ids("192.0.2.1", "token")
    first = create(ctx, creators)
    assert refusal(ctx, creators).code == "too_many_games"
    play_to_the_end(ctx, first)
    create(ctx, creators)


def test_a_hold_ends_with_the_games_expiry_at_creation():
    ctx, clock = world(games=1, hold_seconds=600)
    create(ctx, ALICE)
    clock.now += 599
    assert refusal(ctx, ALICE).code == "too_many_games"
    clock.now += 2  # the game would have expired unplayed by now: its place is free
    create(ctx, ALICE)


def test_creators_are_stored_hashed_never_in_clear():
    ctx, _ = world()
    token = "tok-" + "x" * 40
    created = create(ctx, creator_ids("198.51.100.7", token))
    meta = ctx.store.backend.games[created["game_id"]][1]
    assert "198.51.100.7" not in meta and token not in meta
    assert ctx.store.load(created["game_id"]).creators == creator_ids("198.51.100.7", token)
    assert creator_ids("198.51.100.7", None) != creator_ids("198.51.100.8", None)


def test_without_quotas_nothing_is_held_or_stored():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    for _ in range(5):
        create(ctx, ())
    assert not ctx.store.backend.holds


class LosingStore(MemoryStore):
    """A store whose creates all collide with an existing id."""

    def commit(self, record: Any, expected: Any, events: list, idempotent: Any = None) -> bool:
        return False


def test_a_creation_that_fails_gives_its_holds_back():
    quotas = Quotas(games_in_play=1, computer_games=1)
    ctx = Collaborators(LosingStore(GameRecord.from_stored), quotas=quotas)
    for _ in range(3):
        assert refusal(ctx, ALICE).code == "unavailable"
    assert not any(ctx.store.backend.holds.values())


class LedgerDown:
    """Commit hooks whose registration of the first computer turn the store refuses (a master failing over)."""

    def before_commit(self, record: Any) -> None:
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:7101. Connection refused.")

    def after_commit(self, record: Any, read: bool = False) -> None:
        raise AssertionError("nothing was committed")


class OutboxDown(MemoryStore):
    """A store whose records outbox refuses the new game's entry (its shard's master failing over)."""

    def schedule_record(self, game_id: str, due: float) -> None:
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:7102. Connection refused.")


@pytest.mark.parametrize("failing", ["turn timers", "records outbox"])
def test_a_creation_refused_before_its_commit_gives_its_holds_back(failing: str):
    quotas = Quotas(games_in_play=1, computer_games=1)
    if failing == "turn timers":
        ctx = Collaborators(MemoryStore(GameRecord.from_stored), ai=LedgerDown(), quotas=quotas)
    else:
        ctx = Collaborators(OutboxDown(GameRecord.from_stored), quotas=quotas, records=RecordSchedule(game_ttl=86_400))
    for _ in range(3):
        with pytest.raises(redis.ConnectionError):
            create(ctx, ALICE)
    assert not any(ctx.store.backend.holds.values()) and ctx.store.backend.games == {}
