"""The event pages' pure parts, run in node (no server, no browser): the fragment addresses of the events, an
event and a board's scoresheet (router.js); the pair a player is in or invited to and its table in the current
round (eventpage.js); the expert's par as the scoresheet shows it, "—" while the server has none, a negative with
U+2212 (scoresheet.js)."""

from __future__ import annotations

from .test_players_logic import node

EVENT = {
    "status": "running",
    "pairs": [
        {
            "pair_id": "a",
            "number": 1,
            "kind": "players",
            "invited": None,
            "players": [{"player_id": "p1"}, {"player_id": "p2"}],
        },
        {
            "pair_id": "b",
            "number": 2,
            "kind": "players",
            "invited": None,
            "players": [{"player_id": "p3"}, {"player_id": "p4"}],
        },
        {"pair_id": "c", "number": 3, "kind": "players", "invited": "p6", "players": [{"player_id": "p5"}]},
    ],
    "current_round": {"number": 1, "tables_finished": [1], "tables": [{"table": 1, "ns": 2, "ew": 1, "game_id": "g1"}]},
}


def test_event_addresses_pairs_tables_and_par(tmp_path):
    got = node(
        tmp_path,
        """
        const router = await js("router.js");
        const page = await js("eventpage.js");
        const sheet = await js("scoresheet.js");
        const event = data;
        console.log(JSON.stringify({
          pages: ["#/events", "#/events/e_1-x", "#/events/e1/boards/12", "#/events/e1/boards/0", "#/events/a%2Fb"]
            .map(router.fragmentPage),
          mine: ["p2", "p6", "p9", null].map((id) => (page.pairOf(event, id) || {}).pair_id || null),
          table: page.yourTable(event, page.pairOf(event, "p1")),
          none: page.yourTable(event, page.pairOf(event, "p5")),
          open: page.yourTable({ ...event, status: "open" }, page.pairOf(event, "p1")),
          par: [[null, "ns"], [120, "ns"], [120, "ew"], [{ ns: -60, ew: 60 }, "ns"], [{}, "ew"]].map(([p, s]) => sheet.parText(p, s)),
          progress: [event, { ...event, status: "finished" }].map(page.progressOf),
        }));
        """,
        EVENT,
    )
    assert got["pages"] == [
        {"page": "events"},
        {"page": "event", "id": "e_1-x"},
        {"page": "board", "id": "e1", "board": 12},
        None,
        None,
    ]
    assert got["mine"] == ["a", "c", None, None], "a member's pair, an invited player's pair, none"
    assert got["table"] == {"table": EVENT["current_round"]["tables"][0], "side": "ew", "against": 2}
    assert got["none"] is None and got["open"] is None, "no number yet, or no round: no table"
    assert got["par"] == ["—", "120", "\u2212120", "\u221260", "—"]
    assert got["progress"] == [{"finished": 1, "tables": [1]}, None], "the round's finished tables; none once over"


def test_an_arenas_time_left_and_your_line(tmp_path):
    """The time left as minutes and seconds (rounded up, never below zero); your line by your entrant's status."""
    got = node(
        tmp_path,
        """
        const arena = await js("arenapage.js");
        const event = { status: "running" };
        const entrant = (status) => ({ status, rank: 2, points: 6 });
        console.log(JSON.stringify({
          left: [1_800_000, 61_001, 60_000, 999, 0, -5_000].map(arena.timeLeftText),
          lines: [null, entrant("waiting"), entrant("playing"), entrant("withdrawn"), entrant("finished")]
            .map((e) => arena.entrantLine(e, event)),
          over: arena.entrantLine(null, { status: "finished" }),
        }));
        """,
        {},
    )
    assert got["left"] == ["30:00", "1:02", "1:00", "0:01", "0:00", "0:00"]
    assert got["lines"] == [
        "You are not in this arena yet.",
        "You are in: rank 2, 6 points. Waiting for a table…",
        "Your game is ready: rank 2, 6 points.",
        "You withdrew at rank 2 with 6 points: join again to play on.",
        "You finished at rank 2 with 6 points.",
    ]
    assert got["over"] == "The arena is over."
