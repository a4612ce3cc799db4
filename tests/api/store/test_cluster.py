"""The API with its games on a real Redis Cluster (3 masters, 3 replicas on loopback, ``REDIS_WAIT_REPLICAS=1``).

The bodies are the single-Redis tests', run against a gunicorn in cluster mode
(``cluster_api``, tests/conftest.py): whole games of humans and of computers,
racing and idempotent moves, events and the stream, rate limits; then what only
a cluster has: each game's keys in one slot, the timers spread over shards,
expiry, an abandoned game's record shown only once its keys are gone, readiness.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from redis.cluster import RedisCluster

from services.api.config import load_config
from services.api.games.record import GameRecord
from services.api.store.redis_keys import PENDING_SETS, waiting_key
from services.api.store.redis_store import RedisStore, make_store

from .. import test_concurrency, test_e2e
from ..ai_seats import test_ai_games
from ..contract import ContractSession
from ..helpers import auth, create_game, wait_until
from ..http import test_rate_limits
from ..live import test_stream, test_waiting_caps
from ..records import test_records_live

pytestmark = pytest.mark.integration


@pytest.fixture
def cluster_gunicorn(redis_cluster, gunicorn_factory):
    """Start a cluster-mode gunicorn with extra settings (the signature of ``gunicorn_factory``)."""
    from tests.conftest import cluster_env

    def start(env: dict[str, str] | None = None, **kwargs) -> str:
        return gunicorn_factory(cluster_env(redis_cluster, **(env or {})), **kwargs)

    return start


@pytest.fixture(scope="module")
def cluster_client(redis_cluster) -> RedisCluster:
    host, port = redis_cluster.nodes.split(",")[0].split(":")
    return RedisCluster(host=host, port=int(port))


def test_four_humans_play_a_whole_game(cluster_api):
    rules, seed, check_every_move, bidding = test_e2e.GAMES[0].values
    test_e2e.test_four_humans_play_to_game_over(cluster_api, rules, seed, check_every_move, bidding)


def test_one_human_against_three_computers(cluster_api, ai_worker):
    test_ai_games.test_one_human_against_three_pro_seats_to_game_over(ContractSession(cluster_api))


def test_four_computers_finish_while_a_client_long_polls(cluster_api, ai_worker):
    test_ai_games.test_four_computer_players_finish_while_a_client_long_polls(ContractSession(cluster_api))


def test_racing_plays_apply_exactly_once(cluster_api):
    test_concurrency.test_twenty_racing_plays_apply_exactly_once(test_concurrency.start_playing(cluster_api))


def test_racing_bids_with_if_match_apply_exactly_once(cluster_api):
    test_concurrency.test_racing_bids_with_if_match_apply_exactly_once(cluster_api)


def test_idempotent_retries_apply_once_and_replay(cluster_api):
    test_concurrency.test_idempotent_retries_apply_once_and_replay_the_response(cluster_api)


def test_the_stream_resumes_without_gaps_or_repeats(cluster_api):
    test_stream.test_the_stream_carries_what_events_returns_and_resumes_without_gaps_or_repeats(cluster_api)


def test_the_stream_shows_a_seat_only_its_own_hand(cluster_api):
    test_stream.test_a_seat_sees_only_its_own_hand_and_a_spectator_none(cluster_api)


def test_rate_limits_are_shared_through_the_cluster(cluster_gunicorn):
    test_rate_limits.test_address_budget_is_shared_by_two_servers_on_one_redis(cluster_gunicorn)


def test_token_rate_limits_on_the_cluster(cluster_gunicorn):
    test_rate_limits.test_token_budget_is_per_token_and_a_refused_move_changes_nothing(cluster_gunicorn)


def test_a_games_keys_share_one_slot_and_the_ai_timers_is_sharded(cluster_api, cluster_client, ai_worker):
    session = ContractSession(cluster_api)
    created = create_game(session, seats=[{"type": "human"}] + [{"type": "ai", "level": "easy"}] * 3)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    headers = {**auth(token), "Idempotency-Key": "slot-check"}
    # seat 1 bids first: the three computers bid, then the human (the dealer)
    wait_until(lambda: session.get(f"/v1/games/{game_id}").json()["turn"] == 0, "the computers never bid")
    assert session.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=headers).status_code == 200
    keys = [key.decode() for key in cluster_client.scan_iter(match=f"game:{{{game_id}}}*")]
    assert {"events", "idem", "ai"} <= {part for key in keys for part in key.split(":")[2:3]}
    assert len({cluster_client.keyslot(key) for key in keys}) == 1
    slots = {cluster_client.keyslot(key) for key in PENDING_SETS}
    masters = {cluster_client.get_node_from_key(key).name for key in PENDING_SETS}
    assert len(slots) == len(PENDING_SETS) and len(masters) > 1, "the timers' shards spread over the masters"


def test_waiting_requests_slots_on_the_cluster(cluster_client):
    """Each client's slots are a set in its own slot: a take for an address and a token is one script per set,
    and a token's refusal gives the address's slot back (tests/api/live/test_waiting_caps.py's checks)."""
    assert cluster_client.keyslot(waiting_key("a1")) != cluster_client.keyslot(waiting_key("t1"))
    for check in test_waiting_caps.CHECKS:
        check(lambda: RedisStore(GameRecord.from_stored, cluster_client, 600, 300, recent_size=0))


def test_games_expire_on_the_cluster(cluster_gunicorn):
    session = ContractSession(cluster_gunicorn({"GAME_TTL_SECONDS": "1"}, workers=1))
    game_id = create_game(session, seats=[{"type": "human"}] * 4)["game_id"]
    wait_until(lambda: session.get(f"/v1/games/{game_id}").status_code == 404, "the game never expired", 30)
    assert session.get(f"/v1/games/{game_id}/events").status_code == 404


def test_a_finished_games_record_outlives_it_on_the_cluster(cluster_gunicorn, cluster_client, tmp_path):
    base = cluster_gunicorn(
        {"FINISHED_GAME_TTL_SECONDS": "2", "RECORDS_DRAIN_INTERVAL_SECONDS": "0.2", "DATA_DIR": str(tmp_path)}
    )
    session = ContractSession(base)
    game_id, move = test_records_live.play_until_one_move_is_left(session)
    test_records_live.last_move(session, move)
    wait_until(
        lambda: cluster_client.ttl(f"game:{{{game_id}}}") > 0, "the record was not written (no expiry given back)"
    )
    wait_until(lambda: not cluster_client.exists(f"game:{{{game_id}}}"), "the finished game did not expire")
    record = session.get(f"/v1/games/{game_id}/record")
    assert record.status_code == 200 and record.json()["outcome"] == "finished"


def test_an_abandoned_games_record_is_shown_only_once_its_keys_are_gone_on_the_cluster(
    cluster_gunicorn, cluster_client, tmp_path
):
    env = test_records_live.server_env(GAME_TTL_SECONDS=test_records_live.ABANDONED_TTL, DATA_DIR=str(tmp_path))
    test_records_live.abandoned_game_is_shown_only_once_its_keys_are_gone(
        cluster_gunicorn(env), cluster_client, f"sqlite:///{tmp_path}/records.sqlite3"
    )


def test_readiness_checks_the_cluster(cluster_api, ai_worker, redis_cluster):
    ready = ContractSession(cluster_api).get("/readyz")
    assert ready.json()["checks"]["redis"] == "ok", ready.text
    assert all(redis_cluster.state_ok(port) for port in redis_cluster.ports)


def test_cluster_mode_refuses_to_start_without_a_plain_redis_for_celery(redis_cluster):
    from services.api.app import create_app
    from services.api.config import ConfigError

    with pytest.raises(ConfigError, match="CELERY_BROKER_URL and CELERY_RESULT_BACKEND"):
        create_app({"REDIS_CLUSTER_NODES": redis_cluster.nodes, "AI_ENABLED": False})


def test_a_move_the_replicas_do_not_confirm_is_not_acknowledged(cluster_gunicorn, redis_cluster):
    """With more replicas required than exist, the move is made but answered 503 not_replicated; the
    retry with its Idempotency-Key also waits, and answers once the requirement can be met."""
    strict = ContractSession(cluster_gunicorn({"REDIS_WAIT_REPLICAS": "2", "REDIS_WAIT_TIMEOUT_MS": "100"}, workers=1))
    relaxed = ContractSession(cluster_gunicorn({}, workers=1))
    created = create_game(relaxed, seats=[{"type": "human"}] * 4)
    game_id, seat = created["game_id"], created["state"]["turn"]
    headers = {**auth(created["seats"][seat]["token"]), "Idempotency-Key": "unsafe"}
    refused = strict.post(f"/v1/games/{game_id}/bids", json={"bid": 2}, headers=headers)
    assert refused.status_code == 503 and refused.json()["code"] == "not_replicated"
    assert refused.headers["Retry-After"] == "1"
    again = strict.post(f"/v1/games/{game_id}/bids", json={"bid": 2}, headers=headers)
    assert again.status_code == 503 and again.json()["code"] == "not_replicated", "a replay waits too"
    replayed = relaxed.post(f"/v1/games/{game_id}/bids", json={"bid": 2}, headers=headers)
    assert replayed.status_code == 200
    assert relaxed.get(f"/v1/games/{game_id}").json()["version"] == created["state"]["version"] + 1
    bids = [e for e in relaxed.get(f"/v1/games/{game_id}/events").json()["events"] if e["type"] == "bid"]
    assert len(bids) == 1, "applied once"


def test_a_burst_over_the_pool_size_waits_for_a_connection_on_every_node(redis_cluster):
    """As on one Redis, each node's pool makes a request wait for a free connection (up to the socket
    timeout) rather than fail at once: here 16 readers share one connection per node."""
    store = make_store(
        load_config({"REDIS_CLUSTER_NODES": redis_cluster.nodes, "REDIS_MAX_CONNECTIONS": "1"}), GameRecord.from_stored
    )
    masters = store.client.get_primaries()
    assert masters and all(
        isinstance(m.redis_connection.connection_pool, redis.BlockingConnectionPool) for m in masters
    )

    def read(n: int) -> list[bytes | None]:
        return [store.client.get(f"burst:{{{n % 3}}}:{i}") for i in range(50)]

    with ThreadPoolExecutor(16) as pool:
        assert list(pool.map(read, range(16))) == [[None] * 50] * 16
