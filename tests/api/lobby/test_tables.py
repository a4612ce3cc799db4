"""Public tables on the in-memory store: what the seat commands list and unlist, syncs that land late or
never, the checks (expiry, a lost sync), pages and filters.  The same on Redis and over HTTP:
tests/api/store/test_lobby_store.py and tests/api/lobby/test_lobby_live.py."""

from __future__ import annotations

import dataclasses

import pytest

from services.api.games import commands
from services.api.lobby.listing import TableFilters, parse_cursor, tables_page
from services.api.lobby.tables import ListingHooks, check_tables, listing_entry
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryBackend
from testkit.ending_play import play_to_the_end

from .helpers import ONE_ROUND, Clock, create, process

OPEN3 = [{"type": "human"}, {"type": "open"}, {"type": "open"}, {"type": "ai", "level": "hard"}]
PUBLIC = {"options": {"public": True}}


def listed(ctx) -> list[dict]:
    return tables_page(ctx.store, TableFilters(), None, 100)["tables"]


def change_types(ctx) -> list[str]:
    return [change["type"] for change in ctx.store.table_changes_after(0, 100)]


@pytest.fixture
def world():
    clock = Clock()
    return process(MemoryBackend(), clock), clock


def test_a_public_game_is_listed_while_it_has_a_claimable_seat(world):
    ctx, _ = world
    created = create(ctx, OPEN3, **PUBLIC)
    game_id = created["game_id"]
    (table,) = listed(ctx)
    assert table == {
        "game_id": game_id,
        "rules": {"preset": "partnership", "house_rules": []},
        "clock": "normal",  # seats for three people: a clock unless the game says otherwise
        "free_seats": [1, 2],
        "levels": [None, None, None, "hard"],
        "people": 1,
        "players": [None, None, None, None],  # a person with no name shows none
        "win_score": 500,
        "lose_score": -200,
        "created_ms": ctx.store.load(game_id).created_ms,
    }
    commands.claim_seat(ctx, game_id, 1)
    assert [t["free_seats"] for t in listed(ctx)] == [[2]]
    commands.claim_seat(ctx, game_id, 2)
    assert listed(ctx) == []
    assert change_types(ctx) == ["table_opened", "table_changed", "table_closed"]


def test_a_game_that_is_not_public_never_touches_the_listing(world):
    ctx, _ = world
    create(ctx, OPEN3)
    assert listed(ctx) == [] and ctx.store.backend.tables.checks == {} and ctx.store.table_changes_after(0, 9) == []


def test_a_leave_lists_the_table_again_with_the_stand_in_or_the_open_seat(world):
    ctx, _ = world
    taken = create(ctx, [{"type": "human"}] * 4, **PUBLIC)
    assert listed(ctx) == []
    token = taken["seats"][2]["token"]
    commands.leave_seat(ctx, taken["game_id"], 2, token)
    (table,) = listed(ctx)
    assert (table["free_seats"], table["levels"], table["people"]) == ([2], [None, None, "standard", None], 3)
    no_takeover = create(ctx, [{"type": "human"}] * 4, options={"public": True, "ai_takeover": None})
    commands.leave_seat(ctx, no_takeover["game_id"], 0, no_takeover["seats"][0]["token"])
    assert {t["game_id"]: t["levels"] for t in listed(ctx)}[no_takeover["game_id"]] == [None] * 4


def test_a_finished_game_is_listed_no_more(world):
    ctx, _ = world
    created = create(ctx, [{"type": "human"}] * 4, rules=ONE_ROUND, seed=3, **PUBLIC)
    tokens = [s["token"] for s in created["seats"]]
    commands.leave_seat(ctx, created["game_id"], 3, tokens[3])  # a stand-in: listed mid-game
    assert len(listed(ctx)) == 1
    tokens[3] = commands.claim_seat(ctx, created["game_id"], 3)["token"]
    commands.leave_seat(ctx, created["game_id"], 3, tokens[3])
    tokens[3] = commands.claim_seat(ctx, created["game_id"], 3)["token"]
    play_to_the_end(ctx, created["game_id"], tokens)
    assert listed(ctx) == []
    # the stand-in left again, and the end: nothing is listed while the game is over
    record = ctx.store.load(created["game_id"])
    assert record.state.phase == "game_over" and not listing_entry(record).listed


def test_an_older_versions_sync_landing_late_changes_nothing(world):
    ctx, _ = world
    created = create(ctx, OPEN3, **PUBLIC)
    before = ctx.store.load(created["game_id"])
    commands.claim_seat(ctx, created["game_id"], 1)
    commands.claim_seat(ctx, created["game_id"], 2)
    assert listed(ctx) == []
    ListingHooks(ctx.store).after_seats(before)  # the creation's sync, delayed past the claims'
    assert listed(ctx) == []
    assert change_types(ctx) == ["table_opened", "table_changed", "table_closed"]


def test_a_creation_whose_sync_never_landed_is_listed_by_the_next_check(world):
    ctx, clock = world
    silent = dataclasses.replace(ctx, tables=_NoSync(ctx.store, 60.0, clock))
    created = create(silent, OPEN3, **PUBLIC)  # committed; its process "died" before syncing
    assert listed(ctx) == []
    assert check_tables(ctx.store, clock(), 60.0) == 0, "checked no sooner than it was made due"
    clock.now += 6
    assert check_tables(ctx.store, clock(), 60.0) == 1
    assert [t["game_id"] for t in listed(ctx)] == [created["game_id"]]


class _NoSync(ListingHooks):
    """Hooks whose process dies between the commit and the sync: the check before the commit is made."""

    def after_seats(self, record) -> None:
        return None


def test_an_expired_game_drops_out_at_its_next_check_and_its_tombstone_is_pruned(world):
    ctx, clock = world
    created = create(ctx, OPEN3, **PUBLIC)
    assert len(listed(ctx)) == 1
    ctx.store.backend.games.pop(created["game_id"])  # expired (Redis's TTL)
    clock.now += 61
    check_tables(ctx.store, clock(), 60.0)
    assert listed(ctx) == [] and change_types(ctx)[-1] == "table_closed"
    assert created["game_id"] in ctx.store.backend.tables.entries  # a tombstone: no late sync lists it again
    clock.now += 601
    check_tables(ctx.store, clock(), 60.0)
    assert ctx.store.backend.tables.entries == {} and ctx.store.backend.tables.checks == {}


def test_a_listed_tables_check_keeps_it_listed_and_logs_nothing(world):
    ctx, clock = world
    create(ctx, OPEN3, **PUBLIC)
    clock.now += 61
    assert check_tables(ctx.store, clock(), 60.0) == 1
    assert len(listed(ctx)) == 1 and change_types(ctx) == ["table_opened"]
    assert check_tables(ctx.store, clock(), 60.0) == 0, "checked again a minute later"


def test_pages_follow_the_cursor_newest_first_without_repeats(world):
    ctx, _ = world
    made = []
    for _ in range(7):
        made.append(create(ctx, OPEN3, **PUBLIC)["game_id"])
    seen, cursor = [], None
    while True:
        page = tables_page(ctx.store, TableFilters(), cursor, 3)
        seen += [t["game_id"] for t in page["tables"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    order = sorted(((ctx.store.load(g).created_ms, g) for g in made), reverse=True)
    assert seen == [g for _, g in order]


def test_filters_select_by_preset_clock_free_seats_and_level(world):
    ctx, _ = world
    plain = create(ctx, OPEN3, **PUBLIC)["game_id"]
    solo = create(ctx, OPEN3, rules={"preset": "individual"}, **PUBLIC)["game_id"]
    seats = [{"type": "human"}, {"type": "open"}, {"type": "ai"}, {"type": "ai"}]
    two_free = create(ctx, seats, options={"public": True, "clock": "none"})["game_id"]

    def ids(**filters) -> set[str]:
        return {t["game_id"] for t in tables_page(ctx.store, TableFilters(**filters), None, 50)["tables"]}

    assert ids(preset="individual") == {solo}
    assert ids(free_seats=2) == {plain, solo}
    assert ids(level="standard") == {two_free}
    assert ids(clock="none") == {two_free} and ids(clock="normal") == {plain, solo} and ids(clock="fast") == set()


def test_a_selective_filter_gives_short_pages_and_a_cursor_to_go_on(world, monkeypatch):
    ctx, _ = world
    monkeypatch.setattr("services.api.lobby.listing.SCAN_BUDGET", 2)
    monkeypatch.setattr("services.api.lobby.listing.CHUNK", 2)
    solo = create(ctx, OPEN3, rules={"preset": "individual"}, **PUBLIC)["game_id"]
    for _ in range(3):
        create(ctx, OPEN3, **PUBLIC)
    found, cursor, pages = [], None, 0
    while True:
        page = tables_page(ctx.store, TableFilters(preset="individual"), cursor, 10)
        pages += 1
        found += [t["game_id"] for t in page["tables"]]
        if page["next_cursor"] is None:
            break
        cursor = page["next_cursor"]
    assert found == [solo] and pages == 3  # two short pages, then an empty last one


def test_a_cursor_the_listing_did_not_issue_is_a_400():
    with pytest.raises(ApiError) as error:
        parse_cursor("not-a-cursor")
    assert error.value.status == 400 and error.value.extra["errors"][0]["field"] == "cursor"
    assert parse_cursor("12.abc_-") == (12, "abc_-")


def test_the_page_tells_where_the_lobby_stream_resumes(world):
    ctx, _ = world
    created = create(ctx, OPEN3, **PUBLIC)
    commands.claim_seat(ctx, created["game_id"], 1)
    assert tables_page(ctx.store, TableFilters(), None, 10)["last_seq"] == 2


def test_a_table_every_person_left_drops_out_and_comes_back_with_a_claim(world):
    ctx, _ = world
    created = create(ctx, [{"type": "human"}, {"type": "human"}, {"type": "ai"}, {"type": "ai"}], **PUBLIC)
    game_id, tokens = created["game_id"], [s.get("token") for s in created["seats"]]
    commands.leave_seat(ctx, game_id, 0, tokens[0])
    assert [t["people"] for t in listed(ctx)] == [1]
    commands.leave_seat(ctx, game_id, 1, tokens[1])
    assert listed(ctx) == [], "under way with nobody left: abandoned"
    commands.claim_seat(ctx, game_id, 1)
    assert [t["free_seats"] for t in listed(ctx)] == [[0]]


def test_a_table_nobody_sat_at_yet_is_listed(world):
    ctx, _ = world
    create(ctx, [{"type": "open"}] * 2 + [{"type": "ai"}] * 2, **PUBLIC)
    assert [t["people"] for t in listed(ctx)] == [0]
