"""A duplicate event survives an API restart mid-round: 4 pairs, 2 rounds of one deal, on gunicorn with a Redis
of the test's own.  Round 1's first table is played out and its second table's first bid is made; then every API
process is stopped at once (SIGQUIT) and new ones start on another port.  The event carries on there from the
store alone: the same round, the same tables (the same game ids, the bid kept), round 2 begun by a read once
round 1's tables finish, and the event finished with every board scored.

Every seat is a pair's bot (no stand-in, so no AI worker is needed); the bots play random legal moves
(``play_table`` of ``test_duplicate_event``)."""

from __future__ import annotations

import random
import signal

import pytest

from spades_client import SpadesClient
from testkit.processes import gunicorn

from .contract import ContractSession
from .test_duplicate_event import Bot, play_table, started_event

pytestmark = pytest.mark.integration
PAIRS, ROUNDS = 4, 2
ENV = {"RATE_LIMIT_ENABLED": "0"}  # players kept in the records (the test's embedded database, DATA_DIR)


def api(redis_url: str):
    """The API's processes, stopped at once when the block ends (SIGQUIT: no graceful finish of anything)."""
    return gunicorn(redis_url, stop_signal=signal.SIGQUIT, workers=2, env=ENV)


def moved_to(bots: list[Bot], base: str) -> None:
    """Each bot's clients on the new server, acting for the same player (its token is in the store)."""
    for bot in bots:
        token = bot.play.player_token
        bot.events = SpadesClient(base, session=ContractSession(""), player_token=token)
        bot.play = SpadesClient(base, player_token=token)


def test_a_duplicate_event_goes_on_with_the_same_tables_after_every_api_process_restarts(private_redis_url):
    rng = random.Random(49)
    with api(private_redis_url) as base:
        by_id, event = started_event(base, "Restart night", PAIRS, ROUNDS)
        director = next(iter(by_id.values())).events
        first, second = event.current_round.tables
        spectator = SpadesClient(base)
        assert play_table(by_id, spectator, first, rng).phase == "game_over"
        view = spectator.get_game(second.game_id)
        bidder = by_id[view.seats[view.turn].player.id].play.as_seat("")
        bidder.take_my_seat(second.game_id, view.turn)
        mine = bidder.get_game(second.game_id)
        bid = bidder.move(second.game_id, mine.legal[0], version=mine.version)
        before = director.get_event(event.event_id)
    assert before.current_round.number == 1 and before.status == "running"

    with api(private_redis_url) as base:
        bots = list(by_id.values())
        moved_to(bots, base)
        director, spectator = bots[0].events, SpadesClient(base)
        after = director.get_event(event.event_id)
        assert after.status == "running" and after.current_round.number == 1
        assert after.current_round.tables == before.current_round.tables, "the same tables, the same games"
        kept = spectator.get_game(second.game_id)
        assert kept.version == bid.version and kept.phase == "bidding", "the bid made before the restart is kept"
        final = play_table(by_id, spectator, second, rng)
        assert final.phase == "game_over"
        event = director.get_event(event.event_id)
        assert event.current_round.number == 2, "a read after the restart began the next round"
        for table in event.current_round.tables:
            assert play_table(by_id, spectator, table, rng).phase == "game_over"
        event = director.get_event(event.event_id)
        assert event.status == "finished"
        played = {t.game_id for t in before.current_round.tables} | {t.game_id for t in event.current_round.tables}
        assert len(played) == 2 * ROUNDS, "each round's tables made once"
        for board in range(1, ROUNDS + 1):
            sheet = director.get_event_board(event.event_id, board)
            assert all(row.finished and row.matchpoints is not None for row in sheet.tables)
            assert {row.game_id for row in sheet.tables} <= played
        assert sorted(s.pair for s in event.standings) == list(range(1, PAIRS + 1))
