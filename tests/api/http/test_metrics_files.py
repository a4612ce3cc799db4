"""The /metrics scrape over the workers' multiprocess files, without any process: unit tests."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.mmap_dict import MmapedDict, mmap_key

from services.api.http.observability import SizedFilesCollector, sized_metric_files


def test_an_empty_file_a_worker_left_does_not_fail_the_scrape(tmp_path):
    """A worker killed between creating its file and sizing it leaves an empty file for good
    (prometheus/client_python#1199): the others' samples are still scraped."""
    written = MmapedDict(str(tmp_path / "counter_101.db"))
    key = mmap_key("spades_games_created_total", "spades_games_created_total", [], [], "Games created.")
    written.write_value(key, 3.0, 0.0)
    written.close()
    (tmp_path / "counter_102.db").touch()  # the killed worker's

    assert sized_metric_files(str(tmp_path)) == [str(tmp_path / "counter_101.db")]
    registry = CollectorRegistry()
    SizedFilesCollector(registry, path=str(tmp_path))
    assert b"spades_games_created_total 3.0" in generate_latest(registry)


def test_only_files_matching_the_pattern_are_listed(tmp_path):
    for name in ("counter_1.db", "gauge_livesum_1.db", "notes.txt"):
        (tmp_path / name).write_bytes(b"\0" * 8)
    assert sized_metric_files(str(tmp_path), "counter_*.db") == [str(tmp_path / "counter_1.db")]
    assert sorted(sized_metric_files(str(tmp_path))) == [
        str(tmp_path / "counter_1.db"),
        str(tmp_path / "gauge_livesum_1.db"),
    ]
