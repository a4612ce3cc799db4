"""Finished games kept: their records in a database (SQLite embedded, PostgreSQL deployed)."""
