"""gunicorn entry point: ``gunicorn -c gunicorn.conf.py services.api.wsgi:app``."""

from services.api.app import create_app

app = create_app()
