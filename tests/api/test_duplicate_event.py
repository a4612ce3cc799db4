"""A duplicate event played end to end by bots through ``spades_client``, on gunicorn with Redis and a Celery AI
worker: 8 pairs, 7 rounds of 2 deals (the Howell movement: everyone meets everyone).  Every table of a round is
dealt the same cards, every board's matchpoints are what docs/events.md's rule makes of the tables' scores, the
standings add them up, and the pair that withdrew after the start is a no-show from round 2 on: computers play
its seats and it gets 40 % of the top on each of those boards.

The bots play random legal moves (the cheapest level of play: this test is about the event, not the cards); the
no-show's stand-ins are ``easy`` computers, and the stack plays computer moves unpaced
(``COMPUTER_GAME_PACE_SECONDS=0``, ``tests/conftest.py``).  The event-level calls go through a session that
checks every response against openapi.yaml."""

from __future__ import annotations

import random
import secrets
import string
from concurrent.futures import ThreadPoolExecutor

import pytest

from spades_client import SpadesClient
from spades_client.errors import IllegalMove, VersionConflict
from spades_client.events import EventDetail, EventTable

from .contract import ContractSession
from .helpers import wait_until

pytestmark = pytest.mark.integration
PAIRS, ROUNDS, DEALS = 8, 7, 2
NO_SHOW = 8  # the pair that withdraws once the event has started


def letters(n: int) -> str:
    return "".join(secrets.choice(string.ascii_lowercase) for _ in range(n))


class Bot:
    """One player: a contract-checked client for the event's calls, a plain one for its seat and its moves."""

    def __init__(self, base: str, index: int) -> None:
        self.events = SpadesClient(base, session=ContractSession(""))
        created = self.events.create_player(f"Duo {letters(10)}", kind="bot")
        self.id = created.player.id
        self.play = SpadesClient(base, player_token=created.token)


def started_event(base: str, name: str, pairs: int, rounds: int, **settings) -> tuple[dict[str, Bot], EventDetail]:
    """An event of ``pairs`` pairs of new bots (each pair made by its first bot, accepted by the second), one deal a
    round unless ``settings`` say otherwise, started by the first bot: the bots by player id, and the event."""
    bots = [Bot(base, i) for i in range(2 * pairs)]
    director = bots[0].events
    event = director.create_event(name, max_pairs=pairs, rounds=rounds, **{"deals_per_round": 1, **settings})
    for i in range(pairs):
        pair = bots[2 * i].events.join_event(event.event_id, bots[2 * i + 1].id)
        assert bots[2 * i + 1].events.accept_pair(event.event_id, pair.pair_id).invited is None
    return {b.id: b for b in bots}, director.start_event(event.event_id)


def legal_cards(hand: list[str], trick: list, spades_broken: bool) -> list[str]:
    """The cards a seat may play (the standard rules): follow the led suit if it can; lead a spade only once
    spades are broken or when it holds nothing else."""
    if trick:
        led = trick[0].card[-1]
        follow = [c for c in hand if c[-1] == led]
        return follow or hand
    others = [c for c in hand if c[-1] != "S"]
    return hand if spades_broken or not others else others


def play_table(bots: dict[str, Bot], spectator: SpadesClient, table: EventTable, rng: random.Random):
    """Take the table's seats our bots hold and play random legal moves until the game is over; its final view.

    A seat reads its own view when it bids (its new hand and legal bids); it plays its cards from the hand it
    keeps and the trick the last answer showed, so a card costs one request."""
    view = spectator.get_game(table.game_id)
    seats: dict[int, SpadesClient] = {}
    for seat, info in enumerate(view.seats):
        if info.type == "human":
            player = bots[info.player.id].play.as_seat("")
            player.take_my_seat(table.game_id, seat)
            seats[seat] = player
    hands: dict[int, list[str]] = {}
    view = spectator.get_game(table.game_id)
    while view.phase != "game_over":
        turn = view.turn
        if turn not in seats:  # a stand-in's turn: wait for the table to move on
            spectator.get_events(table.game_id, after=view.last_seq, wait=10)
            view = spectator.get_game(table.game_id)
            continue
        if view.phase == "bidding" or turn not in hands:
            mine = seats[turn].get_game(table.game_id)
            hands[turn], choice, version = list(mine.hand or []), rng.choice(mine.legal), mine.version
        else:
            choice, version = rng.choice(legal_cards(hands[turn], view.trick, view.spades_broken)), view.version
        try:
            view = seats[turn].move(table.game_id, choice, version=version)
        except (IllegalMove, VersionConflict):  # a stale read: read the table again
            view = spectator.get_game(table.game_id)
            continue
        if isinstance(choice, str):
            hands[turn].remove(choice)
    return view


def documented_matchpoints(margins: list[int]) -> list[int]:
    """docs/events.md: 2 for each result of the direction beaten, 1 for each tie."""
    return [sum(2 if m > o else 1 if m == o else 0 for o in margins) - 1 for m in margins]


def test_eight_pairs_play_seven_rounds_of_two_deals_duplicate(api_server, ai_worker):
    bots = [Bot(api_server, i) for i in range(2 * PAIRS)]
    by_id = {b.id: b for b in bots}
    director = bots[0].events
    event = director.create_event("Club night", max_pairs=PAIRS, deals_per_round=DEALS, rounds=ROUNDS,
                                  stand_in_level="easy")  # fmt: skip
    pair_ids = []
    for i in range(PAIRS):
        first, second = bots[2 * i], bots[2 * i + 1]
        pair = first.events.join_event(event.event_id, second.id)
        assert second.events.accept_pair(event.event_id, pair.pair_id).invited is None
        pair_ids.append(pair.pair_id)
    event = director.start_event(event.event_id)
    assert event.status == "running" and event.current_round.number == 1
    withdrawn = bots[2 * NO_SHOW - 1].events.withdraw_pair(event.event_id, pair_ids[NO_SHOW - 1])
    assert withdrawn.pair_of(bots[2 * NO_SHOW - 1].id).withdrawn

    spectator = SpadesClient(api_server)
    rng = random.Random(49)
    finals: dict[int, dict[int, object]] = {}
    met: set[frozenset[int]] = set()
    with ThreadPoolExecutor(4) as pool:
        for number in range(1, ROUNDS + 1):
            event = director.get_event(event.event_id)
            current = event.current_round
            assert current.number == number and current.no_shows == ([] if number == 1 else [NO_SHOW])
            met |= {frozenset((t.ns, t.ew)) for t in current.tables}
            seeds = [rng.randrange(2**32) for _ in current.tables]
            views = pool.map(
                lambda a: play_table(by_id, spectator, a[0], random.Random(a[1])),
                zip(current.tables, seeds, strict=True),
            )
            finals[number] = {t.table: v for t, v in zip(current.tables, views, strict=True)}
    event: EventDetail = director.get_event(event.event_id)
    assert event.status == "finished" and len(met) == PAIRS * (PAIRS - 1) // 2  # everyone met everyone

    for number, tables in finals.items():
        for deal in range(DEALS):
            dealt = {tuple(map(tuple, v.history[deal].hands)) for v in tables.values()}
            assert len(dealt) == 1, f"round {number} deal {deal + 1}: the tables were dealt different cards"
        assert all(not v.seeded and v.rules.deals == DEALS for v in tables.values())

    totals = {p: [0.0, 0] for p in range(1, PAIRS + 1)}
    for board in range(1, ROUNDS * DEALS + 1):
        sheet = director.get_event_board(event.event_id, board)
        number, deal = (board - 1) // DEALS + 1, (board - 1) % DEALS
        margins = []
        for row in sheet.tables:
            played = finals[number][row.table].history[deal]
            assert row.bids == played.bids and row.tricks == played.tricks_won
            assert [row.score["ns"], row.score["ew"]] == played.points
            margins.append(row.score["ns"] - row.score["ew"])
        ns_points, ew_points = documented_matchpoints(margins), documented_matchpoints([-m for m in margins])
        for row, ns, ew in zip(sheet.tables, ns_points, ew_points, strict=True):
            top = 2 * (len(sheet.tables) - 1)
            if NO_SHOW in row.no_show:
                ns, ew = (0.4 * top, ew) if row.ns == NO_SHOW else (ns, 0.4 * top)
            assert (row.matchpoints["ns"], row.matchpoints["ew"]) == pytest.approx((ns, ew))
            for pair, points in ((row.ns, ns), (row.ew, ew)):
                totals[pair][0] += points
                totals[pair][1] += top
        if number > 1:
            assert [NO_SHOW] in [row.no_show for row in sheet.tables]
    standings = {s.pair: s for s in event.standings}
    assert sorted(standings) == list(range(1, PAIRS + 1))
    for pair, (points, top) in totals.items():
        assert standings[pair].matchpoints == pytest.approx(points) and standings[pair].top == top
        assert standings[pair].percent == pytest.approx(round(100 * points / top, 2))
    percents = [s.percent for s in event.standings]  # best first: a pair's rank is 1 + the pairs above its percent
    assert [s.rank for s in event.standings] == [percents.index(p) + 1 for p in percents]


def test_the_experts_par_is_played_on_the_ai_workers_and_shown_on_the_scoresheet(api_server, ai_worker):
    """An event with ``par``: the round's expert table (four ``expert`` computers, the same cards) plays on the
    Celery worker, and the board's scoresheet shows what it scored once it has."""
    by_id, event = started_event(api_server, "Par night", 3, 1, stand_in_level="easy", par=True)
    director = next(iter(by_id.values())).events
    assert event.par and [p.kind for p in event.pairs][-1] == "computer"
    spectator = SpadesClient(api_server)
    finals = [play_table(by_id, spectator, t, random.Random(t.table)) for t in event.current_round.tables]
    assert len({tuple(map(tuple, v.history[0].hands)) for v in finals}) == 1
    sheets = []

    def par_shown() -> bool:
        sheets.append(director.get_event_board(event.event_id, 1))
        return sheets[-1].par is not None

    wait_until(par_shown, "the expert table never finished its deal", bound=300)
    assert director.get_event(event.event_id).status == "finished"
    experts = spectator.get_game(sheets[-1].par_game_id)
    assert [(s.type, s.level) for s in experts.seats] == [("ai", "expert")] * 4
    assert experts.history[0].hands == finals[0].history[0].hands, "the experts played the tables' cards"
    assert [sheets[-1].par["ns"], sheets[-1].par["ew"]] == experts.history[0].points
