"""The Spades game service API: a stateless Flask app over Redis.

``create_app()`` builds the app from environment variables (see
:mod:`services.api.config`); gunicorn serves ``services.api.wsgi:app``.  The app
is imported when ``create_app`` is first asked for, not with the package: a
command that needs one room (the records database's migration job,
``python -m services.api.records.database``) starts without the whole service.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from services.api.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
