"""An arena of 40 bots for two minutes, played end to end through ``spades_client`` on gunicorn with Redis: players
join, each finds its game by reading its entrant, takes its seat and plays; finished games are scored and their
players paired again until the arena's end.  Nobody meets the same opponents (or sits beside the same partner) in
two games running, and every entrant's points, wins and streak are what docs/events.md's rules make of its games'
final scores: 2 a win, 1 a draw, 0 a loss, each doubled while on fire (after two wins in a row).

The bots play random legal moves (this test is about the arena, not the cards); the arena's calls go through a
session that checks every response against openapi.yaml."""

from __future__ import annotations

import random
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

import pytest

from spades_client import SpadesClient
from spades_client.errors import IllegalMove, VersionConflict

from .contract import ContractSession
from .test_duplicate_event import letters

pytestmark = pytest.mark.integration
BOTS, MINUTES = 40, 2
WIN, DRAW, LOSS, FIRE_AFTER, FIRE_FACTOR = 2, 1, 0, 2, 2  # docs/events.md, "Points and the fire"


class Bot:
    def __init__(self, base: str) -> None:
        self.events = SpadesClient(base, session=ContractSession(""))
        created = self.events.create_player(f"Arena {letters(10)}", kind="bot")
        self.id = created.player.id
        self.play = SpadesClient(base, player_token=created.token)


def play_game(bots: dict[str, Bot], game_id: str, seats: list[str], rng: random.Random) -> list[int]:
    """Every seat taken by its bot and random legal moves played to the end; the final scores by side."""
    clients = []
    for seat, player_id in enumerate(seats):
        client = bots[player_id].play.as_seat("")
        client.take_my_seat(game_id, seat)
        clients.append(client)
    view = clients[0].get_game(game_id)
    while view.phase != "game_over":
        mine = clients[view.turn].get_game(game_id)
        try:
            view = clients[view.turn].move(game_id, rng.choice(mine.legal), version=mine.version)
        except (IllegalMove, VersionConflict):  # a stale read: read the table again
            view = clients[0].get_game(game_id)
    return list(view.scores)


def documented_points(outcomes: list[str]) -> tuple[int, int, int]:
    """One entrant's points, wins and run from its outcomes in order, by the documented rules."""
    points = wins = run = 0
    for outcome in outcomes:
        factor = FIRE_FACTOR if run >= FIRE_AFTER else 1
        points += {"win": WIN, "draw": DRAW, "loss": LOSS}[outcome] * factor
        wins += outcome == "win"
        run = run + 1 if outcome == "win" else 0
    return points, wins, run


def test_forty_bots_play_a_two_minute_arena(api_server):
    bots = {b.id: b for b in (Bot(api_server) for _ in range(BOTS))}
    director = next(iter(bots.values())).events
    event = director.create_event(
        "Bots' arena", format="arena", minutes=MINUTES, seating="partners", deals_per_round=1, clock="relaxed"
    )
    assert event.arena is not None and event.arena.ends_ms is None, "not started: no end yet"
    for bot in bots.values():
        assert bot.events.join_arena(event.event_id).status == "waiting"
    event = director.start_event(event.event_id)
    assert event.status == "running" and event.arena.ends_ms == event.arena.started_ms + MINUTES * 60_000

    games: dict[str, list[str]] = {}  # game id -> the entrants by seat, in the order the games were found
    played: dict[str, list[str]] = {b: [] for b in bots}  # entrant -> its games in order
    rng, finals = random.Random(50), {}
    in_flight: dict[Future, str] = {}
    with ThreadPoolExecutor(3) as pool:
        while (event := director.get_event(event.event_id)).status != "finished":
            for bot in bots.values():
                entrant = bot.events.get_arena_entrant(event.event_id, bot.id)
                if entrant.status == "playing" and entrant.game_id not in games:
                    seats = [None] * 4
                    games[entrant.game_id] = seats
                if entrant.status == "playing":
                    games[entrant.game_id][entrant.seat] = bot.id
            for game_id, seats in games.items():
                if None not in seats and game_id not in finals and game_id not in in_flight.values():
                    for player_id in seats:
                        played[player_id].append(game_id)
                    future = pool.submit(play_game, bots, game_id, list(seats), random.Random(rng.randrange(2**32)))
                    in_flight[future] = game_id
            if in_flight:
                done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in done:
                    finals[in_flight.pop(future)] = future.result()

    assert len(finals) >= BOTS // 4 * 3, "several waves of games"
    outcomes: dict[str, list[str]] = {b: [] for b in bots}
    previous: dict[str, tuple[set[str], set[str]]] = {}
    for player_id, game_ids in played.items():
        assert all(g in finals for g in game_ids), "every game played to its end and scored"
        for game_id in game_ids:
            seats = games[game_id]
            side = seats.index(player_id) % 2  # partners sit opposite: side 0 is seats 0 and 2
            partners = {seats[(seats.index(player_id) + 2) % 4]}
            opponents = {seats[1 - side], seats[3 - side]}
            if player_id in previous:
                last_opponents, last_partners = previous[player_id]
                assert not opponents & last_opponents, "the same opponent in two games running"
                assert not partners & last_partners, "the same partner in two games running"
            previous[player_id] = (opponents, partners)
            scores = finals[game_id]
            mine, theirs = scores[side], scores[1 - side]
            outcomes[player_id].append("win" if mine > theirs else "draw" if mine == theirs else "loss")

    page = director.get_arena_standings(event.event_id, start=0, limit=BOTS)
    assert page.entrants == BOTS and len(page.standings) == BOTS
    for row in page.standings:
        assert (row.points, row.wins, row.run) == documented_points(outcomes[row.player_id])
        assert row.games == len(played[row.player_id]) and row.status == "finished" and row.game_id is None
    order = [(-r.points, -r.performance, r.player_id) for r in page.standings]
    assert order == sorted(order)
    keys = [(r.points, r.performance) for r in page.standings]
    assert [r.rank for r in page.standings] == [1 + sum(k > mine for k in keys) for mine in keys], "ties share a rank"
    assert any(r.on_fire for r in page.standings) == any(r.run >= FIRE_AFTER for r in page.standings)
    assert event.arena.games_in_play == 0 and event.arena.standings == page.standings[:20]
