"""What the app accepts of a request's line and ``Host``: numbers in the path in ASCII digits, and with
``TRUSTED_HOSTS`` set only a ``Host`` it answers for.

A redirect never names the ``Host`` (:class:`services.api.http.wsgi_edge.Edge` makes every ``Location`` a
path), so an untrusted ``Host`` cannot be reflected; ``TRUSTED_HOSTS`` refuses it outright (``400``), as a
public deployment behind an ingress should. Probes and scrapers address a pod by its IP, so the paths they
use are not checked: they answer the same whatever the ``Host``.
"""

from __future__ import annotations

from flask import Flask, Request
from werkzeug.routing import IntegerConverter

UNCHECKED_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


class AsciiIntegerConverter(IntegerConverter):
    """werkzeug's ``int`` converter matches ``\\d``, which takes any script's digits (``/seats/١/claim`` was seat
    1); a path's number is ASCII digits, like every number a request carries
    (:func:`services.api.problems.ascii_int`)."""

    regex = r"[0-9]+"


def trusted_hosts(setting: str | list[str] | None) -> list[str] | None:
    """``TRUSTED_HOSTS`` (comma-separated host names; a leading dot admits subdomains) as Flask's setting of that
    name takes it: a list, or None for any host."""
    names = setting.split(",") if isinstance(setting, str) else setting or []
    return [name.strip() for name in names if name.strip()] or None


class HostCheckedRequest(Request):
    """The app's request class: its ``Host`` must be one of Flask's ``TRUSTED_HOSTS`` (any when None), except on
    :data:`UNCHECKED_PATHS`.

    Flask sets ``request.trusted_hosts`` from its config and checks the ``Host`` against it when it binds the
    request to the URL map; an untrusted one raises werkzeug's ``SecurityError``, a ``400``."""

    _trusted: list[str] | None = None

    @property  # type: ignore[override]
    def trusted_hosts(self) -> list[str] | None:
        return None if self.environ.get("PATH_INFO") in UNCHECKED_PATHS else self._trusted

    @trusted_hosts.setter
    def trusted_hosts(self, hosts: list[str] | None) -> None:
        self._trusted = hosts


def init_inbound(app: Flask) -> None:
    """``TRUSTED_HOSTS`` as Flask takes it (the setting is a comma-separated string), the request class that checks
    it, and ASCII path integers (set before any route is registered)."""
    app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config["TRUSTED_HOSTS"])
    app.request_class = HostCheckedRequest
    app.url_map.converters["int"] = AsciiIntegerConverter
