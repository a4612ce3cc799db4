"""The bot runner and spades-bot match on a real stack: gunicorn, a Celery worker playing the computer
seats, Redis.  The runner finishes every game (through a cut stream), its only refused moves are races, and
a match deals each deal twice, sides swapped, without showing the bot any other seat's cards."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator

import pytest

from spades_client import GameView, Runner, SpadesClient, moves
from spades_client.match import BOT, run_match
from testkit import level_bots
from tests.api.helpers import holds_within

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

SHORT_GAME = {"preset": "partnership", "win_score": 100, "lose_score": -100}  # two or three rounds
QUICK_GAME = {"preset": "partnership", "win_score": 1}  # over after a round or two
AGAINST_NORMAL = [{"type": "human"}, {"type": "ai", "level": "normal"}, {"type": "ai", "level": "normal"},
                  {"type": "ai", "level": "normal"}]  # fmt: skip
RACE_CODES = {"not_your_turn", "version_conflict"}  # the documented races (spades_client.runner.RACES)


@pytest.fixture(scope="module")
def bots_server(gunicorn_factory_module: Callable[..., str]) -> str:
    """A server of its own, so that no other test's unfinished games count against the runner's quota."""
    # RATED_MIN_WIN_SCORE 1: the runner's quick games (to 1 point) can be rated
    return gunicorn_factory_module(
        {"MAX_GAMES_IN_PLAY": "1000", "MAX_COMPUTER_GAMES": "1000", "RATED_MIN_WIN_SCORE": "1"}
    )


@pytest.fixture(scope="module")
def gunicorn_factory_module() -> Iterator[Callable[..., str]]:
    from tests.conftest import run_gunicorn

    stack = []

    def start(env: dict[str, str] | None = None) -> str:
        manager = run_gunicorn(env)
        stack.append(manager)
        return manager.__enter__()

    yield start
    for manager in reversed(stack):
        manager.__exit__(None, None, None)


class Seen:
    """A bot wrapper that remembers every view it was given (game, seat, round, hand)."""

    def __init__(self, bot: Callable[[GameView], object]) -> None:
        self.bot = bot
        self.views: list[tuple[str, int, int, tuple[str, ...]]] = []

    def __call__(self, view: GameView) -> object:
        self.views.append((view.game_id, view.you, view.round, tuple(view.hand or ())))
        return self.bot(view)


def assert_only_own_cards(seen: Seen, finals: dict[str, GameView]) -> None:
    """Each hand the bot was shown is part of the hand its own seat was dealt in that round."""
    for game_id, seat, round_no, hand in seen.views:
        history = finals[game_id].history
        if round_no <= len(history):
            assert set(hand) <= set(history[round_no - 1].hands[seat]), (game_id, seat, round_no)


def test_the_runner_plays_20_games_against_normal_to_the_end_through_a_stream_cut(bots_server, ai_worker):
    cut: dict[str, int | str] = {}

    def cut_one_stream_mid_game(game_id, event, stream) -> None:
        if not cut and event.type == "card_played" and event.seq >= 30:  # mid-round, mid-game
            cut.update(game=game_id, seq=event.seq)
            stream.drop()

    seen = Seen(level_bots.basic)
    client = SpadesClient(bots_server)
    runner = Runner(client, seen, parallel=5, on_event=cut_one_stream_mid_game)
    finals = runner.run_all([lambda: runner.create_and_play(AGAINST_NORMAL, QUICK_GAME)] * 20)

    assert len(finals) == 20 and all(f.over for f in finals), [f.phase for f in finals]
    assert runner.tally.counts["games_finished"] == 20
    assert cut, "a stream was cut mid-game"
    assert runner.tally.counts["reconnects"] >= 1, "the cut stream was resumed"
    assert set(runner.tally.refusals) <= RACE_CODES, runner.tally.refusals
    by_id = {f.game_id: f for f in finals}
    assert cut["game"] in by_id and by_id[str(cut["game"])].over
    for final in finals:  # the bot bid and played every card of every round it was dealt
        rounds = len(final.history)
        assert rounds >= 1 and final.winner is not None
    moves = runner.tally.counts["moves"]
    assert moves == sum(14 * len(f.history) for f in finals), "one bid and 13 cards per round, each accepted once"
    assert_only_own_cards(seen, by_id)


def test_a_match_deals_each_deal_twice_with_the_sides_swapped(bots_server, ai_worker):
    seen = Seen(level_bots.normal)
    client = SpadesClient(bots_server)
    report = run_match(client, seen, "easy", deals=4, seed=7, parallel=4)

    assert (report["deals"], report["plays"], report["a"], report["b"]) == (4, 8, BOT, "easy")
    assert set(report["difference_a_minus_b"]) == {"mean", "ci95", "stderr"}
    assert set(report["runner"]["refused"]) <= RACE_CODES
    for role in ("a", "b"):
        assert report["per_level"][role]["counts"]["rounds"] == 8
        assert report["per_level"][role]["contract_set_rate"] is not None
    games = sorted({game_id for game_id, *_ in seen.views})
    finals = {game_id: client.get_game(game_id) for game_id in games}
    assert len(finals) == 8 and all(f.seeded and f.over for f in finals.values()), "match games show they are seeded"
    deals = {}
    for final in finals.values():
        deals.setdefault(tuple(map(tuple, final.history[0].hands)), []).append(final)
    assert len(deals) == 4 and all(len(pair) == 2 for pair in deals.values()), "each deal dealt exactly twice"
    for pair in deals.values():
        bot_seats = [{s.seat for s in f.seats if s.type == "human"} for f in pair]
        assert sorted(map(sorted, bot_seats)) == [[0, 2], [1, 3]], "the bot held each side once"
    assert_only_own_cards(seen, finals)


def test_a_level_against_itself_finds_no_difference(bots_server, ai_worker):
    report = run_match(SpadesClient(bots_server), level_bots.normal, "normal", deals=3, seed=11, parallel=3)
    low, high = report["difference_a_minus_b"]["ci95"]
    assert low <= 0 <= high, report["difference_a_minus_b"]
    assert report["per_level"]["a"]["counts"] == report["per_level"]["b"]["counts"], "same seats, same choices"


HOUSE_GAME = {**SHORT_GAME, "blind_nil": True, "blind_margin": 0, "nil_pass_cards": 2}  # a blind decision every bid
PARTNERS = [{"type": "human"}, {"type": "ai", "level": "normal"}, {"type": "human"}, {"type": "ai", "level": "normal"}]


def test_the_runner_plays_a_house_rules_game_with_blind_nil_and_the_nil_exchange(bots_server, ai_worker):
    turns: list[tuple[int, str]] = []

    def house_bot(view: GameView) -> object:
        """Seat 0 bids blind nil, seat 2 looks; both give their first cards; otherwise the basic level."""
        if view.blind_decision:
            turns.append((view.you, "blind"))
            return moves.blind_bid(0) if view.you == 0 and 0 in (view.legal_blind or []) else "look"
        if view.passing:
            turns.append((view.you, "pass"))
            return view.legal[: view.pass_count]
        return level_bots.basic(view)

    runner = Runner(SpadesClient(bots_server), house_bot, parallel=1)
    final = runner.create_and_play(PARTNERS, HOUSE_GAME)

    assert final.over and final.winner is not None
    assert set(runner.tally.refusals) <= RACE_CODES, runner.tally.refusals
    assert {(0, "blind"), (2, "blind"), (0, "pass"), (2, "pass")} <= set(turns), turns
    for record in final.history:  # seat 0 bid blind nil each round, and the partners exchanged two cards
        assert record.blind is not None and record.blind[0] and record.bids[0] == 0
        assert record.passes is not None and [len(record.passes[s]) for s in (0, 2)] == [2, 2]


def test_spades_bot_play_with_a_player_token_plays_as_that_bot_player(bots_server, ai_worker):
    from spades_client.cli import main

    created = SpadesClient(bots_server).create_player(f"Runner {uuid.uuid4().hex[:6]}", kind="bot")
    argv = ["play", "--api", bots_server, "--bot", "examples/bot.py:choose", "--games", "1", "--against", "easy",
            "--rules", json.dumps(QUICK_GAME), "--player-token", created.token]  # fmt: skip
    assert main(argv) == 0
    me = created.player.id
    reader = SpadesClient(bots_server)
    assert holds_within(lambda: reader.list_player_games(me).games, 60), "the game never reached the player's list"
    games = reader.list_player_games(me).games
    assert len(games) == 1 and games[0].seat == 0
    assert games[0].rated and games[0].rating_after is not None  # a bot alone against computers is rated
    record = reader.get_game_record(games[0].game_id)
    assert record.seats[0].player_id == me
    assert games[0].scores == record.result.scores  # how it ended, and with whom, without reading the record
    assert games[0].players is not None and games[0].players == record.players


def test_the_runner_gives_up_a_game_whose_seat_changed_hands_elsewhere(bots_server, ai_worker):
    """Another device leaves the bot's seat in the middle of a round: the runner's next request with the token
    is refused, and it stops that game (counted as a seat lost, a game left) instead of raising."""
    client = SpadesClient(bots_server)
    seats = [{"type": "human"}] + [{"type": "ai", "level": "basic"}] * 3
    created = client.create_game(rules=QUICK_GAME, seats=seats, options={"clock": "none", "ai_takeover": "basic"})
    token = next(s.token for s in created.seats if s.token)
    turns: list[int] = []

    def leaves_on_its_third_turn(view: GameView) -> object:
        turns.append(view.version)
        if len(turns) == 3:
            client.as_seat(token).leave_seat(created.game_id, 0)  # another device, the same token
        return view.legal[0]

    runner = Runner(client, leaves_on_its_third_turn)
    final = runner.play_game(created.game_id, {0: token})
    assert final.you is None and final.seats[0].type == "ai"
    assert runner.tally.counts["seats_lost"] == 1 and runner.tally.counts["games_left"] == 1
