"""The Spades game service API: a stateless Flask app over Redis.

``create_app()`` builds the app from environment variables (see
:mod:`services.api.config`); gunicorn serves ``services.api.wsgi:app``.
"""

from services.api.app import create_app

__all__ = ["create_app"]
