"""Rated play at the table, run in node (no server, no browser): fairplay.js reads the view's ``fair_play``
(services/api/games/fair_play.py) into the table's mark, the hint seam, the leave warning and the forfeits;
a ``fair_play`` event has no step in events.js, so the table reads the view again."""

from __future__ import annotations

from tests.web.test_people_logic import run


def test_the_table_reads_rated_play_from_the_view(tmp_path):
    got = run(
        tmp_path,
        """
        const f = await js("fairplay.js");
        const hint = await js("hint.js");
        const events = await js("events.js");
        const base = { you: 0, phase: "bidding", round: 1, trick: [], tricks: [], options: { hints: true } };
        const counts = { counts: true, reason: null, forfeits: [] };
        const views = {
          unrated: { ...base },
          bidding: { ...base, fair_play: counts },
          firstCard: { ...base, phase: "playing", trick: [{ seat: 1, card: "2C" }], fair_play: counts },
          laterTrick: { ...base, phase: "playing", tricks: [{ winner: 1, cards: [] }], fair_play: counts },
          round2: { ...base, round: 2, fair_play: counts },
          over: { ...base, phase: "game_over", round: 3, fair_play: counts },
          aborted: { ...base, fair_play: { counts: false, reason: "aborted", forfeits: [] } },
          shared: { ...base, fair_play: { counts: false, reason: "shared_client", forfeits: [] } },
          watching: { ...base, you: null, fair_play: counts },
        };
        const out = {};
        for (const [name, v] of Object.entries(views)) {
          const mark = f.ratedMark(v);
          out[name] = { rated: f.ratedInPlay(v), cost: f.leaveCost(v), hints: hint.hintsAllowed(v), mark: mark && [mark.rated, mark.text] };
        }
        const forfeitView = { ...base, fair_play: { counts: true, reason: null, forfeits: [2] } };
        out.forfeits = [0, 1, 2, 3].map((s) => f.forfeited(forfeitView, s)).concat(f.forfeited(base, 2));
        const fairEvent = { seq: 9, type: "fair_play", data: { counts: false, reason: "aborted", forfeits: [] } };
        out.reread = Boolean(events.step(views.bidding, fairEvent).needsView);
        console.log(JSON.stringify(out));
        """,
    )
    assert got["unrated"] == {"rated": False, "cost": None, "hints": True, "mark": None}, "a game not made to count"
    assert got["bidding"] == {"rated": True, "cost": "abort", "hints": False, "mark": [True, "Rated"]}
    assert got["firstCard"]["cost"] == "forfeit" and got["laterTrick"]["cost"] == "forfeit"
    assert got["round2"]["cost"] == "forfeit", "past round 1 a card was played"
    assert got["over"] == {"rated": False, "cost": None, "hints": True, "mark": None}, "hints and reviews once over"
    assert got["aborted"]["mark"] == [False, "Not rated: a player left before the first card"]
    assert got["aborted"]["hints"] and got["aborted"]["cost"] is None, "no longer counting: no rule of rated play"
    assert got["shared"]["mark"] == [False, "Not rated: one device on two seats"]
    assert got["watching"]["cost"] is None and not got["watching"]["hints"]
    assert got["forfeits"] == [False, False, True, False, False]
    assert got["reread"], "a fair_play event has no step: the view is read again"
