"""Unit tests of the pure helpers: tokens, config, problem details, schemas, view cache."""

from __future__ import annotations

import json

import pytest
import redis
from marshmallow import ValidationError

from services.api.ai_seats.dispatch import AiDispatcher
from services.api.config import load_config
from services.api.games.events import visible_event
from services.api.games.move_request import parse_if_match
from services.api.games.record import GameOptions, GameRecord, Seat, parse_state
from services.api.games.rendering import ViewCache, game_view, rendered_rounds, rendered_tricks
from services.api.games.seat_tokens import hash_token, new_game_id, new_token, seat_of_token
from services.api.http import request_schemas, response_schemas
from services.api.problems import ApiError, flatten_messages, problem_body
from services.api.store.redis_store import RedisStore
from services.engine import apply, legal_moves, make_rules, new_game, to_json_parts, turn, view
from tests.engine.strategies_util import play_random_game


def test_tokens_are_long_random_and_matched_by_hash_only():
    tokens = [new_token() for _ in range(4)]
    assert len(set(tokens)) == 4 and all(len(t) >= 43 for t in tokens)
    hashes = [hash_token(t) for t in tokens]
    assert [seat_of_token(t, hashes) for t in tokens] == [0, 1, 2, 3]
    assert seat_of_token(new_token(), hashes) is None
    assert seat_of_token(tokens[1], [hashes[0], None, hashes[2], hashes[3]]) is None
    assert len(new_game_id()) >= 22


def test_config_reads_environment_then_overrides():
    env = {"GAME_TTL_SECONDS": "60", "REDIS_URL": "redis://x:1/3", "MAX_CONTENT_LENGTH": ""}
    config = load_config({"EVENTS_MAX_WAIT": 5}, environ=env)
    assert config["GAME_TTL_SECONDS"] == 60
    assert config["REDIS_URL"] == "redis://x:1/3"
    assert config["MAX_CONTENT_LENGTH"] == 16 * 1024
    assert config["EVENTS_MAX_WAIT"] == 5


def test_cluster_settings_default_rate_limits_to_the_cluster_and_refuse_what_cannot_work():
    from services.api.config import ConfigError, check_config, cluster_nodes, rate_limit_storage
    from services.api.store.redis_keys import PENDING_SETS, pending_set

    env = {"REDIS_CLUSTER_NODES": "a:7001, b:7002", "REDIS_CLUSTER_PASSWORD": "p@ss"}
    config = load_config(environ=env)
    assert cluster_nodes(config) == [("a", 7001), ("b", 7002)]
    assert rate_limit_storage(config) == "redis+cluster://:p%40ss@a:7001,b:7002"
    assert rate_limit_storage(load_config(environ={"REDIS_URL": "redis://x:1/3"})) == "redis://x:1/3"
    with pytest.raises(ConfigError, match="CELERY_BROKER_URL and CELERY_RESULT_BACKEND"):
        check_config(config)
    check_config(load_config({"CELERY_BROKER_URL": "redis://c/0", "CELERY_RESULT_BACKEND": "redis://c/0"}, environ=env))
    with pytest.raises(ConfigError, match="REDIS_WAIT_TIMEOUT_MS"):
        check_config(load_config({"REDIS_WAIT_REPLICAS": 1, "REDIS_WAIT_TIMEOUT_MS": 1000}))
    assert pending_set("some-game") == pending_set("some-game") in PENDING_SETS


def test_the_outage_bound_is_off_or_several_sweeps_and_the_grace_never_negative():
    from services.api.config import ConfigError, check_config

    check_config(load_config({"CLOCK_OUTAGE_SECONDS": 0}))  # off: nothing given back
    check_config(load_config({"CLOCK_OUTAGE_SECONDS": 1, "CLOCK_SWEEP_INTERVAL_SECONDS": 0.25}))
    for refused in ({"CLOCK_OUTAGE_SECONDS": 0.5}, {"CLOCK_OUTAGE_SECONDS": -1}, {"CLOCK_OUTAGE_GRACE_SECONDS": -1}):
        with pytest.raises(ConfigError, match="CLOCK_OUTAGE_SECONDS"):
            check_config(load_config(refused))


def test_problem_body_has_rfc9457_fields_and_code():
    body = problem_body(422, "illegal_move", "no", reason="must_follow_suit")
    assert body == {
        "type": "urn:spades:problem:illegal_move",
        "title": "The rules do not allow that move",
        "status": 422,
        "detail": "no",
        "code": "illegal_move",
        "reason": "must_follow_suit",
    }


def test_nested_schema_errors_flatten_to_dotted_fields():
    with pytest.raises(ValidationError) as error:
        request_schemas.CreateGameRequest().load(
            {"rules": {"win_score": "x"}, "seats": [{"type": "ai", "level": "god"}] * 4}
        )
    fields = {e["field"] for e in flatten_messages(error.value.messages)}
    assert "rules.win_score" in fields and "seats.0.level" in fields


@pytest.mark.parametrize("value", [True, "3", 3.5, None, [3]])
def test_bid_schema_refuses_non_integers(value):
    with pytest.raises(ValidationError):
        request_schemas.BidRequest().load({"bid": value})


def test_bid_schema_takes_integral_numbers():
    assert request_schemas.BidRequest().load({"bid": 4.0}) == {"bid": 4}


def test_if_match_forms():
    assert parse_if_match('"7"') == 7 and parse_if_match('W/"7"') == 7 and parse_if_match("7") == 7
    assert parse_if_match(None) is None
    with pytest.raises(ApiError):
        parse_if_match('"seven"')


def test_private_event_data_reaches_only_its_seat():
    event = {"seq": 1, "type": "round_started", "version": 1, "data": {"round": 1}, "private": {"2": {"hand": ["AS"]}}}
    assert visible_event(event, 2)["data"] == {"round": 1, "hand": ["AS"]}
    assert visible_event(event, 1)["data"] == {"round": 1}
    assert visible_event(event, None)["data"] == {"round": 1}
    assert "private" not in visible_event(event, 2)


def test_view_cache_evicts_oldest():
    cache = ViewCache(2)
    for i in range(3):
        cache.put(("g", i, None), {"v": i})
    assert cache.get(("g", 0, None)) is None and cache.get(("g", 2, None)) == {"v": 2}


def test_rendered_rounds_extend_what_the_cache_still_holds():
    state = play_random_game(make_rules("partnership", win_score=100_000, lose_score=None), seed=3, max_rounds=6)
    expected = view(state, 0)["history"]
    cache = ViewCache(64)
    for n in (2, 3, 6, 6):  # cold, one more round, three more, a hit
        rounds = rendered_rounds("g", state.history[:n], state.rules, cache)
        assert rounds == expected[:n] and json.loads(rounds.text) == expected[:n]
    cache._items.clear()  # an evicted prefix: rendered again, same result
    assert rendered_rounds("g", state.history, state.rules, cache).text == rounds.text


def test_rendered_tricks_equal_the_engines_after_every_move_even_when_evicted():
    state = new_game(make_rules("partnership", win_score=150), seed=6)
    cache = ViewCache(10_000)
    moves = 0
    while state.phase != "game_over":
        assert rendered_tricks("g", state, cache) == view(state, None)["tricks"]
        if moves % 7 == 0:
            cache._items.clear()  # a process that never saw the earlier tricks: renders them all
        seat = turn(state)
        legal = legal_moves(state, seat)
        state = apply(state, seat, legal[moves % len(legal)])
        moves += 1
    assert len(state.history) >= 2


def test_game_view_dump_shortcut_equals_the_marshmallow_dump():
    rules = make_rules("partnership", win_score=200)
    state = new_game(rules, seed=8)
    seats = [Seat("human", None, "h0"), Seat("open"), Seat("ai", "pro"), Seat("ai", "easy", None, stand_in=True)]
    cache = ViewCache(256)
    moves = 0
    while True:
        record = GameRecord("g", moves + 1, seats, "", GameOptions.from_json({"ai_takeover": "standard"})).with_state(
            state
        )
        for seat in (None, 0, 1, 2, 3):
            data = game_view(record, seat, cache, remember=False)
            assert response_schemas.dump_game_view(data) == response_schemas.GAME_VIEW.dump(data)
            assert list(response_schemas.dump_game_view(data)) == list(response_schemas.GAME_VIEW.dump(data))
        if state.phase == "game_over":
            break
        seat = turn(state)
        state = apply(state, seat, legal_moves(state, seat)[moves % 2 - 1])
        moves += 1
    assert state.history


def test_only_the_process_that_sent_an_ai_turn_claims_its_result():
    sender, other = AiDispatcher(None, None, 10), AiDispatcher(None, None, 10)  # type: ignore[arg-type]
    sender._remember_sent("task-1", "pro", 0.0)
    assert not other.claim_result("task-1")  # a result that reaches another process: only the sender acts
    assert sender.claim_result("task-1")
    assert not sender.claim_result("task-1")  # once
    assert not sender.claim_result("never-sent")


class _DroppingConnection:
    """A pooled connection whose reply never arrives (the link drops)."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.disconnected = False

    def send_packed_command(self, chunks: list[bytes]) -> None:
        self.sent.append(b"".join(chunks))

    def read_response(self) -> object:
        raise redis.exceptions.ConnectionError("connection dropped")

    def disconnect(self) -> None:
        self.disconnected = True


class _OneConnectionPool:
    def __init__(self, connection: _DroppingConnection) -> None:
        self.connection, self.released = connection, 0

    def get_connection(self) -> _DroppingConnection:
        return self.connection

    def release(self, connection: _DroppingConnection) -> None:
        self.released += 1


def test_a_commit_is_sent_at_most_once_when_the_connection_drops():
    # The script may have run before the link dropped: sending it again would fail its
    # compare-and-set and report an applied move as refused. The error surfaces (a 503).
    connection = _DroppingConnection()
    client = redis.Redis()  # connects lazily: never, here
    store = RedisStore(GameRecord.from_stored, client, ttl_seconds=60, idem_ttl=60)
    client.connection_pool = _OneConnectionPool(connection)  # type: ignore[assignment]
    record = GameRecord("g", 1, [Seat("human")] * 4, "").with_state(new_game(make_rules("partnership"), seed=1))
    with pytest.raises(redis.exceptions.ConnectionError):
        store.commit(record, None, [])
    assert len(connection.sent) == 1 and b"EVALSHA" in connection.sent[0]
    assert connection.disconnected and client.connection_pool.released == 1


def test_the_parse_cache_is_keyed_by_the_stored_texts():
    state = new_game(make_rules("partnership"), seed=4)
    moved = apply(state, turn(state), legal_moves(state, turn(state))[0])
    texts, moved_texts = to_json_parts(state), to_json_parts(moved)
    assert parse_state(*texts) is parse_state(*texts), "the same texts: parsed once"
    assert parse_state(*moved_texts) == moved and parse_state(*texts) == state
