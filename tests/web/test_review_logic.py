"""What a round's review says each move cost, run in node (no server, no browser): reviewcost.js reads the
API's `given_away`, `accurate` and candidates' values into whole points, the verdict's kind, each step's
cost, the round's total and its biggest mistakes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from services.web import WEB_ROOT

from .review_decisions import blind_look, nil_pass


def run(tmp_path: Path, script: str, data: object) -> dict:
    """``script`` (an ES module body with ``cost``, reviewcost.js, and ``data``) prints one JSON value."""
    (tmp_path / "data.json").write_text(json.dumps(data))
    program = tmp_path / "check.mjs"
    program.write_text(
        f'import {{ readFileSync }} from "node:fs";\n'
        f'const cost = await import("{(WEB_ROOT / "js" / "reviewcost.js").as_uri()}");\n'
        f'const data = JSON.parse(readFileSync("{tmp_path / "data.json"}", "utf8"));\n{script}\n'
    )
    out = subprocess.run(["node", str(program)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def card(trick: int, made: str, best: str, values: dict[str, float], accurate: bool | None = None) -> dict:
    """A card decision as the API answers it: `given_away` is the best value less the made card's."""
    given = round(max(values.values()) - values[made], 2) if len(values) > 1 else None
    return {
        "trick": trick,
        "made": {"card": made},
        "best": {"card": best},
        "candidates": [{"card": c, "value": v, "trick_chance": 0.5} for c, v in values.items()]
        if len(values) > 1
        else [{"card": made}],
        "given_away": given,
        "accurate": None if given is None else (given <= 5 if accurate is None else accurate),
    }


BID = {  # bid 3 where expert would bid 4 for 12.4 more
    "made": {"bid": 3},
    "best": {"bid": 4},
    "candidates": [{"bid": 3, "value": -118.2, "make_chance": 0.7}, {"bid": 4, "value": -105.8, "make_chance": 0.6}],
    "given_away": 12.4,
    "accurate": False,
}
ROUND = [
    BID,
    card(1, "KS", "KS", {"KS": -110.0, "2S": -131.5}),  # the best card
    card(2, "8S", "7S", {"7S": -120.3, "8S": -120.6, "3S": -125.0}),  # 0.3 away: as good, to the whole point
    card(3, "2H", "AH", {"AH": -100.0, "2H": -103.0}),  # 3 points: close, not a mistake
    card(4, "QD", "QD", {"QD": -150.0}),  # the only card
    card(5, "3C", "KC", {"KC": -90.0, "3C": -250.0, "4C": -240.0}),  # 160 points: the biggest mistake
    card(6, "9H", "TH", {"TH": -112.5, "9H": -120.0}),  # 7.5 points: a mistake, shown as 8
]


def test_each_decision_costs_whole_points_against_the_best(tmp_path):
    got = run(tmp_path, "console.log(JSON.stringify(data.map(cost.costOf)));", ROUND)
    assert got == [
        {"kind": "gave", "points": 12, "mistake": True},
        {"kind": "best", "points": 0, "mistake": False},
        {"kind": "asGood", "points": 0, "mistake": False},
        {"kind": "gave", "points": 3, "mistake": False},
        {"kind": "only", "points": None, "mistake": False},
        {"kind": "gave", "points": 160, "mistake": True},
        {"kind": "gave", "points": 8, "mistake": True},
    ]


def test_a_pass_expert_did_not_weigh_is_not_scored_and_figures_round_as_a_score_does(tmp_path):
    unweighed = {
        "made": {"pass": ["3D", "2C"]},
        "best": {"pass": ["2C", "4H"]},
        "candidates": [{"pass": ["2C", "4H"], "value": 10.0}, {"pass": ["4H", "5H"], "value": 8.0}],
        "given_away": None,
        "accurate": None,
    }
    got = run(
        tmp_path,
        """console.log(JSON.stringify({
          pass: cost.costOf(data),
          whole: [2.4999999, 2.5, 0.49, 0.5, 12.4].map(cost.wholePoints),
          keys: [{ card: "KS" }, { bid: 0 }, { bid: 0, blind: true }, { look: true }, { pass: ["3D", "2C"] }].map(cost.moveKey),
          same: cost.sameMove({ pass: ["3D", "2C"] }, { pass: ["2C", "3D"] }),
        }));""",
        unweighed,
    )
    assert got["pass"] == {"kind": "unscored", "points": None, "mistake": False}
    assert got["whole"] == [3, 3, 0, 1, 12], "figures come to two decimals: 2.4999999 is 2.5"
    assert got["keys"] == ["KS", "0", "blind 0", "look", "pass 2C 3D"] and got["same"]


def test_every_candidate_is_shown_against_the_best_and_yours_at_its_cost(tmp_path):
    got = run(tmp_path, "console.log(JSON.stringify(data.map(cost.candidateCosts)));", ROUND)
    assert got[0] == [12, 0], "the bid's candidates: 3 gave away 12, 4 is the best"
    assert got[2] == [0, 0, 5], "8♠ 0.3 away shows 0, as its verdict says"
    assert got[4] == [None], "a lone card has no figure"
    assert got[5] == [0, 160, 150]


def test_the_round_adds_up_what_its_steps_show_and_lists_its_biggest_mistakes(tmp_path):
    got = run(
        tmp_path,
        """const total = cost.roundCost(data);
        console.log(JSON.stringify({
          points: total.points, scored: total.scored, close: total.close,
          mistakes: total.mistakes.map((m) => [m.step, m.cost.points]),
          steps: Array.from({ length: 7 }, (_, k) => cost.stepCost(data.filter((d) => cost.stepOf(d) === k))),
          none: cost.stepCost([]),
        }));""",
        ROUND,
    )
    assert got["points"] == 12 + 3 + 160 + 8, "the sum of the figures each move shows"
    assert got["scored"] == 6 and got["close"] == 3, "the only card is not scored"
    assert got["mistakes"] == [[5, 160], [0, 12], [6, 8]], "biggest first, at most three, no close move"
    assert [s["points"] for s in got["steps"]] == [12, 0, 0, 3, 0, 160, 8]
    assert [s["mistake"] for s in got["steps"]] == [True, False, False, False, False, True, True]
    assert got["steps"][4]["scored"] is False and got["none"] == {"points": 0, "mistake": False, "scored": False}


def test_the_bidding_step_adds_up_a_blind_decision_its_bid_and_its_pass(tmp_path):
    blind, passed = blind_look(), nil_pass()
    got = run(
        tmp_path,
        """console.log(JSON.stringify({ step: cost.stepCost(data), kinds: data.map((d) => cost.costOf(d).kind),
          at: data.map(cost.stepOf) }));""",
        [blind, BID, passed],
    )
    assert got == {
        "step": {"points": 18, "mistake": True, "scored": True},
        "kinds": ["gave", "gave", "best"],
        "at": [0, 0, 0],
    }
