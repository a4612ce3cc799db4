"""Failover without loss: the master holding a game's slot is SIGKILLed mid-play (benchmarks/failover.py).

The replica takes over, the game finishes, and every move the API acknowledged
(2xx, after WAIT saw a replica have it) is in the final game.  ``pytest -s``
shows the figures.
"""

from __future__ import annotations

import json

import pytest

from benchmarks.failover import play_through_failover

pytestmark = pytest.mark.integration


def test_killing_the_games_master_loses_no_acknowledged_move(cluster_api, redis_cluster):
    figures = play_through_failover(cluster_api, redis_cluster)
    print("\nfailover:", json.dumps(figures))
    assert figures["game_finished"]
    assert figures["acknowledged_moves_lost"] == 0
    assert figures["moves_applied"] == figures["moves_acknowledged"]  # every applied move was answered too
    assert figures["acknowledged_before_kill"] < figures["moves_acknowledged"], "play went on after the failover"
    assert figures["refused_or_failed_during_failover"], "the kill was noticed by the client"
    assert redis_cluster.healthy()
