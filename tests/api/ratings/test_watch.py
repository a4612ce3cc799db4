"""The fair-play watch in the records database, as finished games are applied: outcomes kept, bans, flags that
hold a player's games, and an operator's confirmation removing the flagged games' rating changes exactly once."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from sqlalchemy import Engine, select

from services.api.problems import ApiError
from services.api.ratings import flags
from services.api.ratings.apply import apply_record
from services.api.ratings.leaderboard import own_place, top
from services.api.ratings.record_view import annotate
from services.api.ratings.recount import recount
from services.api.ratings.standing import entry_rating, standing
from services.api.ratings.watch import active_ban, raise_flag
from services.api.records.schema import (
    fair_play_outcomes,
    game_ratings,
    game_records,
    player_games,
    player_ratings,
)
from services.ratings import watch
from services.ratings.model import DISPLAY_BASE

from .conftest import NOW, STRANGERS, add_players, buckets_agree, finished, rows, seasoned

IDS = ["p_a", "p_b", "p_c", "p_d"]


def game(game_id: str, fair: dict[str, Any] | None = None, seed: int = 7, seats: list[str] = IDS) -> dict[str, Any]:
    document = finished(game_id, seats, STRANGERS, seed=seed)
    document["fair_play"].update(fair or {})
    return document


def apply(engine: Engine, document: dict[str, Any], at: int) -> bool:
    return apply_record(engine, document, at, at, computer_only=False)


def save(engine: Engine, document: dict[str, Any], at: int) -> None:
    """The game's record, stored as the records writer stores it (a replay reads its places and seats)."""
    row = {
        "game_id": document["game_id"],
        "version": 1,
        "outcome": "finished",
        "created_ms": at,
        "ended_ms": at,
        "recorded_ms": at,
        "body": orjson.dumps(document).decode(),
    }
    with engine.begin() as connection:
        connection.execute(game_records.insert().values(row))


def outcomes(engine: Engine, player: str) -> list[str]:
    with engine.connect() as connection:
        query = select(fair_play_outcomes.c.outcome).where(fair_play_outcomes.c.player_id == player)
        return sorted(connection.execute(query.order_by(fair_play_outcomes.c.ended_ms)).scalars())


def test_each_persons_outcome_is_kept_and_only_their_last_thirty(engine):
    add_players(engine, *IDS)
    apply(engine, game("g0", {"forfeits": [1, 3], "timed_out": [3]}), NOW)
    assert outcomes(engine, "p_a") == [watch.PLAYED]
    assert outcomes(engine, "p_b") == [watch.LEFT] and outcomes(engine, "p_d") == [watch.TIMED_OUT]
    for n in range(1, watch.KEPT_OUTCOMES + 5):
        apply(engine, game(f"g{n}", seed=n), NOW + n * 1000)
    assert len(outcomes(engine, "p_a")) == watch.KEPT_OUTCOMES


def test_a_player_leaving_game_after_game_is_banned_and_the_ban_ends(engine):
    add_players(engine, *IDS)
    for n in range(watch.BAN_MIN_BAD):
        apply(engine, game(f"g{n}", {"forfeits": [1]}, seed=n), NOW + n * 1000)
    last = NOW + (watch.BAN_MIN_BAD - 1) * 1000
    with engine.connect() as connection:
        ends = active_ban(connection, "p_b", last)
        assert ends == last + 2 * watch.FIRST_BAN_MS, "a new account's first ban"
        assert active_ban(connection, "p_a", last) is None
        assert active_ban(connection, "p_b", ends) is None, "over at its end"


def test_an_open_flag_holds_the_players_games_until_cleared(engine):
    add_players(engine, *IDS)
    with engine.begin() as connection:
        flag_id = raise_flag(connection, "p_c", watch.SANDBAGGING, ["x"], {}, NOW)
        assert raise_flag(connection, "p_c", watch.SANDBAGGING, ["y"], {}, NOW) is None, "one open flag a kind"
    apply(engine, game("held"), NOW)
    with engine.connect() as connection:
        guard = connection.execute(select(game_ratings).where(game_ratings.c.game_id == "held")).one()
    assert (guard.rated, guard.unrated_reason) == (False, "flagged")
    with engine.connect() as connection:
        shown = annotate(connection, game("held"))
    assert (shown["rated"], shown["unrated_reason"]) == (False, "flagged"), "a record read says why"
    assert flags.decide(engine, flag_id, "clear", NOW)["flag"]["status"] == "cleared"
    with pytest.raises(ApiError) as decided:
        flags.decide(engine, flag_id, "confirm", NOW)
    assert decided.value.code == "flag_decided"
    apply(engine, game("counted", seed=8), NOW + 1)
    assert [r["rated"] for r in rows(engine, game_ratings) if r["game_id"] == "counted"] == [True]


def test_a_flag_holds_the_players_ratings_off_every_board_until_an_operator_clears_it(engine):
    seasoned(engine, "p_a", "partnership", "person", games=40, mu=30.0)
    seasoned(engine, "p_b", "partnership", "person", games=40)

    def seen() -> tuple[dict[str, Any], dict[str, Any] | None, list[str]]:
        with engine.connect() as connection:
            board = [entry["player"]["id"] for entry in top(connection, "partnership", "person", 10)]
            return standing(connection, "p_a"), own_place(connection, "partnership", "person", "p_a"), board

    shown, place, board = seen()
    assert (shown["rating_hold"], place["rank"], board) == (None, 1, ["p_a", "p_b"])
    rated = entry_rating(engine, "p_a", "partnership")
    assert rated > DISPLAY_BASE, "an event seeds it with its rating"
    with engine.begin() as connection:
        flag_id = raise_flag(connection, "p_a", watch.BOOSTING, ["x"], {}, NOW)
    assert entry_rating(engine, "p_a", "partnership") == DISPLAY_BASE, "held: an event shows the newcomer's"
    for hold in ("review", "closed"):
        shown, place, board = seen()
        assert (shown["ratings"], shown["rating_hold"], place, board) == ({}, hold, None, ["p_b"]), hold
        assert buckets_agree(engine), "off the board: its bucket no longer counts it"
        with engine.connect() as connection:
            assert own_place(connection, "partnership", "person", "p_b")["rank"] == 1
        if hold == "review":
            flags.decide(engine, flag_id, "confirm", NOW + 1)
    with engine.begin() as connection:
        recount(connection)  # a change of the provisional rule counts the flags again: a held player stays off
    assert seen()[2] == ["p_b"] and buckets_agree(engine)
    flags.decide(engine, flag_id, "clear", NOW + 2)
    shown, place, board = seen()
    assert (shown["rating_hold"], place["rank"], board) == (None, 1, ["p_a", "p_b"]), "back as it stands"
    assert entry_rating(engine, "p_a", "partnership") == rated
    assert shown["ratings"]["partnership"]["games"] == 40 and buckets_agree(engine)


def test_a_player_flagged_by_a_rated_game_is_off_the_board_after_it(engine):
    """The game that raises a flag still moves its ratings (the flag holds the games after it), but its flagged
    players leave the board with it: their rating written by that game stays off the board."""
    for player in IDS:
        seasoned(engine, player, "partnership", "person", games=40)  # all four on the board
    for n in range(watch.FLAG_FAST):
        document = game(f"fast{n}")
        document["rules"]["win_score"] = 5000  # its rounds are few for so long a game: lost fast
        apply(engine, document, NOW + n * 1000)
    flagged = {f["player"]["id"] for f in flags.list_flags(engine, "open", 50, None)}
    assert flagged and [r["rated"] for r in rows(engine, game_ratings) if r["game_id"] == "fast3"] == [True]
    with engine.connect() as connection:
        board = {entry["player"]["id"] for entry in top(connection, "partnership", "person", 10)}
    assert not board & flagged and buckets_agree(engine)


def test_a_held_players_rating_changes_are_in_no_record(engine):
    """A record read lists each rated seat's change, but not a held player's: what a ring took before its flag
    would show there; cleared, the changes show again."""
    for player in IDS:
        seasoned(engine, player, "partnership", "person", games=40)
    documents = []
    for n in range(watch.FLAG_FAST):
        documents.append(game(f"fast{n}"))
        documents[-1]["rules"]["win_score"] = 5000
        apply(engine, documents[-1], NOW + n * 1000)
    raised = flags.list_flags(engine, "open", 50, None)
    flagged = {f["player"]["id"] for f in raised}
    assert flagged

    def shown() -> set[str]:
        with engine.connect() as connection:
            annotated = annotate(connection, orjson.loads(orjson.dumps(documents[0])))
        assert annotated["rated"] is True
        return {row["player_id"] for row in annotated["ratings"]}

    assert shown() == set(IDS) - flagged
    for flag in raised:
        flags.decide(engine, flag["id"], "clear", NOW + 10_000)
    assert shown() == set(IDS)


def test_four_fast_losses_flag_a_sandbagger(engine):
    add_players(engine, *IDS)
    for n in range(watch.FLAG_FAST):
        document = game(f"fast{n}")
        document["rules"]["win_score"] = 5000  # its rounds are few for so long a game: lost fast
        apply(engine, document, NOW + n * 1000)
    found = flags.list_flags(engine, "open", 50, None)
    kinds = {(f["player"]["id"], f["kind"]) for f in found}
    losers = {IDS[s] for s in (0, 1, 2, 3) if not game("fast0")["seats"][s]["won"]}
    assert {(p, watch.SANDBAGGING) for p in losers} <= kinds
    assert any(kind == watch.BOOSTING for _, kind in kinds), "fast wins over the same opponents too"


def test_confirming_a_flag_removes_its_games_rating_changes_and_replays_its_players_once(engine):
    add_players(engine, *IDS, "p_e")
    seats_later = ["p_a", "p_e", "p_c", "p_b"]
    documents = [game("boosted", seed=3), game("later", seed=4, seats=seats_later)]
    for n, document in enumerate(documents):
        save(engine, document, NOW + n)
        apply(engine, document, NOW + n)
    before = {r["player_id"]: r for r in rows(engine, player_ratings)}
    with engine.begin() as connection:
        flag_id = raise_flag(connection, "p_a", watch.BOOSTING, ["boosted"], {}, NOW)
        other = raise_flag(connection, "p_b", watch.BOOSTING, ["boosted"], {}, NOW)
    decided = flags.decide(engine, flag_id, "confirm", NOW + 10)
    assert decided["flag"]["status"] == "confirmed" and decided["removed_games"] == ["boosted"]
    after = {r["player_id"]: r for r in rows(engine, player_ratings)}
    assert flags.decide(engine, other, "confirm", NOW + 20)["removed_games"] == [], "removed once"
    assert {r["player_id"]: r for r in rows(engine, player_ratings)} == after
    for player in IDS:
        assert after[player]["games"] == before[player]["games"] - 1
    assert after["p_e"] == before["p_e"], "only the removed game's players are replayed"
    assert after["p_d"]["mu"] == pytest.approx(25.0) and after["p_d"]["games"] == 0, "back to its first rating"
    with engine.connect() as connection:
        guard = connection.execute(select(game_ratings).where(game_ratings.c.game_id == "boosted")).one()
        ledger = connection.execute(
            select(player_games).where(player_games.c.player_id == "p_a").order_by(player_games.c.ended_ms)
        ).all()
    assert (guard.rated, guard.unrated_reason) == (False, "removed")
    with engine.connect() as connection:
        shown = annotate(connection, game("boosted", seed=3))
    assert (shown["rated"], shown["unrated_reason"], "ratings" in shown) == (False, "removed", False)
    assert [(g.game_id, g.rated, g.games_after) for g in ledger] == [("boosted", False, None), ("later", True, 1)]
    assert ledger[1].mu_before == pytest.approx(25.0), "the later game replayed from the first rating"
    assert ledger[1].mu_after == pytest.approx(after["p_a"]["mu"])
    assert buckets_agree(engine)
