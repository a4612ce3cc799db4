"""``python -m benchmarks.waiting`` runs end to end at a small N and prints both models' figures."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testkit.processes import ROOT
from tests.conftest import redis_url


@pytest.mark.integration
def test_a_small_run_holds_every_client_and_notifies_each_move(redis_db1):
    command = [sys.executable, "-m", "benchmarks.waiting", "--clients", "60", "--old-clients", "8", "--games", "6"]
    command += ["--seconds", "2", "--moves-per-second", "6", "--settle-seconds", "60", "--redis-url", redis_url(1)]
    # Long polls answer after 2 s (a client counts as held once answered), and streams whose client left end
    # at a 1 s heartbeat, so each pod stops at once instead of after its graceful timeout.
    command += ["--poll-wait", "2", "--heartbeat-seconds", "1"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True)
    out = json.loads(run.stdout)
    (old,) = out["thread_per_wait_gthread"]
    for figures, clients in ((out["fanout_gevent"], 60), (old, 8)):
        assert figures["held"] == clients and figures["moves"] > 0, figures
        assert figures["error_total"] == 0, figures["errors"]
        assert figures["notifications"] >= figures["moves"] * clients // 6  # each client sees its game's moves
        assert figures["p99_ms"] >= figures["p50_ms"] > 0
    assert out["fanout_gevent"]["worker_class"] == "gevent"
    assert old["worker_class"] == "gthread"
