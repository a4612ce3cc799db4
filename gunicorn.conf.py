"""gunicorn settings for the API, from environment variables.

gevent workers by default (``API_WORKER_CLASS``): a waiting client (a long
poll on ``/events``, an open ``/stream``) is one greenlet parked on the
process's fan-out hub (services/api/live/fanout.py), so a worker holds thousands
(``API_WORKER_CONNECTIONS``) where a gthread worker held ``API_THREADS``.
``gthread`` stays selectable; docs/benchmarks.md measures both.
"""

import gc
import os
import resource
import shutil
import signal
import tempfile
import threading

# prometheus-client's multiprocess mode: every worker writes its samples into
# one directory and /metrics aggregates them.  It must be set before anything
# imports prometheus_client, and emptied at each start.
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="spades-metrics-")


def listener_binds(public: str, internal: str) -> list[str]:
    """The public bind, and ``INTERNAL_BIND`` (probes and scrapes: services/api/http/listeners.py) if set.

    The app tells the internal listener by the port in a request's ``SERVER_PORT``, which gunicorn takes
    from the accepting socket for a TCP bind but from the ``Host`` header for a unix socket: beside an
    internal listener, the public one must be TCP on another port."""
    if not internal:
        return [public]
    if public.startswith(("unix:", "fd://")) or internal.startswith(("unix:", "fd://")):
        raise RuntimeError("with INTERNAL_BIND set, API_BIND and INTERNAL_BIND must both be host:port (TCP)")
    if public.rpartition(":")[2] == internal.rpartition(":")[2]:
        raise RuntimeError("INTERNAL_BIND must listen on another port than API_BIND")
    return [public, internal]


bind = listener_binds(os.environ.get("API_BIND", "127.0.0.1:8000"), os.environ.get("INTERNAL_BIND", ""))
workers = int(os.environ.get("API_WORKERS", "2"))
worker_class = os.environ.get("API_WORKER_CLASS", "gevent")  # gevent | gthread
threads = int(os.environ.get("API_THREADS", "32"))  # gthread only: each waiting client holds one thread
worker_connections = int(os.environ.get("API_WORKER_CONNECTIONS", "10000"))  # gevent only: open connections
timeout = int(os.environ.get("API_TIMEOUT", "60"))  # > the longest long poll (30 s)
graceful_timeout = 10
# seconds a kept-alive connection waits for its next request, and (both worker classes: bound_request_heads)
# the most a request's line and headers take to arrive
keepalive = int(os.environ.get("API_KEEPALIVE", "5"))
accesslog = os.environ.get("API_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("API_LOG_LEVEL", "info")
wsgi_app = "services.api.wsgi:app"
# gunicorn 25.1+ opens a control socket (gunicornc: worker counts, reload, shutdown) by default; nothing here uses it
control_socket_disable = True
# CPython's cyclic garbage collector by default runs a young-generation pass
# every 700 net container allocations: for this API about every 17 requests,
# costing ~70 µs of a move's ~850 µs under load (docs/benchmarks.md).  Almost
# nothing here is cyclic garbage (a few objects per request, from werkzeug's
# router), so a worker collects every API_GC_THRESHOLD allocations instead,
# after freezing what start-up created out of the collector's way.
gc_threshold = int(os.environ.get("API_GC_THRESHOLD", "10000"))


def raise_open_files_limit(wanted: int) -> None:
    """Each open connection is a file descriptor: lift the soft limit towards the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))


def on_starting(server):
    raise_open_files_limit(worker_connections + 1024)  # the workers inherit it
    metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"]
    shutil.rmtree(metrics_dir, ignore_errors=True)
    os.makedirs(metrics_dir, exist_ok=True)


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def drain_on_term(worker) -> None:
    """On SIGTERM (gunicorn's graceful stop, a rolling deploy's pod stop) the worker stops accepting as
    before and its fan-out hub drains: long polls answer at once and streams end, so their clients reconnect
    (with ``Last-Event-ID``) to another process instead of being held until ``graceful_timeout`` and cut.
    The drain runs outside the signal handler (a greenlet callback under gevent, a thread otherwise): the
    interrupted code may hold the hub's lock."""
    extensions = getattr(worker.wsgi, "extensions", {})
    hubs = [extensions[name] for name in ("spades.fanout", "spades.wakeups") if name in extensions]  # + the lobby's
    if not hubs:
        return
    stop = worker.handle_exit

    def on_term(signum, frame):
        stop(signum, frame)
        for hub in hubs:
            if worker_class == "gevent":
                import gevent

                gevent.get_hub().loop.run_callback(hub.drain)
            else:
                threading.Thread(target=hub.drain, name="fanout-drain", daemon=True).start()

    signal.signal(signal.SIGTERM, on_term)


def bound_request_heads(worker) -> None:
    """A client sending its request line or headers slowly (or never) must not hold a thread: gevent's worker
    reads them under a ``keepalive`` timeout, gthread's (once a first byte arrived) as long as they take, so a
    gthread worker's are read within ``keepalive`` seconds too (services/api/http/request_body.HeadDeadline,
    ended by ``pre_request``)."""
    watchdog = getattr(worker.wsgi, "extensions", {}).get("spades.read_watchdog")
    if worker_class != "gthread" or watchdog is None:
        return
    from services.api.http.request_body import HeadDeadline

    worker.head_deadline = HeadDeadline(keepalive, watchdog)
    worker.handle = worker.head_deadline.around(worker.handle)


def pre_request(worker, req):
    deadline = getattr(worker, "head_deadline", None)
    if deadline is not None:
        deadline.headers_read()


def post_worker_init(worker):
    drain_on_term(worker)
    bound_request_heads(worker)
    gc.freeze()  # the loaded app, its routes and modules: never garbage, never scanned again
    if gc_threshold > 0:
        gc.set_threshold(gc_threshold)
