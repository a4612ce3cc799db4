"""What integration tests and benchmark commands share: real service processes (Redis, gunicorn, Celery
workers, a loopback Redis Cluster) and simulated players over HTTP.

Not part of the service: the image installs ``services`` only (deploy/Dockerfile.dockerignore), and this
package is imported from the repository root, like ``benchmarks``.
"""
