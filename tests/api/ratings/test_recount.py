"""The flags and the buckets counted again when the rules behind them change: every rating's flag by the running
rule, the buckets from the ratings on the boards, page after page; nothing when the stored rules are the running
ones; on SQLite and PostgreSQL."""

from __future__ import annotations

import logging

from sqlalchemy import select

from services.api.ratings import recount
from services.api.ratings.recount import RULES, recount_if_stale
from services.api.records.schema import bucket_rules, player_ratings, rating_buckets
from services.ratings.buckets import bucket_of
from services.ratings.provisional import PROVISIONAL_GAMES

from .conftest import buckets_agree, seasoned, snapshot


def stale(engine) -> None:
    """Ratings whose flags and buckets an older rule left: every rating flagged provisional and every one counted
    (revision 0007's start: flags from before it, buckets of every rating)."""
    with engine.begin() as connection:
        connection.execute(player_ratings.update().values(provisional=True))
        connection.execute(rating_buckets.delete())
        for row in connection.execute(select(player_ratings)).all():
            key = {"board": row.board, "kind": row.kind, "bucket": bucket_of(row.score)}
            found = connection.execute(select(rating_buckets.c.players).filter_by(**key)).scalar()
            if found is None:
                connection.execute(rating_buckets.insert().values(**key, players=1))
            else:
                connection.execute(rating_buckets.update().filter_by(**key).values(players=found + 1))


def test_a_change_of_rules_sets_every_flag_and_counts_the_buckets_again(engine, monkeypatch, caplog):
    for n in range(7):
        board = ("partnership", "individual")[n % 2]
        seasoned(engine, f"p_{n}", board, "person", PROVISIONAL_GAMES - 3 + n, mu=20.0 + n, sigma=2.0 + n / 3)
    seasoned(engine, "computer-hard", "partnership", "computer", 500, mu=40.0, sigma=1.2)
    assert buckets_agree(engine)
    counted = snapshot(engine)
    with engine.begin() as connection:  # the migrations' start: no rules stored
        assert connection.execute(select(bucket_rules)).all() == []
    stale(engine)
    assert not buckets_agree(engine)
    monkeypatch.setattr(recount, "PAGE", 3)  # several pages
    with caplog.at_level(logging.INFO, logger="services.api.ratings.recount"), engine.begin() as connection:
        assert recount_if_stale(connection)
    assert "every rating counted" in caplog.text
    assert buckets_agree(engine) and snapshot(engine) == counted
    with engine.connect() as connection:
        assert connection.execute(select(bucket_rules.c.rules)).scalars().all() == [RULES]
    with engine.begin() as connection:
        assert not recount_if_stale(connection)  # the next start: counted by the running rules

    monkeypatch.setattr(recount, "RULES", "a newer rule")
    stale(engine)
    with engine.begin() as connection:
        assert recount_if_stale(connection)
    assert buckets_agree(engine) and snapshot(engine) == counted


def test_nothing_rated_counts_nothing(engine):
    with engine.begin() as connection:
        assert recount_if_stale(connection)
    with engine.connect() as connection:
        assert connection.execute(select(rating_buckets)).all() == []
