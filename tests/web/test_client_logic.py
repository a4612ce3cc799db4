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
from services.api.games.record import GameRecord
from services.api.games.rendering import game_view
from services.api.http import request_schemas
from services.api.store.memory_store import MemoryStore
from services.engine import OPTION_DOCS, OPTION_RANGES, make_rules, turn, view
from services.engine.rules import HOUSE_RULES
from services.engine.scoring import game_winner
from services.web import WEB_ROOT

SEAT = 0
COMPARED = ("phase", "round", "dealer", "turn", "bids", "tricks_won", "hand_sizes", "trick", "tricks", "last_trick",
            "spades_broken", "scores", "bags", "history", "winner", "hand_hidden", "blind", "passes")  # fmt: skip


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
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": [{"type": "human"}] * 4, "seed": seed, "rules": rules})
    created = commands.create_game(ctx, body)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    record = ctx.store.load(game_id)
    first, seq = game_view(record, SEAT), record.seq
    rng, steps = random.Random(seed), []
    while record.state.phase != "game_over" and len(record.state.history) < 3:
        mover = turn(record.state)
        seen = view(record.state, mover, history=False)
        kind, body = random_move(seen, rng)
        move = parse_move(kind, body, record.state.rules.deck)
        commands.make_move(ctx, game_id, MoveRequest(token=tokens[mover], move=move))
        record = ctx.store.load(game_id)
        events = [visible_event(e, SEAT) for e in ctx.store.events_after(game_id, seq, 1000)]
        seq = record.seq
        steps.append({"events": events, "view": game_view(record, SEAT)})
    return steps, first


def random_move(seen: dict, rng: random.Random) -> tuple[str, dict]:
    """A random legal move of a seat's view: with house rules also a blind decision or the cards to pass."""
    legal = seen["legal"]
    if seen.get("hand_hidden") and legal:
        choice = rng.choice(seen["legal_blind"] + ["look"])
        return "blind", {"look": True} if choice == "look" else {"bid": choice}
    if seen["phase"] == "passing":
        return "pass", {"cards": rng.sample(legal, seen["pass_count"])}
    return ("bid", {"bid": rng.choice(legal)}) if seen["phase"] == "bidding" else ("play", {"card": rng.choice(legal)})


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
    # the house rules: blind decisions every round, the nil exchange, jokers, 10 for 200
    {"preset": "house", "blind_margin": 0, "win_score": 5000, "lose_score": -100000, "mercy_margin": None},
]


@pytest.mark.parametrize(
    "rules", VARIANTS, ids=["partnership", "partnership-variant", "individual", "individual-bags", "house"]
)
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
const parts = last.history.map((r) => roundParts(r, bagsBefore(last.history, r)));
const sum = (p) => p.contract.points + p.bags.points + p.penalty + p.nils.reduce((a, n) => a + n.points, 0);
const wrong = last.history.flatMap((r, i) => parts[i].filter((p) => sum(p) !== p.total || p.total !== r.points[p.side]
  || p.bags.after !== r.bags[p.side]));
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
    """The lobby's "House rules" lay out every rule option of the seeds (scoring is the preset) and the house
    rules they have a layout for (each a tick box with its value), each number with the engine's range; any other
    house rule gets a plain row from the catalogue (tests/web/test_house_rules.py): no option the API takes is
    missing, none is checked differently."""
    fields = node(tmp_path, 'console.log(JSON.stringify((await js("newgame.js")).RULE_FIELDS));', None)
    offered = set(fields["numbers"]) | set(fields["checks"]) | {"scoring", "set_penalty"}
    assert offered == set(OPTION_DOCS) - set(HOUSE_RULES)
    assert set(fields["variants"]) <= set(HOUSE_RULES)
    numbers = {**fields["numbers"], **fields["variantNumbers"]}
    assert {name: [f["min"], f["max"]] for name, f in numbers.items()} == {
        name: list(bounds) for name, bounds in OPTION_RANGES.items() if name in numbers
    }


def test_jokers_and_a_high_deuce_sort_as_the_top_spades(tmp_path):
    hand = ["BJ", "3H", "AS", "2S", "LJ", "KS", "2C"]
    sorted_hands = node(
        tmp_path,
        'const { sortHand, cardName, suitOf } = await js("cards.js");\n'
        "console.log(JSON.stringify([sortHand(data, { deuces_high: true }), sortHand(data, { deuces_high: false }),"
        " ['BJ', 'LJ'].map(cardName), suitOf('LJ')]));",
        hand,
    )
    high, low, names, suit = sorted_hands
    assert high == ["KS", "AS", "2S", "LJ", "BJ", "3H", "2C"]
    assert low == ["2S", "KS", "AS", "LJ", "BJ", "3H", "2C"]
    assert names == ["Big Joker", "Little Joker"] and suit == "S"


def test_the_mercy_rule_ending_a_game_is_told_apart(tmp_path):
    """The summary says when the mercy rule ended the game: 500 apart ends it; short of the margin, or at the
    winning score, it was not mercy."""
    rules = {"mercy_margin": 500, "win_score": 500, "lose_score": -300}
    mercy = node(
        tmp_path,
        'const { mercyEnded } = await js("tracking.js");\n'
        "console.log(JSON.stringify([[300, -200], [300, 0], [600, 0]].map((s) => mercyEnded(data, s))));",
        rules,
    )
    assert mercy == [True, False, False]


def test_the_client_tells_a_game_ending_round_as_the_engine_does(tmp_path):
    """tracking.js gameEnds (the summary's "See the result" before the game_over event arrives) against the
    engine's game_winner, over random scores and end rules, two sides and four."""
    rng = random.Random(5)
    cases = []
    for _ in range(2000):
        sides = rng.choice([2, 4])
        rules = {
            "win_score": rng.choice([100, 300, 500]),
            "lose_score": rng.choice([None, -200, -500]),
            "mercy_margin": rng.choice([None, 200, 500]),
        }
        scores = [rng.choice([rng.randint(-600, 700), 300, 500, -200]) for _ in range(sides)]
        if rng.random() < 0.2:
            scores[1] = scores[0]  # a tie for the lead plays on
        cases.append({"rules": rules, "scores": scores})
    ends = node(
        tmp_path,
        'const { gameEnds } = await js("tracking.js");\n'
        "console.log(JSON.stringify(data.map((c) => gameEnds(c.rules, c.scores))));",
        cases,
    )
    engine = [game_winner(make_rules("partnership", **c["rules"]), tuple(c["scores"])) is not None for c in cases]
    assert ends == engine
    assert 200 < sum(engine) < 1800


def test_a_hint_names_the_move_and_the_control_that_makes_it_for_every_kind(tmp_path):
    hints = [
        {"move": {"bid": 3}, "candidates": [{"bid": 3, "make_chance": 0.72}, {"bid": 3, "blind": True, "make_chance": 0.1}]},
        {"move": {"card": "QS"}, "candidates": [{"card": "QS", "trick_chance": 0.5}]},
        {"move": {"look": True}, "candidates": [{"look": True, "value": 3.0}]},
        {"move": {"bid": 0, "blind": True}, "candidates": [{"bid": 0, "make_chance": 0.9}, {"bid": 0, "blind": True, "make_chance": 0.25}]},
        {"move": {"bid": 5, "blind": True}, "candidates": []},
        {"move": {"pass": ["AS", "KH"]}, "candidates": [{"pass": ["AS", "KH"], "value": 2.0}]},
    ]  # fmt: skip
    described = node(
        tmp_path,
        'const { describeHint } = await js("hint.js");\n'
        "console.log(JSON.stringify(data.map((hint) => { const d = describeHint(hint); return [d.focus, d.text]; })));",
        hints,
    )
    assert described == [
        ["bid-3", "Suggested: bid 3 (made 72% of the time)."],
        ["card-QS", "Suggested: play the queen of spades (your side takes this trick 50% of the time)."],
        ["look", "Suggested: look at your cards before you bid."],
        ["blind-nil", "Suggested: bid blind nil without looking (no trick taken 25% of the time)."],
        ["blind-5", "Suggested: bid blind 5 without looking."],
        ["card-AS", "Suggested: pass the ace of spades and king of hearts (marked in your hand)."],
    ]
