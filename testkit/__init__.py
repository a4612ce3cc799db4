"""What integration tests and benchmark commands share: real service processes (Redis, gunicorn, Celery
workers, a loopback Redis Cluster), simulated players over HTTP, random legal play on the engine, and the
fault drills that a benchmark measures and a test asserts on.

Not part of the service: the image installs ``services`` only (deploy/Dockerfile.dockerignore), and this
package is imported from the repository root, like ``benchmarks``.
"""
