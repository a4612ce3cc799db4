"""The web client's pure modules run in node against the engine (no server, no browser): replaying a
whole game's events (events.js) gives the seat's view after every move; a round's points taken
apart (tracking.js) add up to the engine's score for every variant; the reason for an unplayable
card (reasons.js); where the focus starts among the bids (bidding.js). node is part of the machine
image (tests/web/test_serving.py uses it too): a short command on files, not a service."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.events import visible_event
from services.api.games.move_request import MoveRequest, parse_move
from services.api.games.rendering import game_view
from services.api.http import request_schemas
from services.api.store.memory_store import MemoryStore
from services.engine import OPTION_DOCS, OPTION_RANGES, turn, view
from services.engine.rules import HOUSE_RULES
from services.web import WEB_ROOT

SEAT = 0
COMPARED = ("phase", "round", "dealer", "turn", "bids", "tricks_won", "hand_sizes", "trick", "tricks", "last_trick",
            "spades_broken", "scores", "bags", "history", "winner")  # fmt: skip


def node(tmp_path: Path, script: str, data: object) -> object:
    (tmp_path / "data.json").write_text(json.dumps(data))
    program = tmp_path / "check.mjs"
    program.write_text(
        f'import {{ readFileSync }} from "node:fs";\nconst js = (m) => import("{(WEB_ROOT / "js").as_uri()}/" + m);\n'
        f'const data = JSON.parse(readFileSync("{tmp_path / "data.json"}", "utf8"));\n{script}\n'
    )
    out = subprocess.run(["node", str(program)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def played_game(rules: dict, seed: int) -> tuple[list[dict], dict]:
    """A four-person game played with random legal moves through three rounds (or to its end): per
    move, the events seat 0 sees and its view after them; and the first view."""
    ctx = Collaborators(MemoryStore())
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": [{"type": "human"}] * 4, "seed": seed, "rules": rules})
    created = commands.create_game(ctx, body)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    record = ctx.store.load(game_id)
    first, seq = game_view(record, SEAT), record.seq
    rng, steps = random.Random(seed), []
    while record.state.phase != "game_over" and len(record.state.history) < 3:
        mover = turn(record.state)
        legal = view(record.state, mover, history=False)["legal"]
        kind = "bid" if record.state.phase == "bidding" else "play"
        move = parse_move(kind, {"bid": rng.choice(legal)} if kind == "bid" else {"card": rng.choice(legal)})
        commands.make_move(ctx, game_id, MoveRequest(token=tokens[mover], move=move))
        record = ctx.store.load(game_id)
        events = [visible_event(e, SEAT) for e in ctx.store.events_after(game_id, seq, 1000)]
        seq = record.seq
        steps.append({"events": events, "view": game_view(record, SEAT)})
    return steps, first


VARIANTS = [
    {"preset": "partnership", "win_score": 1000, "lose_score": -100000},
    {
        "preset": "partnership",
        "win_score": 1000,
        "lose_score": -100000,
        "set_penalty": "zero",
        "nil_tricks_count_for_team": True,
        "bag_limit": 3,
    },
    {"preset": "individual", "win_score": 1000, "lose_score": -100000},
    {
        "preset": "individual",
        "win_score": 1000,
        "lose_score": -100000,
        "bag_penalty": 50,
        "bag_limit": 2,
        "nil_value": 50,
    },
]


@pytest.mark.parametrize("rules", VARIANTS, ids=["partnership", "partnership-variant", "individual", "individual-bags"])
def test_replaying_the_events_gives_the_seats_view_and_points_add_up_part_by_part(tmp_path, rules):
    steps, first = played_game(rules, seed=len(json.dumps(rules)))
    result = node(
        tmp_path,
        f"""const {{ step }} = await js("events.js");
const {{ roundParts, bagsBefore }} = await js("tracking.js");
const fields = {json.dumps(COMPARED)};
const pick = (v) => Object.fromEntries(fields.map((f) => [f, v[f]]).concat([["hand", [...(v.hand || [])].sort()]]));
let shown = data.first, mismatches = [], replayed = 0;
for (const s of data.steps) {{
  for (const e of s.events) {{
    const out = step(shown, e);
    shown = out.needsView ? s.view : out.view;
    replayed += 1;
  }}
  const a = JSON.stringify(pick(shown)), b = JSON.stringify(pick(s.view));
  if (a !== b) mismatches.push([s.view.version, a, b]);
  shown = s.view;  // the page reads the view again once the feed is quiet
}}
const last = data.steps[data.steps.length - 1].view;
const parts = last.history.map((r) => roundParts(last.rules, r, bagsBefore(last.history, r)));
const wrong = parts.flat().filter((p) => !p.consistent);
console.log(JSON.stringify({{ mismatches: mismatches.slice(0, 3), replayed, rounds: parts.length, wrong,
  penalties: parts.flat().filter((p) => p.penalty < 0).length, nils: parts.flat().filter((p) => p.nils.length).length }}));""",
        {"steps": steps, "first": first},
    )
    assert result["mismatches"] == [] and result["replayed"] > 52
    assert result["rounds"] == 3 and result["wrong"] == [], "contract + bags + bag penalty + nil = the round's points"
    if rules.get("bag_limit", 10) <= 3:
        assert result["penalties"] > 0, "the bag penalty was part of the sum"


def test_the_reason_for_an_unplayable_card(tmp_path):
    rules = {"spades_must_be_broken": True}
    base = {
        "phase": "playing",
        "turn": 0,
        "legal": ["2C", "KC"],
        "hand": ["2C", "KC", "AH", "3S"],
        "rules": rules,
        "spades_broken": False,
    }
    cases = [
        ({**base, "trick": [{"seat": 3, "card": "5C"}]}, "AH", True),
        ({**base, "trick": [], "legal": ["2C", "KC", "AH"]}, "3S", True),
        ({**base, "turn": 2, "trick": []}, "AH", False),
        ({**base, "phase": "bidding", "trick": []}, "AH", False),
    ]
    said = node(
        tmp_path,
        'const { whyUnplayable } = await js("reasons.js");\n'
        "console.log(JSON.stringify(data.map(([v, c, mine]) => whyUnplayable(v, c, { myTurn: mine }))));",
        cases,
    )
    assert said[0].startswith("You must follow clubs")
    assert said[1] == "Spades aren't broken yet: lead another suit."
    assert said[2] == "It's North's turn to play, not yours yet."
    assert said[3] == "Cards are played once everyone has bid."


def test_the_focus_starts_on_the_hinted_bid_or_the_lowest_count_never_on_nil(tmp_path):
    starts = node(
        tmp_path,
        'const { firstFocus } = await js("bidding.js");\n'
        "console.log(JSON.stringify(data.map(([legal, hint]) => firstFocus(legal, hint ?? undefined))));",
        [[[0, 3, 4, 5], None], [[0, 1, 2], 2], [[0], None], [[2, 3], None]],
    )
    assert starts == [3, 2, 0, 2]


def test_contracts_bags_and_nils_as_the_scoreboard_tracks_them(tmp_path):
    rules = {"scoring": "partnership", "nil_tricks_count_for_team": False, "bag_limit": 10, "bag_penalty": 100}
    views = [  # North (2) bid nil and has taken a trick; East (3) bid nil and has not
        {"rules": rules, "bids": [4, 3, 0, 0], "tricks_won": [5, 1, 1, 0], "bags": [8, 2], "phase": "playing"},
        {"rules": {**rules, "nil_tricks_count_for_team": True}, "bids": [4, 3, 0, 0], "tricks_won": [5, 1, 1, 0], "bags": [8, 2], "phase": "playing"},
        {"rules": rules, "bids": [6, 4, 5, 2], "tricks_won": [1, 6, 0, 5], "bags": [0, 0], "phase": "playing"},
        {"rules": rules, "bids": [6, None, None, None], "tricks_won": [0, 0, 0, 0], "bags": [0, 0], "phase": "bidding"},
    ]  # fmt: skip
    tracked = node(
        tmp_path,
        'const t = await js("tracking.js");\n'
        "console.log(JSON.stringify(data.map((v) => ({ c: [0, 1].map((s) => t.contractOf(v, s)),"
        " b: [0, 1].map((s) => t.bagsToward(v, s)), n: t.nilsOf(v) }))));",
        views,
    )
    first, counted, late, bidding = tracked
    assert first["n"] == [{"seat": 2, "alive": False}, {"seat": 3, "alive": True}]
    assert (first["c"][0]["bid"], first["c"][0]["taken"], first["c"][0]["made"]) == (4, 5, True), (
        "the nil's trick doesn't count"
    )
    assert (first["b"][0]["bags"], first["b"][0]["limit"], first["b"][0]["close"]) == (9, 10, True), (
        "8 + this round's 1"
    )
    assert (counted["c"][0]["taken"], counted["b"][0]["bags"]) == (6, 10), "unless the rules count it"
    assert late["c"][0] == {**late["c"][0], "bid": 11, "taken": 1, "set": True, "made": False}, (
        "11 bid, 1 won, 1 trick left"
    )
    assert bidding["c"][0]["bid"] is None and bidding["c"][0]["complete"] is False


def test_house_rules_offer_every_option_with_the_engines_ranges(tmp_path):
    """The lobby's "House rules" cover every rule option of the seeds (scoring is the preset), each number
    with the engine's range: no option the API takes is missing, none is checked differently.  The
    variants of ``HOUSE_RULES`` (jokers, blind nil, ...) are not in the lobby: the API creates their games."""
    fields = node(tmp_path, 'console.log(JSON.stringify((await js("newgame.js")).RULE_FIELDS));', None)
    offered = set(fields["numbers"]) | set(fields["checks"]) | {"scoring", "set_penalty"}
    assert offered == set(OPTION_DOCS) - set(HOUSE_RULES)
    assert {name: [f["min"], f["max"]] for name, f in fields["numbers"].items()} == {
        name: list(bounds) for name, bounds in OPTION_RANGES.items() if name not in HOUSE_RULES
    }
