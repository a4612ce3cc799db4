"""The web client's pure modules for players, run in node (no server, no browser): a replay of a
recorded game (replaysteps.js) shows, after every move, the hands, bids, tricks, trick on the table,
scores and the next seat to move exactly as the engine had them, for the plain rules and the house
rules (blind bids, the nil exchange, jokers); the rating chart's scale and description (chart.js);
the rating series, stat tiles and rating changes a profile and the final scores show (profile.js,
gameratings.js); a provisional rating's "?" and the rule's count of games it explains (playertext.js); the
fragment addresses of the players' pages (router.js)."""

from __future__ import annotations

import json
import random
import subprocess
from itertools import pairwise
from pathlib import Path

import pytest

from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest, parse_move
from services.api.games.record import GameRecord
from services.api.http import request_schemas
from services.api.players.names import NameRefused, display_name
from services.api.players.repository import name_taken
from services.api.records.content import build
from services.api.store.memory_store import MemoryStore
from services.engine import codes, turn, view
from services.engine.state import current_trick
from services.ratings.provisional import PROVISIONAL_GAMES
from services.web import WEB_ROOT

from .test_client_logic import random_move


def node(tmp_path: Path, script: str, data: object = None) -> object:
    """``script`` (an ES module body with ``js(name)`` to import a client module and ``data``) prints JSON."""
    (tmp_path / "data.json").write_text(json.dumps(data))
    program = tmp_path / "check.mjs"
    program.write_text(
        f'import {{ readFileSync }} from "node:fs";\nconst js = (m) => import("{(WEB_ROOT / "js").as_uri()}/" + m);\n'
        f'const data = JSON.parse(readFileSync("{tmp_path / "data.json"}", "utf8"));\n{script}\n'
    )
    out = subprocess.run(["node", str(program)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def table_of(state) -> dict:
    """What the replay must show after a move: every hand, bids, blind bids, tricks, the trick, scores, bags."""
    return {
        "round": state.round,
        "hands": [sorted(codes(state.hands[s])) for s in range(4)],
        "bids": list(state.bids),
        "blind": list(state.blind),
        "tricks_won": list(state.tricks_won),
        "trick": [c["card"] for c in view(state, None)["trick"]] if current_trick(state) else [],
        "last": [c["card"] for c in (view(state, None).get("last_trick") or {}).get("cards", [])],
        "scores": list(state.scores),
        "bags": list(state.bags),
        "turn": turn(state),
        "phase": state.phase,
    }


def recorded_game(rules: dict, seed: int) -> tuple[dict, list[dict]]:
    """A four-person game played with random legal moves to its end: its record document, and after each
    move that the replay shows (a decision to look at one's cards is not one) the engine's table."""
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": [{"type": "human"}] * 4, "seed": seed, "rules": rules})
    created = commands.create_game(ctx, body)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    record = ctx.store.load(game_id)
    rng, after = random.Random(seed), []
    while record.state.phase != "game_over":
        mover = turn(record.state)
        kind, move_body = random_move(view(record.state, mover, history=False), rng)
        move = parse_move(kind, move_body, record.state.rules.deck)
        commands.make_move(ctx, game_id, MoveRequest(token=tokens[mover], move=move))
        record = ctx.store.load(game_id)
        if kind != "blind" or "bid" in move_body:
            after.append(table_of(record.state))
    return build(record), after


RULES = {
    "partnership": {"preset": "partnership", "win_score": 150, "lose_score": -150},
    "individual": {"preset": "individual", "win_score": 120, "lose_score": -150},
    "house": {"preset": "house", "blind_margin": 0, "win_score": 250, "lose_score": -250, "mercy_margin": None},
}


@pytest.mark.parametrize("name", list(RULES))
def test_a_replay_shows_the_table_the_engine_had_after_every_move(tmp_path, name):
    record, after = recorded_game(RULES[name], seed=30)
    got = node(
        tmp_path,
        """
        const r = await js("replaysteps.js");
        const steps = r.replaySteps(data);
        const tables = steps.map((s, i) => {
          const t = r.tableAt(data, steps, i);
          return { kind: s.kind, round: t.roundNo, hands: t.hands.map((h) => [...h].sort()), bids: t.bids, blind: t.blind,
                   tricks_won: t.tricksWon, trick: t.trick.map((c) => c.card), winner: t.trickWinner, scores: t.scores,
                   bags: t.bags, turn: t.turn, phase: t.phase };
        });
        const words = steps.slice(0, 8).map((s) => r.stepWords(s, { name: (x) => ["S", "W", "N", "E"][x], cardName: (c) => c }));
        const passWords = steps.filter((s) => s.kind === "pass").map((s) => [
          r.stepWords(s, { name: String, cardName: (c) => c, viewer: s.seat }),
          r.stepWords(s, { name: String, cardName: (c) => c, viewer: (s.seat + 1) % 4 }),
        ]);
        console.log(JSON.stringify({ tables, words, passWords, starts: r.roundStarts(steps),
          bounds: [r.trickBounds(steps, 0), r.trickBounds(steps, 7), r.trickBounds(steps, 8)] }));
        """,
        record,
    )
    tables = got["tables"]
    moves = [t for t in tables if t["kind"] not in ("deal", "scored")]
    assert len(moves) == len(after), "one step per bid, pass and card"
    rounds = record["rounds"]
    assert [tables[i]["kind"] for i in got["starts"]] == ["deal"] * len(rounds)
    assert sum(t["kind"] == "scored" for t in tables) == len(rounds)
    for shown, engine in zip(moves, after, strict=True):
        if (
            engine["round"] == shown["round"] and engine["phase"] != "game_over"
        ):  # the same round: every hand, bid, trick and score as the engine's
            if engine["phase"] != "passing":  # (the engine sets passed cards aside until both partners chose)
                assert shown["hands"] == engine["hands"]
            assert shown["bids"] == engine["bids"] and shown["tricks_won"] == engine["tricks_won"]
            assert [bool(b) for b in shown["blind"]] == [bool(b) for b in engine["blind"]]
            assert shown["trick"] == (engine["last"] if len(shown["trick"]) == 4 else engine["trick"])
            assert shown["scores"] == engine["scores"] and shown["bags"] == engine["bags"]
            assert shown["turn"] == engine["turn"]
        else:  # the round's last card: the engine has dealt the next round already
            finished = rounds[shown["round"] - 1]
            assert shown["hands"] == [[], [], [], []] and shown["tricks_won"] == finished["tricks_won"]
            assert shown["winner"] == finished["tricks"][12]["winner"] and shown["turn"] is None
    scored = [t for t in tables if t["kind"] == "scored"]
    assert [t["scores"] for t in scored] == [r["scores"] for r in rounds], "a round's score once it is scored"
    assert got["words"][0].endswith("deals") and " bids " in got["words"][1]
    if name == "house":
        assert got["passWords"], "this seed's house game has a nil exchange"
        for own, other in got["passWords"]:
            assert " passes " in own and "card" not in own.split(" passes ")[1].split(" to ")[0].replace("cards", "")
            assert other.split(" passes ")[1].startswith(("1 card", "2 cards", "3 cards")), "others never see which"
    assert got["bounds"][0] == [0, got["bounds"][0][1]] and got["bounds"][0][1] > 0


def test_the_chart_scale_description_and_the_profile_figures(tmp_path):
    got = node(
        tmp_path,
        """
        const chart = await js("chart.js");
        const profile = await js("profile.js");
        const ratings = await js("gameratings.js");
        const router = await js("router.js");
        const identity = await js("identity.js");
        const games = [ // newest first, as GET /v1/players/{id}/games answers
          { game_id: "g4", ended_at: "2026-12-02T12:04:00Z", board: "partnership", rated: true, rating_before: 1530, rating_after: 1522, change: -8, won: false, seat: 0 },
          { game_id: "g3", ended_at: "2026-12-02T12:03:00Z", board: "individual", rated: true, rating_before: 1500, rating_after: 1540, change: 40, won: true, seat: 1 },
          { game_id: "g2", ended_at: "2026-12-02T12:02:00Z", board: "partnership", rated: false, won: true, seat: 0 },
          { game_id: "g1", ended_at: "2026-12-02T12:01:00Z", board: "partnership", rated: true, rating_before: 1500, rating_after: 1530, change: 30, won: true, seat: 0 },
        ];
        const series = profile.ratingSeries(games, "partnership");
        const box = { width: 700, height: 200, left: 40, right: 20, top: 10, bottom: 30 };
        const laid = chart.layout(series.map((p) => p.rating), box);
        console.log(JSON.stringify({
          series, individual: profile.ratingSeries(games, "individual"), none: profile.ratingSeries(games, "other"),
          ticks: [chart.ticks(1493, 1561), chart.ticks(1500, 1500), chart.ticks(0, 7)],
          xs: laid.xs, ys: laid.ys, yTicks: laid.yTicks,
          described: chart.describeSeries(series), empty: chart.describeSeries([]),
          tiles: profile.statTiles({ games: 10, wins: 6, rounds: 40, contracts_bid: 30, contracts_made: 24, sets: 6, nils_bid: 4, nils_made: 3, bags: 50, bags_per_round: 1.25 }),
          zero: profile.statTiles({}),
          accuracy: profile.accuracyTile({ games: 3, decisions: 120, accurate_share: 0.85, mean_given_away: 2.34 }),
          unscored: profile.accuracyTile({ games: 0, decisions: 0, accurate_share: null, mean_given_away: null }),
          rows: ratings.ratingRows([{ seat: 2, player_id: "computer-hard", before: 1600, after: 1594, change: -6 }, { seat: 0, player_id: "p_x", before: 1500, after: 1506, change: 6 }],
            { players: [{ id: "p_x", name: "Ada", kind: "person" }, null, { id: "computer-hard", name: "hard", kind: "computer" }, null], you: 0 }),
          pages: ["#/players/p_abc-_1", "#/replay/g1?seat=2", "#/replay/g1?seat=9", "#/replay/g1", "#/leaderboards",
                  "#/leaderboards/individual?kind=bot", "#/leaderboards?kind=nobody", "#/players/", "#/players/a%2Fb", "#rejoin=x.y", ""]
            .map(router.fragmentPage),
          initials: ["Ada Lovelace", "ada", "  émile  zola ", "", "🂡 ace"].map(identity.initials),
        }));
        """,
    )
    assert [p["rating"] for p in got["series"]] == [1500, 1530, 1522], "the start, then each rated game, oldest first"
    assert got["series"][0]["at"] is None and got["series"][2]["game"] == "g4"
    assert [p["rating"] for p in got["individual"]] == [1500, 1540] and got["none"] == []
    assert got["ticks"][0][0] <= 1493 and got["ticks"][0][-1] >= 1561 and len(got["ticks"][0]) in range(3, 8)
    steps = {b - a for a, b in pairwise(got["ticks"][0])}
    assert len(steps) == 1, "evenly spaced"
    assert got["ticks"][1][0] < 1500 < got["ticks"][1][-1], "a flat series still gets a scale around it"
    assert got["xs"][0] == 40 and got["xs"][-1] == 680 and got["ys"][1] < got["ys"][2] < got["ys"][0]
    assert all(10 <= y <= 170 for y in got["ys"])
    assert got["described"] == "From 1500 to 1522 over 2 rated games; highest 1530, lowest 1500."
    assert got["empty"] == "No rated game yet."
    tiles = {t["label"]: t for t in got["tiles"]}
    assert tiles["Wins"]["detail"] == "60%" and tiles["Contracts made"]["detail"] == "of 30 · 80%"
    assert tiles["Nils made"]["value"] == "3" and tiles["Nils made"]["detail"] == "of 4 bid"
    assert tiles["Bags per round"]["value"] == "1.25" and tiles["Sets"]["value"] == "6"
    assert {t["label"]: t["detail"] for t in got["zero"]}["Wins"] == "—", "no games: no percentage"
    assert (got["accuracy"]["value"], got["accuracy"]["detail"]) == (
        "85%",
        "2.3 points given away a move · 3 rated games",
    )
    assert got["unscored"] is None, "no tile before a rated game is scored"
    assert [(r["seat"], r["name"], r["change"], r["mine"]) for r in got["rows"]] == [
        (0, "Ada", 6, True),
        (2, "Computer · hard", -6, False),
    ]
    assert got["pages"] == [
        {"page": "player", "id": "p_abc-_1"},
        {"page": "replay", "gameId": "g1", "seat": 2},
        {"page": "replay", "gameId": "g1", "seat": None},
        {"page": "replay", "gameId": "g1", "seat": None},
        {"page": "leaderboards", "board": None, "kind": None},
        {"page": "leaderboards", "board": "individual", "kind": "bot"},
        {"page": "leaderboards", "board": None, "kind": None},
        None,
        None,
        None,
        None,
    ]
    assert got["initials"] == ["AL", "A", "ÉZ", "?", "🂡A"]


NAMES_REFUSED = [  # a name for each reason services/api/players/names.py gives
    "Ada\u200b",  # invisible
    "Farmer A\ufe0f",  # a variation selector
    "Ha" + "\u0301" * 8,  # a pile of marks
    "Ada\u0301\u0301",  # one mark twice
    "Farmer \u0410",  # Latin and Cyrillic
    "\u0968\u0966 20",  # two number systems
    "--",  # no letter or digit
    "a" * 30,  # too long
]


def test_a_provisional_rating_reads_with_a_question_mark_and_says_the_rules_games(tmp_path):
    got = node(
        tmp_path,
        """
        const text = await js("playertext.js");
        const ratings = await js("gameratings.js");
        console.log(JSON.stringify({
          marked: text.ratingText(1522, true), plain: text.ratingText(1522, false), unsaid: text.ratingText(1522),
          games: text.PROVISIONAL_GAMES, why: text.provisionalWhy(),
          rows: ratings.ratingRows([{ seat: 0, player_id: "p_x", before: 1500, after: 1530, change: 30, provisional: true },
                                    { seat: 1, player_id: "computer-hard", before: 2900, after: 2899, change: -1, provisional: false }]),
        }));
        """,
    )
    assert (got["marked"], got["plain"], got["unsaid"]) == ("1522?", "1522", "1522")
    assert got["games"] == PROVISIONAL_GAMES and f"fewer than {PROVISIONAL_GAMES} rated games" in got["why"]
    assert [row["provisional"] for row in got["rows"]] == [True, False]


def test_each_reason_the_server_gives_for_a_name_has_its_own_words_in_each_language(tmp_path):
    """identity.js reads the server's English reason (``errors[].message``) to pick the catalogue's words: none
    falls through to the generic "try another"."""
    problems = []
    for raw in NAMES_REFUSED:
        with pytest.raises(NameRefused) as refused:
            display_name(raw)
        problems.append(
            {"status": 400, "code": "invalid_request", "errors": [{"field": "name", "message": str(refused.value)}]}
        )
    problems.append({"status": 409, "code": "name_taken", "detail": str(name_taken().detail)})
    got = node(
        tmp_path,
        """
        const i18n = await js("i18n.js");
        const identity = await js("identity.js");
        const said = {};
        for (const language of ["en", "id"]) {
          await i18n.useLanguage(language);
          said[language] = { words: data.map(identity.nameError), generic: i18n.t("players.name.refused") };
        }
        console.log(JSON.stringify(said));
        """,
        problems,
    )
    for language in ("en", "id"):
        words = got[language]["words"]
        assert got[language]["generic"] not in words, (language, words)
        assert len(set(words)) == len(problems), (language, words)


def test_the_friends_list_puts_who_is_at_a_table_first_and_its_address_is_a_page(tmp_path):
    got = node(
        tmp_path,
        """
        const friends = await js("friends.js");
        const router = await js("router.js");
        const list = [
          { name: "Zed", online: false, game_id: null },
          { name: "Bo", online: true, game_id: null },
          { name: "Cy", online: true, game_id: "g1" },
          { name: "Al", online: false, game_id: null },
        ];
        console.log(JSON.stringify({
          order: friends.orderFollowing(list).map((f) => f.name),
          status: list.map(friends.statusKey),
          pages: ["#/friends", "#/friends/x"].map(router.fragmentPage),
        }));
        """,
    )
    assert got["order"] == ["Cy", "Bo", "Al", "Zed"], "at a table, online, then the rest; by name within each"
    assert got["status"] == [
        "friends.status.offline",
        "friends.status.online",
        "friends.status.atTable",
        "friends.status.offline",
    ]
    assert got["pages"] == [{"page": "friends"}, None]
