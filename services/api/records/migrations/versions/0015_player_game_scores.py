"""Each player game's final scores: ``player_games.scores`` (the record's ``result.scores`` as JSON, per side), so
a player's page shows the score of each game without reading its whole record.  Filled here from the records
still kept, a batch of games at a time; a game whose record is gone keeps none.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

BATCH = 500  # games read and filled per round trip


def upgrade() -> None:
    with op.batch_alter_table("player_games", recreate="never") as batch:  # never copy: rows cascade from players
        batch.add_column(sa.Column("scores", sa.Text))
    connection = op.get_bind()
    after = ""
    while True:
        games = list(
            connection.execute(
                sa.text("SELECT DISTINCT game_id FROM player_games WHERE game_id > :after ORDER BY game_id LIMIT :n"),
                {"after": after, "n": BATCH},
            ).scalars()
        )
        if not games:
            return
        after = games[-1]
        query = sa.text("SELECT game_id, body FROM game_records WHERE game_id IN :ids").bindparams(
            sa.bindparam("ids", expanding=True)
        )
        filled = [
            {"game_id": game_id, "scores": json.dumps(json.loads(body)["result"]["scores"], separators=(",", ":"))}
            for game_id, body in connection.execute(query, {"ids": games})
        ]
        if filled:
            connection.execute(sa.text("UPDATE player_games SET scores = :scores WHERE game_id = :game_id"), filled)


def downgrade() -> None:
    with op.batch_alter_table("player_games", recreate="never") as batch:  # SQLite's own DROP COLUMN (3.35+)
        batch.drop_column("scores")
