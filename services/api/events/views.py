"""What the API shows of an event: its settings, pairs, standings and current round; a deal's scoresheet.
Never a round's secret."""

from __future__ import annotations

from typing import Any

from services.api.events.matchpoints import ranks, score_deal
from services.api.events.model import DealResult, Event, Pair
from services.api.events.results import board_of, deal_results, event_standings
from services.api.problems import ApiError


def pair_view(pair: Pair) -> dict[str, Any]:
    return {
        "pair_id": pair.pair_id,
        "number": pair.number or None,
        "kind": pair.kind,
        "players": [{"player_id": m.id, "name": m.name, "kind": m.kind} for m in pair.members],
        "invited": pair.invited,
        "withdrawn": pair.withdrawn,
    }


def summary(event: Event) -> dict[str, Any]:
    """An event as the list shows it."""
    s = event.settings
    return {
        "event_id": event.event_id,
        "name": s.name,
        "format": s.format,
        "status": event.status,
        "creator": event.creator,
        "max_pairs": s.max_pairs,
        "deals_per_round": s.deals_per_round,
        "rounds": s.rounds,
        "clock": s.clock,
        "rated": s.rated,
        "bots_allowed": s.bots_allowed,
        "stand_in_level": s.stand_in_level,
        "start_at_ms": s.start_at_ms,
        "par": s.par,
        "minutes": s.minutes,
        "seating": s.seating,
        "max_players": s.max_players,
        "pairs_count": sum(1 for p in event.pairs if p.kind != "computer"),
        "created_ms": event.created_ms,
    }


def event_view(event: Event, results: dict[int, list[DealResult]]) -> dict[str, Any]:
    """The whole event: its pairs, the standings over every deal all of whose tables have finished, the current
    round's tables (each with its game id, to take a seat or watch) and the boards played so far."""
    body = summary(event)
    body["version"] = event.version
    body["finished_ms"] = event.finished_ms
    body["pairs"] = [pair_view(p) for p in event.pairs]
    standings = event_standings(event, results)
    body["standings"] = [
        {"rank": rank, "pair": s.pair, "matchpoints": s.matchpoints, "top": s.top, "percent": s.percent}
        for rank, s in zip(ranks(standings), standings, strict=True)
    ]
    current = event.rounds[-1] if event.rounds else None
    body["current_round"] = None
    if current is not None:
        done = sorted({r.table for r in results.get(current.number, [])})  # its tables whose games have finished
        body["current_round"] = {
            "number": current.number,
            "finished": current.finished_ms is not None,
            "tables_finished": done,
            "no_shows": list(current.no_shows),
            "tables": [{"table": t.table, "ns": t.ns, "ew": t.ew, "game_id": t.game_id} for t in current.tables],
        }
    body["boards"] = [
        board_of(r.number, d, event.settings.deals_per_round)
        for r in event.rounds
        for d in range(1, event.settings.deals_per_round + 1)
    ]
    return body


def scoresheet(
    event: Event, results: dict[int, list[DealResult]], board: int, pars: dict[int, list[tuple[int, int]]] | None = None
) -> dict[str, Any]:
    """One board: every table's bids, tricks and score as far as it has been played, with matchpoints once every
    table has finished it; each table's game id for its replay (``GET /v1/games/{id}/record``); and, once its
    expert table has played the deal, the par (each side's score there: None without ``par`` or until then)."""
    per_round = event.settings.deals_per_round
    number, deal = (board - 1) // per_round + 1, (board - 1) % per_round + 1
    rnd = next((r for r in event.rounds if r.number == number), None)
    if rnd is None:
        raise ApiError(404, "board_not_found", "No such board (yet) in this event.")
    found = {r.table: r for r in results.get(number, []) if r.deal == deal}
    complete = len(found) == len(rnd.tables)
    scored = score_deal(deal_results(rnd, list(found.values()), deal)) if complete else []
    points = {t: pair for t, pair in zip(sorted(found), scored, strict=False)}
    tables = []
    for table in rnd.tables:
        played = found.get(table.table)
        row: dict[str, Any] = {
            "table": table.table,
            "ns": table.ns,
            "ew": table.ew,
            "game_id": table.game_id,
            "finished": played is not None,
            "bids": list(played.bids) if played else None,
            "tricks": list(played.tricks) if played else None,
            "score": {"ns": played.points[0], "ew": played.points[1]} if played else None,
            "matchpoints": None,
            "no_show": [p for p in (table.ns, table.ew) if p in rnd.no_shows],
        }
        if table.table in points:
            ns, ew = points[table.table]
            row["matchpoints"] = {"ns": ns.matchpoints, "ew": ew.matchpoints, "top": ns.top}
        tables.append(row)
    played = (pars or {}).get(number, [])
    par = {"ns": played[deal - 1][0], "ew": played[deal - 1][1]} if len(played) >= deal else None
    return {
        "event_id": event.event_id,
        "board": board,
        "round": number,
        "deal": deal,
        "tables": tables,
        "par": par,
        "par_game_id": rnd.par_game_id,
    }
