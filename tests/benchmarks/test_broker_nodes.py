"""``benchmarks.broker_nodes``: every decision is carried by the node of its game, and the figures add up."""

from __future__ import annotations

import pytest

from benchmarks import broker_nodes


@pytest.mark.integration
def test_each_count_of_nodes_carries_every_decision_once(capfd):
    report = broker_nodes.main(
        ["--nodes", "1,2", "--decisions", "60", "--repeat", "2", "--idle-seconds", "0.2", "--rate-per-node", "300"]
    )
    assert '"benchmark": "broker_nodes"' in capfd.readouterr().out
    assert [run["nodes"] for run in report["runs"]] == [1, 2, 1, 2]
    for run in report["runs"]:
        assert sum(node["decisions"] for node in run["per_node"]) == 60
        assert all(node["broker_calls_per_decision"] >= 16 for node in run["per_node"] if node["decisions"])
        assert all(node["commands_per_wakeup"] > 0 for node in run["per_node"] if node["decisions"])
        assert run["rate_per_node"] == 300
        assert run["max_deviation"] == max(abs(node["deviation"]) for node in run["per_node"])
        total_idle = run["total_idle_cpu_us_per_decision"]
        assert run["total_broker_cpu_us_per_decision_less_idle"] == pytest.approx(
            run["total_broker_cpu_us_per_decision"] - total_idle, abs=0.2
        )
    one, two = report["summary"]
    assert (one["nodes"], one["repeats"], two["nodes"], two["repeats"]) == (1, 2, 2, 2)
    assert one["total_broker_cpu_vs_one_node"] == one["total_broker_cpu_less_idle_vs_one_node"] == 1.0
