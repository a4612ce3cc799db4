"""The web client's logic for tables with people, run in node (no server, no browser): the clock and
countdown arithmetic in the server's time (clock.js), the people a table tracks from views, log events
and the stream's other frames (people.js, events.js, transport.js), what the table is told (news.js),
the open tables kept from the lobby stream (tablelist.js), when your turn rings (attention.js) and
rejoin links (rejoin.js)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from services.web import WEB_ROOT


def run(tmp_path: Path, script: str) -> dict:
    """``script`` (an ES module body with ``js(name)`` to import a client module) prints one JSON value."""
    program = tmp_path / "check.mjs"
    program.write_text(f'const js = (m) => import("{(WEB_ROOT / "js").as_uri()}/" + m);\n{script}\n')
    out = subprocess.run(["node", str(program)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_the_clock_counts_in_server_time_whatever_the_local_clock(tmp_path):
    got = run(
        tmp_path,
        """
        const c = await js("clock.js");
        // the answer said 1_000_000 when the monotonic clock read 500: 2 s later it is 1_002_000,
        // whatever Date.now() says (a wrong system clock plays no part)
        const base = c.timeBase(1_000_000, 500);
        const clock = { seat: 1, deadline_ms: 1_000_000 + 8_000 + 30_000, reserve_ms: [60_000, 30_000, 0, 0], away: [false, false, false, false] };
        const at = (local) => c.clockParts(clock, c.serverNow(base, local));
        console.log(JSON.stringify({
          now: c.serverNow(base, 2_500), before: c.serverNow(base, 100),
          start: at(500), urgent: at(4_000), reserve: at(10_500), gone: at(40_000),
          away: c.clockParts({ ...clock, away: [false, true, false, false] }, 1_000_000),
          none: c.clockParts(null, 0), noSeat: c.clockParts({ ...clock, seat: null }, 0),
          formats: [0, 1, 999, 8_000, 8_001, 61_000, 600_000, 86_400_000].map(c.formatClock),
          words: [c.clockWords(at(500)), c.clockWords(at(10_500)), c.clockWords(at(40_000))],
          noBase: c.timeBase(undefined, 5),
          wait: [c.msLeft(1_020_000, c.serverNow(base, 500)), c.msLeft(1_020_000, c.serverNow(base, 5_500)), c.msLeft(1_020_000, 1_030_000)],
          merged: c.mergeClock(clock, { seat: 2, deadline_ms: 5, reserve_ms: 12_000 }).reserve_ms,
          mergedArray: c.mergeClock(clock, { seat: 0, reserve_ms: [1, 2, 3, 4] }).reserve_ms,
          fresh: c.mergeClock(null, { seat: 3, deadline_ms: 9 }).seat,
          noneRuns: c.mergeClock(clock, { seat: null, deadline_ms: null, reserve_ms: 5, move_ms: 10_000 }),
          words2: c.controlWords({ move_seconds: 10, reserve_seconds: 30 }), words3: c.controlWords({ move_seconds: 86400, reserve_seconds: 0 }),
          controls: c.timeControls({ time_controls: [{ name: "none" }, { name: "fast", move_seconds: 9, reserve_seconds: 1 }] }).map((x) => x.name),
          fallback: c.timeControls({}).map((x) => x.name),
        }));
        """,
    )
    assert got["now"] == 1_002_000 and got["before"] == 1_000_000, "time never runs backwards from a sample"
    assert got["start"] == {
        "seat": 1, "leftMs": 38_000, "moveMs": 8_000, "reserveMs": 30_000,
        "inReserve": False, "urgent": False, "expired": False,
    }  # fmt: skip
    assert got["urgent"]["moveMs"] == 4_500 and got["urgent"]["urgent"] and not got["urgent"]["inReserve"]
    assert got["reserve"]["moveMs"] == 0 and got["reserve"]["reserveMs"] == 28_000 and got["reserve"]["inReserve"]
    assert got["gone"]["expired"] and got["gone"]["leftMs"] == 0 and got["gone"]["reserveMs"] == 0
    assert got["away"] is None and got["none"] is None and got["noSeat"] is None, "no running clock"
    assert got["formats"] == ["0:00", "0:01", "0:01", "0:08", "0:09", "1:01", "10:00", "24 h 00 min"]
    assert got["words"] == ["8 seconds to move, then 30 seconds of reserve", "28 seconds of reserve left", "time is up"]
    assert got["noBase"] is None
    assert got["wait"] == [20_000, 15_000, 0], "the quick match's wait counts down in server time"
    assert got["merged"] == [60_000, 30_000, 12_000, 0] and got["mergedArray"] == [1, 2, 3, 4] and got["fresh"] == 3
    assert got["noneRuns"]["seat"] is None and got["noneRuns"]["reserve_ms"] == [60_000, 30_000, 0, 0], (
        "a turn_clock of no seat"
    )
    assert got["words2"] == "10 s a move + 30 s reserve" and got["words3"] == "24 h a move"
    assert got["controls"] == ["fast"] and got["fallback"] == ["fast", "normal", "relaxed", "correspondence"]


def test_the_table_tracks_clock_presence_messages_and_rematch(tmp_path):
    got = run(
        tmp_path,
        """
        const { People, BUBBLE_MS, isAway } = await js("people.js");
        const seats = (connected) => [0, 1, 2, 3].map((seat) => ({ seat, type: seat === 3 ? "ai" : "human", connected: connected[seat] }));
        const clock = { control: "fast", move_ms: 10_000, seat: 1, deadline_ms: 50_000, reserve_ms: [30_000, 30_000, 30_000, 0], away: [false, false, true, false] };
        const view = { version: 7, phase: "playing", turn: 1, you: 0, seats: seats([true, true, false, false]), clock, server_time_ms: 10_000,
                       messages: [{ seat: 1, code: "hello", at_ms: 9_000 }, { seat: 2, code: "oops", at_ms: 1_000 }] };
        const p = new People();
        p.fromView(view, 100);
        const out = {};
        out.clock = p.clockFor(view, 100);
        out.replayBehind = p.clockFor({ ...view, turn: 0 }, 100);  // a replayed copy whose turn is not the clock's yet
        out.waiting = p.clockFor({ ...view, phase: "waiting" }, 100);
        out.connected = [0, 1, 2, 3].map((s) => p.isConnected(view, s));
        out.away = [0, 1, 2, 3].map((s) => isAway(view, s));
        out.bubbles = [...p.bubbles.current(100)];  // hello (1 s old) shows; oops (9 s old) does not
        out.bubbleGone = [...p.bubbles.current(100 + BUBBLE_MS - 1000)];
        out.next = p.bubbles.nextChange(100);
        out.presence = [p.fromFrame("presence", { seats: [true, false, false, false] }, 200), p.fromFrame("presence", { seats: [true, false, false, false] }, 300)];
        out.afterPresence = [0, 1, 2, 3].map((s) => p.isConnected(view, s));
        out.message = [p.fromFrame("message", { seat: 2, code: "wow", at_ms: 10_500 }, 600), p.fromFrame("message", { seat: 2, code: "wow", at_ms: 10_500 }, 700)];
        out.stale = p.fromFrame("message", { seat: 1, code: "thanks", at_ms: 2_000 }, 600);
        out.shown = [...p.bubbles.current(700)];
        // a turn_clock frame and an event carrying a clock move the clock on; an older view does not take it back
        p.fromFrame("turn_clock", { seat: 0, deadline_ms: 90_000, reserve_ms: 25_000, server_time_ms: 60_000 }, 1_000);
        out.framed = p.clockFor({ ...view, turn: 0 }, 1_000);
        out.awaySeat = p.clockFor({ ...view, turn: 2 }, 1_000);  // an away seat is played at once: no clock
        p.fromEvents([{ seq: 9, type: "card_played", version: 9, clock: { seat: 3, deadline_ms: 70_000 }, data: {} }], 1_000);
        p.fromView({ ...view, version: 8 }, 1_000);
        out.kept = p.clock.seat;
        p.fromEvents([{ seq: 10, type: "rematch_offered", version: 10, data: { game_id: "next", seat: 1 } }], 1_000);
        out.rematch = [p.rematch, p.rematchSeat];
        const viewed = new People();
        viewed.fromView({ ...view, rematch: { game_id: "n2" } }, 0);
        out.viewed = [viewed.rematch, viewed.rematchSeat];
        // the service out of reach at 1_000: the clock stands still there, and runs on from the server's time once back
        const c = await js("clock.js");
        const still = new People();
        still.fromView(view, 100);
        still.interrupted(true, 1_000);
        still.interrupted(true, 5_000);  // still down: it stays where it stopped
        const pausedClock = still.clockFor(view, 20_000);
        out.paused = [pausedClock.paused, pausedClock.leftMs, c.clockState(pausedClock), c.clockShape(pausedClock), c.clockWords(pausedClock)];
        still.interrupted(false, 21_000);
        out.resumed = [still.clockFor(view, 21_000).paused || false, still.clockFor(view, 21_000).leftMs];
        const quiet = new People();
        quiet.fromView({ ...view, seats: view.seats.map(({ connected, ...s }) => s), clock: null, messages: undefined }, 0);
        out.noPresence = quiet.isConnected(view, 1);
        out.noClock = quiet.clockFor(view, 0);
        console.log(JSON.stringify(out));
        """,
    )
    assert got["clock"]["seat"] == 1 and got["clock"]["leftMs"] == 40_000 and got["clock"]["moveMs"] == 10_000
    assert got["replayBehind"] is None and got["waiting"] is None
    assert got["connected"] == [True, True, False, None], "your own seat is connected; a computer has no dot"
    assert got["away"] == [False, False, True, False]
    assert got["bubbles"] == [[1, "hello"]] and got["bubbleGone"] == [] and got["next"] == 4000
    assert got["presence"] == [True, False], "a frame that changes nothing draws nothing"
    assert got["afterPresence"] == [True, False, False, None]
    assert got["message"] == [True, False], "one message, one bubble, however often it comes"
    assert got["stale"] is False and got["shown"] == [[1, "hello"], [2, "wow"]]
    assert got["framed"]["seat"] == 0 and got["framed"]["leftMs"] == 30_000 and got["framed"]["reserveMs"] == 25_000
    assert got["awaySeat"] is None
    assert got["kept"] == 3 and got["rematch"] == ["next", 1] and got["viewed"] == ["n2", None]
    assert got["noPresence"] is None and got["noClock"] is None
    # 900 ms after the view (40 s left) the service went out of reach: 39.1 s shown, standing still
    assert got["paused"] == [
        True,
        39_100,
        "paused",
        "paused",
        "clock paused with 40 seconds left: the service is interrupted",
    ]
    assert got["resumed"] == [False, 19_100], "back: the server's time again (until its view gives the time back)"


def test_seat_events_replay_onto_the_view_and_are_told_to_the_table(tmp_path):
    got = run(
        tmp_path,
        """
        const { step } = await js("events.js");
        const { seatNews, messageCodes, messageText } = await js("news.js");
        const { sortMessages } = await js("transport.js");
        const view = { version: 4, you: 0, phase: "bidding", turn: 1, legal: ["AS"], options: { ai_takeover: "easy" }, bids: [null, null, null, null],
                       clock: { seat: 1, deadline_ms: 9, reserve_ms: [1, 2, 3, 4], away: [false, false, false, false] }, seats: [] };
        const ev = (type, data, extra = {}) => ({ seq: 5, version: 5, type, data, ...extra });
        const away = step(view, ev("seat_away", { seat: 2 }));
        const back = step(away.view, ev("seat_back", { seat: 2 }));
        const timed = step(view, ev("turn_timed_out", { seat: 1, level: "easy" }));
        const credited = step(view, ev("clock_credited", { seat: 1, outage_ms: 20_000, given_ms: 21_400, back_ms: 5 }));
        const tc = step(view, ev("turn_clock", { seat: 2, deadline_ms: 99, reserve_ms: 7, server_time_ms: 1 }));
        const carried = step(view, ev("bid", { seat: 1, bid: 3 }, { clock: { seat: 2, deadline_ms: 77 } }));
        const offered = step({ ...view, phase: "game_over" }, ev("rematch_offered", { game_id: "g2", seat: 1 }));
        const left = step(view, ev("seat_left", { seat: 1 }));
        const unknown = step(view, ev("not_stepped_yet", { seat: 1 })); // a type added to the log after this client
        const news = [
          ["seat_left", 1], ["seat_left", 0], ["seat_away", 1], ["seat_away", 0], ["seat_back", 2], ["seat_back", 0],
          ["seat_rejoined", 3], ["turn_timed_out", 0], ["turn_timed_out", 3], ["seat_claimed", 2], ["bid", 1],
          ["rematch_offered", 1], ["rematch_offered", 0], ["reservation_ended", undefined],
        ].map(([type, seat]) => seatNews(view, { type, data: { seat } }));
        const creditNews = [1, 0].map((seat) => seatNews(view, { type: "clock_credited", data: { seat, given_ms: 21_400 } }));
        const sorted = sortMessages([
          { id: "5", event: "bid", data: '{"seq":5,"type":"bid","version":3,"data":{}}' },
          { id: "5", event: "presence", data: '{"seats":[true,false,true,false]}' },
          { id: "5", event: "message", data: '{"seat":1,"code":"hello","at_ms":3}' },
        ]);
        console.log(JSON.stringify({
          away: [away.view.clock.away, away.needsView || false, away.view.legal, away.say], back: back.view.clock.away,
          original: view.clock.away, timed: [timed.needsView || false, timed.view.turn, timed.say],
          credited: [credited.needsView || false, credited.view.clock.deadline_ms, credited.say], creditNews,
          tc: [tc.view.clock.seat, tc.view.clock.deadline_ms, tc.view.clock.reserve_ms, "server_time_ms" in tc.view.clock],
          carried: [carried.view.clock.seat, carried.view.clock.deadline_ms, carried.view.turn],
          offered: [offered.view.rematch, offered.say], left: left.needsView, news,
          unknown: [unknown.needsView, unknown.view === view, unknown.say, seatNews(view, ev("not_stepped_yet", { seat: 1 }))],
          sorted: [sorted.events.map((e) => e.seq), sorted.frames.map((f) => f.name)],
          codes: [messageCodes(), messageText("nice_bid"), messageText("new_one")],
        }));
        """,
    )
    assert got["away"] == [[False, False, True, False], False, [], "North is away: the computer plays for them."]
    assert got["back"] == [False] * 4 and got["original"] == [False] * 4, "the view before is never changed"
    assert got["timed"] == [False, 1, "West ran out of time: the computer moves for them."], "its move follows"
    assert got["credited"] == [False, 9, "The service was interrupted: West gets 21 seconds back on the clock."]
    assert got["creditNews"] == [
        "The service was interrupted: West's clock got 21 seconds back.",
        "The service was interrupted: your clock got 21 seconds back.",
    ], "its turn_clock follows with the deadline"
    assert got["tc"] == [2, 99, [1, 2, 7, 4], False]
    assert got["carried"] == [2, 77, 2]
    assert got["offered"] == [{"game_id": "g2"}, "West offered a rematch."] and got["left"] is True
    assert got["unknown"] == [True, True, "", None], "a type with no step: the view read again, nothing said"
    assert got["news"] == [
        "West left the table: a computer plays the seat.",
        None,
        "West is away: the computer plays for them.",
        "You're away: the computer plays for you until you're back.",
        "North is back.",
        None,
        "East is back.",
        "Your time ran out: the computer moved for you.",
        "East ran out of time: the computer moved for them.",
        "A player sat down at North.",
        None,
        "West offered a rematch.",
        None,
        "The rematch's seats still kept went to computers: anyone may take them.",
    ]
    assert got["sorted"] == [[5], ["presence", "message"]], "frames outside the log never move the resume point"
    assert got["codes"] == [
        ["hello", "good_game", "well_played", "nice_bid", "oops", "thanks", "hurry", "wow"], "Nice bid", "New one",
    ]  # fmt: skip


def test_the_open_tables_follow_the_lobby_stream(tmp_path):
    got = run(
        tmp_path,
        """
        const t = await js("tablelist.js");
        const table = (id, extra) => ({ game_id: id, rules: { preset: "partnership", house_rules: [] }, clock: "normal",
                                        free_seats: [1], levels: [null, null, null, null], people: 1, created_ms: 0, ...extra });
        const change = (type, id, tableOrNull) => ({ seq: 1, type, game_id: id, at_ms: 5, table: tableOrNull });
        const page = t.tablePage({ tables: [
          table("a", { rules: { preset: "partnership", house_rules: ["jokers"] }, free_seats: [1, 2], levels: [null, "easy", null, "easy"], created_ms: 10 }),
          table("b", { rules: { preset: "individual", house_rules: [] }, clock: "fast", free_seats: [3], people: 3, created_ms: 20 }),
        ], next_cursor: "c2", last_seq: 40 });
        const tables = new Map(page.items.map((i) => [i.gameId, i]));
        const changes = [
          t.applyTableChange(tables, "table_opened", change("table_opened", "c", table("c", { clock: "relaxed", free_seats: [2], people: 2, created_ms: 30 }))),
          t.applyTableChange(tables, "table_changed", change("table_changed", "a", table("a", { free_seats: [2], people: 2, created_ms: 10 }))),
          t.applyTableChange(tables, "table_changed", change("table_changed", "b", table("b", { clock: "fast", free_seats: [], people: 4, created_ms: 20 }))),
          t.applyTableChange(tables, "table_closed", change("table_closed", "c", null)),
          t.applyTableChange(tables, "table_closed", change("table_closed", "nope", null)),
          t.applyTableChange(tables, "message", change("table_opened", "d", table("d", { clock: "fast", free_seats: [0], created_ms: 40 }))),
          t.applyTableChange(tables, "table_opened", change("table_opened", "e", table("e", { clock: "fast", created_ms: 50 })), { clock: "normal" }),
        ];
        const first = page.items[0];
        console.log(JSON.stringify({
          first, cursor: page.cursor, second: [page.items[1].clock, page.items[1].people, page.items[1].preset], changes,
          listed: t.listed(tables).map((i) => [i.gameId, i.freeSeats]),
          words: t.tableWords(first), free: t.freeWords(first),
          titles: [t.tableTitle(first), t.tableTitle(t.tableItem({ ...table("h", {}), win_score: 1, players: [null, { id: "p_1", name: "Ada", kind: "person" }, null, null] }))],
          filter: [t.passes(first, { clock: "fast" }), t.passes(first, { preset: "partnership", clock: "normal" })],
        }));
        """,
    )
    assert got["first"] == {
        "gameId": "a", "preset": "partnership", "houseRules": ["jokers"], "clock": "normal",
        "freeSeats": [1, 2], "levels": ["easy", "easy"], "people": 1, "names": [], "winScore": None, "created": 10,
    }  # fmt: skip
    assert got["titles"] == ["A table", "Ada's table · to 1 point"]  # an older server's table: no target
    assert got["cursor"] == "c2" and got["second"] == ["fast", 3, "individual"]
    assert got["changes"] == [True, True, True, True, False, True, False]
    assert got["listed"] == [["d", [0]], ["a", [2]]], "newest first; full and closed tables gone; filtered out"
    assert got["words"] == "partnership · normal clock · 1 person, computers: easy · 1 house rule"
    assert got["free"] == "Free: West, North"
    assert got["filter"] == [False, True]


def test_your_turn_rings_once_and_only_if_it_began_out_of_sight(tmp_path):
    got = run(
        tmp_path,
        """
        const { turnSignal } = await js("attention.js");
        const { parseRejoin } = await js("rejoin.js");
        let state = { rung: null, seen: null };
        const steps = [
          { myTurn: false, hidden: true, key: "a" },  // not yours
          { myTurn: true, hidden: true, key: "b" },   // yours, out of sight: ring
          { myTurn: true, hidden: true, key: "b" },   // drawn again: no second ring
          { myTurn: true, hidden: false, key: "b" },  // looked at
          { myTurn: false, hidden: false, key: "c" },
          { myTurn: true, hidden: false, key: "d" },  // yours while looking…
          { myTurn: true, hidden: true, key: "d" },   // …then the tab is left: marked, no ring
          { myTurn: true, hidden: true, key: "e" },   // the next turn, out of sight: ring
        ].map((now) => {
          const s = turnSignal(state, now);
          state = s.state;
          return [s.mark, s.ring];
        });
        const links = [
          "https://spades.example/play#rejoin=Ab_c-1.K7QX-9ZP2-MW4C", "#rejoin=G1.c0de", " G1.c0de ", "G1 . k7qx 9zp2 mw4c",
          "G1", "https://x/play?game=G1", "#rejoin=G1.", "#rejoin=../x.y", "",
        ].map(parseRejoin);
        console.log(JSON.stringify({ steps, links }));
        """,
    )
    assert got["steps"] == [
        [False, False], [True, True], [True, False], [False, False], [False, False], [False, False], [True, False], [True, True],
    ]  # fmt: skip
    assert got["links"] == [
        {"gameId": "Ab_c-1", "code": "K7QX-9ZP2-MW4C"}, {"gameId": "G1", "code": "c0de"}, {"gameId": "G1", "code": "c0de"},
        {"gameId": "G1", "code": "k7qx9zp2mw4c"}, None, None, None, None, None,
    ]  # fmt: skip
