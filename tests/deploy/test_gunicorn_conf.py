"""gunicorn.conf.py's worker tuning: what it sets is what a worker runs with."""

from __future__ import annotations

import gc
import runpy
from types import SimpleNamespace

import pytest

from .deploy_files import REPO_ROOT

# a worker whose app has no fan-out hub: post_worker_init's drain on SIGTERM is left out (tests/api/live covers it)
NO_APP_WORKER = SimpleNamespace(wsgi=object(), handle_exit=lambda signum, frame: None)


def load_conf(monkeypatch, **env: str) -> dict:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "/tmp/unused-by-this-test")
    return runpy.run_path(str(REPO_ROOT / "gunicorn.conf.py"))


def test_worker_collects_garbage_every_api_gc_threshold_allocations(monkeypatch):
    threshold = gc.get_threshold()
    try:
        conf = load_conf(monkeypatch, API_GC_THRESHOLD="12345")
        conf["post_worker_init"](NO_APP_WORKER)
        assert gc.get_threshold()[0] == 12345
        assert gc.get_freeze_count() > 0  # start-up objects moved out of the collector's way
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_zero_keeps_cpythons_default_threshold(monkeypatch):
    threshold = gc.get_threshold()
    try:
        load_conf(monkeypatch, API_GC_THRESHOLD="0")["post_worker_init"](NO_APP_WORKER)
        assert gc.get_threshold() == threshold
    finally:
        gc.unfreeze()


def test_gevent_by_default_with_the_open_files_limit_raised_for_its_connections(monkeypatch):
    import resource

    conf = load_conf(monkeypatch, API_WORKER_CONNECTIONS="4000")
    assert conf["worker_class"] == "gevent" and conf["worker_connections"] == 4000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))
        conf["raise_open_files_limit"](5024)
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == min(5024, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert load_conf(monkeypatch, API_WORKER_CLASS="gthread")["worker_class"] == "gthread"


def test_the_internal_listener_is_a_second_bind_on_a_port_of_its_own(monkeypatch):
    monkeypatch.delenv("INTERNAL_BIND", raising=False)
    assert load_conf(monkeypatch, API_BIND="127.0.0.1:8000")["bind"] == ["127.0.0.1:8000"]
    conf = load_conf(monkeypatch, API_BIND="0.0.0.0:8000", INTERNAL_BIND="0.0.0.0:9100")
    assert conf["bind"] == ["0.0.0.0:8000", "0.0.0.0:9100"]
    binds = conf["listener_binds"]
    # the app tells the listeners apart by the socket's port: never the same port, never a unix socket
    # (gunicorn fills a unix socket's SERVER_PORT from the client's Host header)
    for public, internal in [("10.0.0.1:9100", "127.0.0.1:9100"), ("unix:/run/spades.sock", "127.0.0.1:9100")]:
        with pytest.raises(RuntimeError):
            binds(public, internal)


def test_no_control_socket(monkeypatch):
    """gunicorn 25.1+ opens a control socket (gunicornc: reload, shutdown, worker counts) unless told not to."""
    assert load_conf(monkeypatch)["control_socket_disable"] is True
