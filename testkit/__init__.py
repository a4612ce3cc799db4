"""What integration tests and benchmark commands share: real service processes (Redis, gunicorn, Celery
workers, a loopback Redis Cluster), simulated players over HTTP, random legal play on the engine, the
fault drills that a benchmark measures and a test asserts on, the chaos drill (``chaos_*``: a whole stack,
a mixed load, a fault injector and the invariants read from the stores), the resharding drill's cluster steps
(``cluster_reshard``) and the operations runbook's commands (``runbook``).

Not part of the service: the image installs ``services`` only (deploy/Dockerfile.dockerignore), and this
package is imported from the repository root, like ``benchmarks``.
"""
