"""Alembic's environment: migrations run on the connection :func:`services.api.records.database.migrate`
hands in (one lock holder at a time), or on ``RECORDS_DATABASE_URL`` from the command line."""

from __future__ import annotations

from alembic import context

from services.api.records.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    from services.api.config import load_config
    from services.api.records.database import database_url, make_engine

    engine = make_engine(database_url(load_config()))
    with engine.begin() as own:
        context.configure(connection=own, target_metadata=metadata, render_as_batch=True)
        context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
