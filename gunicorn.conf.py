"""gunicorn settings for the API, from environment variables.

gthread workers: each process runs several threads so a long-polling
``/events`` request (up to 30 s, blocked in Redis XREAD) holds one thread,
not a whole worker.
"""

import os

bind = os.environ.get("API_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("API_WORKERS", "2"))
worker_class = "gthread"
threads = int(os.environ.get("API_THREADS", "8"))
timeout = int(os.environ.get("API_TIMEOUT", "60"))  # > the longest long poll (30 s)
graceful_timeout = 10
keepalive = 5
accesslog = os.environ.get("API_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("API_LOG_LEVEL", "info")
wsgi_app = "services.api.wsgi:app"
