"""Quick match on the in-memory store: two API processes over one backend, a clock the tests move.  Groups
of four and groups topped up with computers, nobody seated twice, a forming process that dies, cancel,
idle requests, quotas, players (and a player deleted while its request waits, who is never seated, as is one whose
credential was revoked meanwhile).  The same scripts on Redis: tests/api/store/test_lobby_store.py; over HTTP across
two servers: tests/api/lobby/test_lobby_live.py."""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from services.api.games.auth import seat_for
from services.api.games.quotas import Quotas, creator_ids
from services.api.games.record import PlayerRef
from services.api.live.wakeups import Wakeups
from services.api.lobby.match_games import blocked_members, group_players, seat_group
from services.api.lobby.match_requests import bucket_spec, resolved_rules
from services.api.lobby.matchmaker import Matchmaker
from services.api.problems import ApiError
from services.api.store.matches import FORMING, Group, MatchRequest, MatchTimes
from services.api.store.memory_store import MemoryBackend, MemorySubscription
from testkit.ending_play import play_to_the_end
from tests.api.games.test_seat_players import ADA, BOT, Directory

from ..helpers import wait_until
from .helpers import ONE_ROUND, Clock, matchmaker, process

DEFAULT = {"rules": {"preset": "partnership"}, "clock": "normal", "max_wait_seconds": 20, "fill_level": "standard"}


def ask(mm: Matchmaker, address: str = "192.0.2.1", token: str | None = None, **body: Any) -> dict[str, Any]:
    return mm.submit({**DEFAULT, **body}, address, token)


def look(mm: Matchmaker, asked: dict[str, Any]) -> dict[str, Any]:
    return mm.look(asked["match_id"], asked["secret"])


def code_of(call) -> str:
    with pytest.raises(ApiError) as error:
        call()
    return error.value.code


@pytest.fixture
def two():
    """Two processes' matchmakers over one backend, and the clock."""
    backend, clock = MemoryBackend(), Clock()
    return matchmaker(process(backend, clock), clock), matchmaker(process(backend, clock), clock), clock


def test_four_compatible_requests_are_seated_together_at_once(two):
    a, b, _ = two
    asked = [ask(a if i % 2 else b) for i in range(4)]
    views = [look(a, m) for m in asked]
    assert {v["status"] for v in views} == {"seated"}
    assert len({v["game_id"] for v in views}) == 1 and sorted(v["seat"] for v in views) == [0, 1, 2, 3]
    record = a.store.load(views[0]["game_id"])
    assert [seat_for(record, v["token"]) for v in views] == [v["seat"] for v in views]
    assert [s.type for s in record.seats] == ["human"] * 4
    assert record.options.to_json() == {
        "ai_takeover": "standard",
        "hints": False,
        "public": False,
        "matched": True,
        "clock": "normal",
    }
    assert record.state.phase == "bidding"


def test_requests_of_other_rules_or_clocks_never_share_a_table(two):
    a, _, _ = two
    asked = [ask(a), ask(a, clock="fast"), ask(a, rules={"preset": "individual"}), ask(a)]
    assert {look(a, m)["status"] for m in asked} == {"waiting"}
    same = {"preset": "partnership", "win_score": 500}  # the same rules spelled otherwise: the same bucket
    asked.append(ask(a, rules=same))
    buckets = [m["match_id"].split(".")[0] for m in asked]
    assert buckets[4] == buckets[3] == buckets[0] and len(set(buckets)) == 3
    assert {look(a, m)["status"] for m in asked} == {"waiting"}
    assert look(a, ask(a))["status"] == "seated"


def test_when_the_wait_runs_out_every_waiting_request_sits_down_with_computers(two):
    a, b, clock = two
    first = ask(a, max_wait_seconds=5, fill_level="hard")
    clock.now += 2
    second = ask(b, max_wait_seconds=60)
    clock.now += 3
    assert b.sweep_once() == 1
    one, two_ = look(a, first), look(b, second)
    assert one["status"] == two_["status"] == "seated" and one["game_id"] == two_["game_id"]
    assert (one["seat"], two_["seat"]) == (0, 1)
    record = a.store.load(one["game_id"])
    assert [(s.type, s.level) for s in record.seats] == [("human", None)] * 2 + [("ai", "hard")] * 2
    assert record.options.ai_takeover == "hard"


def test_a_sweep_before_the_deadline_seats_nobody(two):
    a, b, clock = two
    asked = ask(a, max_wait_seconds=10)
    clock.now += 6  # past the lease's look (5 s), before the deadline
    b.sweep_once()
    assert look(a, asked)["status"] == "waiting"
    clock.now += 4
    b.sweep_once()
    assert look(a, asked)["status"] == "seated"


def test_a_group_whose_forming_process_died_is_created_by_another_with_the_same_ids(two, monkeypatch):
    a, b, clock = two
    asked = [ask(a) for _ in range(3)]
    monkeypatch.setattr("services.api.lobby.matchmaker.seat_group", lambda *args, **kwargs: [])
    asked.append(ask(a))  # a forms the group, then "dies" before creating its game
    monkeypatch.undo()
    assert {look(b, m)["status"] for m in asked} == {"waiting"}
    (group_id,) = a.store.backend.matches.buckets[asked[0]["match_id"].split(".")[0]].groups
    b.sweep_once()  # within the lease: the group is still a's
    assert b.store.load(group_id) is None
    clock.now += 5
    b.sweep_once()
    views = [look(b, m) for m in asked]
    assert {v["game_id"] for v in views} == {group_id} and sorted(v["seat"] for v in views) == [0, 1, 2, 3]
    record = b.store.load(group_id)
    assert [seat_for(record, v["token"]) for v in views] == [v["seat"] for v in views]


def test_a_slow_creator_and_the_one_that_took_over_create_one_game(two):
    a, b, clock = two
    asked = [ask(a) for _ in range(3)]
    bucket = asked[0]["match_id"].split(".")[0]
    times = a.times()
    spec = bucket_spec(resolved_rules(DEFAULT["rules"]), "normal")
    request = MatchRequest(
        f"{bucket}.{'x' * 22}", "w", "s", "t", "basic", times.now_ms, times.now_ms + 9000, times.now_ms
    )
    formed = a.store.enqueue_match(bucket, request, spec, times, ["gid-of-the-group"])
    (group,) = formed.groups
    clock.now += 6
    taken = b.store.form_matches(bucket, b.times(), ["unused-1", "unused-2"])
    assert [g.game_id for g in taken.groups] == ["gid-of-the-group"]
    seated = seat_group(b.ctx, bucket, taken.groups[0], b.times(), 0)
    assert len(seated) == 4
    assert seat_group(a.ctx, bucket, group, a.times(), 0) == [], "the slow one finds the game made and seats nobody"
    assert len(a.store.backend.games) == 1


def test_nobody_is_seated_twice_and_no_seat_is_given_twice(two):
    a, b, clock = two
    asked = []
    for i in range(41):
        asked.append(ask((a, b)[i % 2], max_wait_seconds=5 + i % 3, clock=("normal", "fast")[i % 4 == 0]))
        clock.now += 0.3
        (b, a)[i % 2].sweep_once()
    clock.now += 10
    a.sweep_once()
    b.sweep_once()
    views = [look((a, b)[i % 2], m) for i, m in enumerate(asked)]
    assert {v["status"] for v in views} == {"seated"}
    places = [(v["game_id"], v["seat"]) for v in views]
    assert len(set(places)) == len(places) == 41
    for view in views:
        assert seat_for(a.store.load(view["game_id"]), view["token"]) == view["seat"]


def test_a_cancelled_request_is_never_seated(two):
    a, b, clock = two
    asked = ask(a, max_wait_seconds=5)
    assert b.cancel(asked["match_id"], asked["secret"])["status"] == "cancelled"
    assert b.cancel(asked["match_id"], asked["secret"])["status"] == "cancelled"  # again: as it is
    others = [ask(a) for _ in range(4)]
    clock.now += 5
    a.sweep_once()
    assert look(a, asked)["status"] == "cancelled"
    assert {look(a, m)["status"] for m in others} == {"seated"}


def test_a_waiting_request_says_who_is_found_and_which_computers_would_fill_the_rest(two):
    a, b, clock = two
    first = ask(a, fill_level="hard")
    view = look(a, first)
    assert (view["found"], view["seats"], view["fill_level"]) == (1, 4, "hard")
    clock.now += 1
    second = ask(b, fill_level="easy")
    assert [(v["found"], v["fill_level"]) for v in (look(b, first), look(a, second))] == [(2, "hard")] * 2
    a.cancel(first["match_id"], first["secret"])
    assert (look(a, second)["found"], look(a, second)["fill_level"]) == (1, "easy")
    assert (look(a, first)["found"], look(a, first)["fill_level"]) == (None, None), "cancelled: nobody found"
    others = [ask(a) for _ in range(3)]
    seated = look(a, others[0])
    assert (seated["status"], seated["found"], seated["seats"]) == ("seated", None, 4)


def test_a_long_poll_answers_when_the_people_found_change(two):
    a, b, clock = two
    wakeups = Wakeups(lambda: MemorySubscription(a.store.backend), poll_seconds=0.05)
    polls = Matchmaker(a.ctx, a.settings, wakeups, clock)  # the fake clock stands still: only a wake-up answers
    first = ask(a)
    pool = ThreadPoolExecutor(1)
    try:
        answer = pool.submit(polls.look, first["match_id"], first["secret"], 30, 1)  # the client shows 1
        wait_until(lambda: wakeups.counts()["waiters"] == 1, "the long poll never watched its bucket")
        second = ask(b)  # another process: the bucket's publication wakes the poll
        view = answer.result(timeout=60)
        assert (view["status"], view["found"]) == ("waiting", 2)
        shown = polls.look(first["match_id"], first["secret"], 30, found=1)
        assert shown["found"] == 2, "the client shows another count: answered at once"
        answer = pool.submit(polls.look, first["match_id"], first["secret"], 30, 2)
        wait_until(lambda: wakeups.counts()["waiters"] == 1, "the long poll never watched its bucket")
        ask(b, clock="fast")  # another bucket: nobody found for this one
        ask(b)
        assert answer.result(timeout=60)["found"] == 3
        answer = pool.submit(polls.look, first["match_id"], first["secret"], 30)  # no count: only the request's end
        wait_until(lambda: wakeups.counts()["waiters"] == 1, "the long poll never watched its bucket")
        b.cancel(second["match_id"], second["secret"])  # the count changes: the poll may read it, and waits on
        b.cancel(first["match_id"], first["secret"])
        assert answer.result(timeout=60)["status"] == "cancelled"
    finally:
        wakeups.drain()  # a poll still waiting (a failure) answers now
        pool.shutdown()
        wakeups.stop()


def test_a_seated_request_cannot_be_cancelled(two):
    a, _, _ = two
    asked = [ask(a) for _ in range(4)]
    assert code_of(lambda: a.cancel(asked[0]["match_id"], asked[0]["secret"])) == "already_seated"


def test_the_secret_guards_the_request(two):
    a, _, _ = two
    asked = ask(a)
    assert code_of(lambda: a.look(asked["match_id"], "not-the-secret")) == "unauthorized"
    assert code_of(lambda: a.cancel(asked["match_id"], None)) == "unauthorized"
    assert code_of(lambda: a.look("0123456789abcdef." + "A" * 22, asked["secret"])) == "not_found"
    assert code_of(lambda: a.look("not an id", asked["secret"])) == "not_found"


def test_a_request_nobody_asks_about_expires_instead_of_taking_a_seat(two):
    a, b, clock = two
    gone = ask(a, max_wait_seconds=60)
    clock.now += 20
    kept = ask(a, max_wait_seconds=60)
    clock.now += 11  # gone: 31 s without a look; kept: looked at now
    look(a, kept)
    for _ in range(2):
        ask(b, max_wait_seconds=60)
    look(a, gone)  # too late: it expired with the last enqueue (and its look does not bring it back)
    assert look(a, gone)["status"] == "expired"
    assert look(a, kept)["status"] == "waiting"
    ask(b, max_wait_seconds=60)
    assert look(a, kept)["status"] == "seated"


def test_an_ended_request_is_kept_for_its_client_then_forgotten(two):
    a, _, clock = two
    asked = [ask(a) for _ in range(4)]
    clock.now += 599
    ask(a)  # a script on the bucket prunes what is due
    assert look(a, asked[0])["status"] == "seated"
    clock.now += 2
    ask(a)
    assert code_of(lambda: look(a, asked[0])) == "not_found"


def test_a_client_holds_few_requests_at_once():
    backend, clock = MemoryBackend(), Clock()
    mm = matchmaker(process(backend, clock), clock, per_address=2, per_token=1)
    first = ask(mm, max_wait_seconds=60)
    ask(mm, max_wait_seconds=60, clock="fast")
    assert code_of(lambda: ask(mm)) == "too_many_matches"
    mm.cancel(first["match_id"], first["secret"])
    ask(mm, max_wait_seconds=60)  # the cancelled request gave its place back
    ask(mm, address="192.0.2.7", token="seat-token", max_wait_seconds=60)
    assert code_of(lambda: ask(mm, address="192.0.2.8", token="seat-token")) == "too_many_matches"


def test_a_request_holds_a_place_among_its_clients_games_in_play_until_its_game_takes_it():
    backend, clock = MemoryBackend(), Clock()
    quotas = Quotas(games_in_play=1, hold_seconds=3600, clock=clock)
    ctx = process(backend, clock, quotas)
    mm = matchmaker(ctx, clock)
    alice = ask(mm, address="192.0.2.1", rules=ONE_ROUND)
    assert code_of(lambda: ask(mm, address="192.0.2.1", clock="fast")) == "too_many_games"
    others = [ask(mm, address=f"192.0.2.{i}", rules=ONE_ROUND) for i in (2, 3, 4)]
    views = [look(mm, m) for m in (alice, *others)]
    assert {v["status"] for v in views} == {"seated"}
    game_id = views[0]["game_id"]
    (alice_id,) = creator_ids("192.0.2.1", None)
    assert set(backend.holds[alice_id]) == {game_id}, "the request's place went to its game"
    assert code_of(lambda: ask(mm, address="192.0.2.1")) == "too_many_games"
    tokens: list[str | None] = [None] * 4
    for view in views:
        tokens[view["seat"]] = view["token"]
    play_to_the_end(ctx, game_id, tokens)
    assert backend.holds[alice_id] == {}
    ask(mm, address="192.0.2.1")


def test_a_due_bucket_touched_meanwhile_is_not_raised_past_the_new_request():
    backend, clock = MemoryBackend(), Clock()
    store = process(backend, clock).store
    store.lower_match_due("b", 1000)
    ((_, touched),) = store.due_match_buckets(1000, 10)
    store.lower_match_due("b", 5000)  # an enqueue between the look and the raise
    assert not store.raise_match_due("b", None, touched)
    assert store.due_match_buckets(1000, 10) == [("b", "2")], "still due: the next look sees the new request"
    assert store.raise_match_due("b", 5000, "2")
    assert store.due_match_buckets(4999, 10) == [] and store.due_match_buckets(5000, 10) == [("b", "2")]


def test_a_group_is_leased_to_one_process_at_a_time():
    backend, clock = MemoryBackend(), Clock()
    store = process(backend, clock).store
    times = MatchTimes(1000, 5000, 30000, 600000)
    for i in range(4):
        store.enqueue_match("b", MatchRequest(f"b.{i}", "w", "s", "t", "basic", 1000, 9000, 1000), "{}", times, ["g"])
    assert store.backend.matches.buckets["b"].requests["b.0"].status == FORMING
    assert store.form_matches("b", MatchTimes(5999, 5000, 30000, 600000), ["x", "y"]).groups == ()
    again = store.form_matches("b", MatchTimes(6000, 5000, 30000, 600000), ["x", "y"])
    assert [g.game_id for g in again.groups] == ["g"] and again.next_due_ms == 11000
    assert store.form_matches("b", MatchTimes(6001, 5000, 30000, 600000), ["x", "y"]).groups == ()


def test_a_request_with_a_player_is_seated_as_that_player_and_a_player_sits_once_at_a_table(two):
    a, b, _ = two
    ada = PlayerRef("p_" + "a" * 22, "Ada", "person")
    bot = PlayerRef("p_" + "b" * 22, "Deep Spade", "bot")
    players = (ada, None, bot, ada)
    asked = [a.submit(DEFAULT, "192.0.2.1", None, player) for player in players]
    views = [look(b, m) for m in asked]
    record = a.store.load(views[0]["game_id"])
    asked_by_seat = {view["seat"]: player for view, player in zip(views, players, strict=True)}
    ada_seats = sorted(seat for seat, player in asked_by_seat.items() if player == ada)
    expected = [None if seat == ada_seats[1] else asked_by_seat[seat] for seat in range(4)]  # her second: unbound
    assert [seat.player for seat in record.seats] == expected and expected.count(ada) == 1


@pytest.fixture
def directory():
    """Two processes' matchmakers whose players are Ada and the bot (a deletion shows at once), and the clock."""
    backend, clock, players = MemoryBackend(), Clock(), Directory(ADA, BOT)
    ctxs = [process(backend, clock, players=players) for _ in range(2)]
    return matchmaker(ctxs[0], clock), matchmaker(ctxs[1], clock), clock, players


def test_a_request_whose_player_was_deleted_while_it_waited_is_dropped_and_a_computer_takes_its_seat(directory):
    a, b, clock, players = directory
    gone = a.submit(DEFAULT, "192.0.2.1", None, ADA)
    players.delete(ADA)
    others = []
    for mm, player in ((b, None), (b, BOT), (a, None)):  # the fourth forms the group, in arrival order
        clock.now += 0.01
        others.append(mm.submit(DEFAULT, "192.0.2.2", None, player))
    mine = look(a, gone)
    assert (mine["status"], mine["game_id"], mine["seat"], mine["token"]) == ("cancelled", None, None, None)
    views = [look(b, m) for m in others]
    assert {v["status"] for v in views} == {"seated"} and sorted(v["seat"] for v in views) == [1, 2, 3]
    record = a.store.load(views[0]["game_id"])
    assert [(s.type, s.level) for s in record.seats] == [("ai", "standard")] + [("human", None)] * 3
    assert [s.player for s in record.seats] == [None, None, BOT, None]
    assert record.state.phase == "bidding"
    assert [seat_for(record, v["token"]) for v in views] == [v["seat"] for v in views]


def test_a_request_whose_credential_was_revoked_while_it_waited_is_dropped_as_a_deleted_players(directory):
    a, b, clock, players = directory
    phone = dataclasses.replace(ADA, credential="ses_" + "p" * 22)
    gone = a.submit(DEFAULT, "192.0.2.1", None, phone)
    players.dead.add(phone.credential)  # the session it was sent with, revoked
    others = []
    for mm, player in ((b, None), (b, BOT), (a, None)):
        clock.now += 0.01
        others.append(mm.submit(DEFAULT, "192.0.2.2", None, player))
    assert look(a, gone)["status"] == "cancelled"
    record = a.store.load(look(b, others[0])["game_id"])
    assert [s.player for s in record.seats] == [None, None, BOT, None] and record.seats[0].type == "ai"


def test_a_seated_requests_seat_remembers_the_credential_it_was_sent_with(two):
    a, _, _ = two
    laptop = dataclasses.replace(ADA, credential="ses_" + "l" * 22)
    asked = [a.submit(DEFAULT, "192.0.2.1", None, laptop)] + [ask(a) for _ in range(3)]
    record = a.store.load(look(a, asked[0])["game_id"])
    assert record.seats[look(a, asked[0])["seat"]].player == laptop


def test_a_deleted_players_request_alone_at_the_deadline_makes_no_game(directory):
    a, b, clock, players = directory
    gone = a.submit({**DEFAULT, "max_wait_seconds": 5}, "192.0.2.1", None, ADA)
    players.delete(ADA)
    clock.now += 5
    b.sweep_once()
    assert look(a, gone)["status"] == "cancelled"
    assert a.store.backend.games == {}, "nobody left to play: no game of computers alone"


def test_a_dropped_request_gives_back_its_place_and_holds_no_game():
    backend, clock, players = MemoryBackend(), Clock(), Directory(ADA, BOT)
    quotas = Quotas(games_in_play=1, hold_seconds=3600, clock=clock)
    mm = matchmaker(process(backend, clock, quotas, players), clock)
    mm.submit(DEFAULT, "192.0.2.1", None, ADA)
    players.delete(ADA)
    views = [look(mm, m) for m in [ask(mm, address=f"192.0.2.{i}") for i in (2, 3, 4)]]
    (gone_id,) = creator_ids("192.0.2.1", None)
    assert backend.holds.get(gone_id, {}) == {}, "her request's place is given back, and her seat's game is not hers"
    assert {v["status"] for v in views} == {"seated"}
    ask(mm, address="192.0.2.1")  # the address may ask again


def test_a_game_made_while_its_player_lived_is_the_truth_for_the_process_that_finishes_the_group(directory):
    a, b, clock, players = directory
    asked = [a.submit(DEFAULT, "192.0.2.1", None, ADA)] + [ask(a) for _ in range(2)]
    original = a.store.match_seated
    a.store.match_seated = lambda *args, **kwargs: []  # a creates the game, then dies before marking it seated
    asked.append(ask(a))
    a.store.match_seated = original
    players.delete(ADA)  # after her seat was made, before the group was finished
    clock.now += 6
    b.sweep_once()  # the group's lease ended: b finishes it, and the game made says who sits there
    views = [look(b, m) for m in asked]
    assert {v["status"] for v in views} == {"seated"} and sorted(v["seat"] for v in views) == [0, 1, 2, 3]
    record = b.store.load(views[0]["game_id"])
    assert [seat_for(record, v["token"]) for v in views] == [v["seat"] for v in views]
    assert len(b.store.backend.games) == 1
    assert record.seats[views[0]["seat"]].player == ADA, "her seat as it was made: a game in play plays on"


def test_a_request_is_seated_as_its_player_is_now(directory):
    a, _, _, players = directory
    players.players[ADA.id] = PlayerRef(ADA.id, "Countess", "person")
    asked = [a.submit(DEFAULT, "192.0.2.1", None, ADA)] + [ask(a) for _ in range(3)]
    seated = look(a, asked[0])
    record = a.store.load(seated["game_id"])
    assert record.seats[seated["seat"]].player == PlayerRef(ADA.id, "Countess", "person")


class Blocks:
    """The players' blocks as quick match reads them (:class:`services.api.lobby.match_games.PairingBlocks`)."""

    def __init__(self) -> None:
        self.pairs: set[tuple[str, str]] = set()  # (who blocked, whom)

    def blocked_by(self, player_id: str) -> set[str]:
        return {blocked for blocker, blocked in self.pairs if blocker == player_id}

    def blocked_pairs(self, player_ids) -> set[frozenset[str]]:
        ids = set(player_ids)
        return {frozenset(pair) for pair in self.pairs if set(pair) <= ids}


def _people(n: int) -> list[PlayerRef]:
    return [PlayerRef(f"p_{i:022d}", f"P{i}", "person") for i in range(n)]


def test_a_blocked_pair_is_never_seated_together_whoever_blocked_and_whoever_asked_first():
    backend, clock, people = MemoryBackend(), Clock(), _people(6)
    blocks = Blocks()
    blocks.pairs.add((people[1].id, people[0].id))  # 1 blocked 0: the pair is kept apart both ways
    ctx = process(backend, clock, players=Directory(*people))
    mm = dataclasses.replace(matchmaker(ctx, clock), blocks=blocks)
    asked = []
    for person in people[:5]:  # one a millisecond: arrival order is submission order
        asked.append(mm.submit(DEFAULT, "192.0.2.1", None, person))
        clock.now += 0.001
    views = [look(mm, m) for m in asked]
    assert [v["status"] for v in views] == ["seated", "waiting", "seated", "seated", "seated"]
    record = mm.store.load(views[0]["game_id"])
    assert {s.player_id for s in record.seats} == {people[i].id for i in (0, 2, 3, 4)}
    clock.now += 21  # past its wait: the one kept apart sits with computers
    mm.sweep_once()
    alone = look(mm, asked[1])
    assert alone["status"] == "seated" and alone["game_id"] != views[0]["game_id"]


def test_a_block_made_after_two_requests_were_grouped_drops_the_later_one_before_the_game_is_made():
    backend, clock, people = MemoryBackend(), Clock(), _people(4)
    blocks = Blocks()
    ctx = process(backend, clock, players=Directory(*people))
    requests = [
        dataclasses.replace(
            MatchRequest(f"b.{i}", FORMING, "s", f"t{i}", "basic", 0, 1, 0, seat=i), player=(p.id, p.name, p.kind)
        )
        for i, p in enumerate(people)
    ]
    blocks.pairs.add((people[0].id, people[2].id))  # made while the group formed
    group = Group("g" * 22, bucket_spec(resolved_rules({"preset": "partnership"}), "normal"), tuple(requests))
    players, _ = group_players(group, ctx.players)
    assert blocked_members(group, players, blocks.blocked_pairs([p.id for p in people])) == {"b.2"}
    seat_group(ctx, "b", group, MatchTimes(0, 5000, 30000, 600000), 0, blocks)
    record = ctx.store.load(group.game_id)
    assert [s.player_id for s in record.seats] == [people[0].id, people[1].id, None, people[3].id]
    assert record.seats[2].type == "ai", "a computer in the dropped one's seat"
