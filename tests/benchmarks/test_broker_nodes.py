"""``benchmarks.broker_nodes``: every decision is carried by the node of its game, and the figures add up."""

from __future__ import annotations

import pytest

from benchmarks import broker_nodes


@pytest.mark.integration
def test_each_count_of_nodes_carries_every_decision_once(capfd):
    report = broker_nodes.main(["--nodes", "1,2", "--decisions", "60"])
    assert '"benchmark": "broker_nodes"' in capfd.readouterr().out
    one, two = report["runs"]
    assert (one["nodes"], two["nodes"]) == (1, 2)
    for run in report["runs"]:
        assert sum(node["decisions"] for node in run["per_node"]) == 60
        assert all(node["broker_calls_per_decision"] >= 16 for node in run["per_node"] if node["decisions"])
        assert run["max_deviation"] == max(abs(node["deviation"]) for node in run["per_node"])
    assert one["total_broker_cpu_vs_one_node"] == 1.0
