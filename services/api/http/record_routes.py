"""The records' routes on the v1 blueprint: one game's record, and the listing (pages, or an NDJSON export).

Handlers only parse and answer; what a record is, which records are shown and where they come from is
:mod:`services.api.records.reading` and :mod:`services.api.records.repository`.  An export sends at most
``EXPORT_MAX_RECORDS`` records; one that stops short of the end says where the next one starts in a
``Link: <…cursor=…>; rel="next"`` header (the export's own rate limit: ``EXPORT_RATE_LIMIT``,
:func:`services.api.http.rate_limits.limit_exports`, on the requests :func:`wants_export` picks).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import orjson
from flask import Response, current_app, request
from marshmallow import Schema, ValidationError, fields, validate
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from services.api.http.request_schemas import QueryInteger
from services.api.http.routes import v1
from services.api.problems import ApiError, flatten_messages, invalid_request
from services.api.ratings.record_view import annotate, by_the_rule
from services.api.records.content import iso
from services.api.records.reading import game_record
from services.api.records.repository import RecordFilter, RecordRepository, decode_cursor, encode_cursor
from services.computers import LEVEL_NAMES

NDJSON = "application/x-ndjson"
MAX_PAGE = 200
RESULTS = ("finished", "abandoned", "won", "lost")


class RecordsQuery(Schema):
    since = fields.AwareDateTime(load_default=None)
    until = fields.AwareDateTime(load_default=None)
    level = fields.String(load_default=None, validate=validate.OneOf(["human", *LEVEL_NAMES]))
    result = fields.String(load_default=None, validate=validate.OneOf(RESULTS))
    player_id = fields.String(load_default=None, validate=validate.Length(1, 40))
    cursor = fields.String(load_default=None, validate=validate.Length(max=200))
    limit = QueryInteger(load_default=50, validate=validate.Range(1, MAX_PAGE))
    format = fields.String(load_default=None, validate=validate.OneOf(["json", "ndjson"]))


RECORDS_QUERY = RecordsQuery()


def _repository() -> RecordRepository:
    repository = current_app.extensions.get("spades.records")
    if repository is None:
        raise ApiError(404, "not_found", "This server keeps no game records (RECORDS_ENABLED is off).")
    return repository


def records_engine() -> Engine:
    """The records database's engine (players, ratings and games live there too); 404 when records are off."""
    return _repository().engine


@v1.get("/games/<game_id>/record")
def record_of_game(game_id: str) -> Response:
    """The game's record: from the records database, or built from the finished game Redis holds; with its
    players' names and rating changes as they are now (:func:`services.api.ratings.record_view.annotate`)."""
    repository = _repository()
    body = game_record(current_app.extensions["spades.commands"].store, repository, game_id)
    document = orjson.loads(body)
    try:
        with repository.engine.connect() as connection:
            body = orjson.dumps(annotate(connection, document))
    except SQLAlchemyError:  # the database is down: the record Redis still holds, without names and ratings
        body = orjson.dumps(by_the_rule(document))
    return Response(body, 200, [("Content-Type", "application/json")])


@v1.get("/records")
def records() -> Response:
    """Records newest first: a page of summaries, or with ``format=ndjson`` (or ``Accept: application/x-ndjson``)
    every matching record, one JSON document a line, streamed."""
    query = _records_query()
    where = RecordFilter(_ms(query["since"]), _ms(query["until"]), query["level"], query["result"], query["player_id"])
    after = _cursor(query["cursor"])
    repository = _repository()
    if wants_export():
        most = int(current_app.config["EXPORT_MAX_RECORDS"])
        end = repository.export_end(where, after, most) if most > 0 else None
        headers = [("Content-Type", NDJSON)]
        if end is not None:
            headers.append(("Link", f'<{_continued_at(end)}>; rel="next"'))
        return Response(_lines(repository.stream(where, after, end)), 200, headers)
    summaries, following = repository.page(where, after, query["limit"])
    body = {
        "records": [_summary(each) for each in summaries],
        "next_cursor": encode_cursor(following) if following else None,
    }
    return Response(orjson.dumps(body), 200, [("Content-Type", "application/json")])


def wants_export() -> bool:
    """The request asks for the NDJSON export (``format=ndjson``, or no ``format`` and an ``Accept`` that prefers
    NDJSON): the one test of the route and of its rate limit."""
    chosen = request.args.get("format")
    return chosen == "ndjson" or (chosen is None and _prefers_ndjson())


def _continued_at(end: tuple[int, str]) -> str:
    """This request's URL (path and query) with the cursor of the export that goes on after ``end``."""
    args = {**request.args.to_dict(), "cursor": encode_cursor(end)}
    return f"{request.path}?{urlencode(args)}"


def _records_query() -> dict[str, Any]:
    try:
        return RECORDS_QUERY.load(request.args.to_dict())
    except ValidationError as error:
        raise invalid_request(flatten_messages(error.messages)) from None


def _cursor(text: str | None) -> tuple[int, str] | None:
    if text is None:
        return None
    try:
        return decode_cursor(text)
    except ValueError:
        raise invalid_request([{"field": "cursor", "message": "Not a cursor this listing returned."}]) from None


def _ms(moment: Any) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def _prefers_ndjson() -> bool:
    accepted = request.accept_mimetypes
    return accepted.quality(NDJSON) > accepted.quality("application/json")


def _summary(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "game_id": row["game_id"],
        "outcome": row["outcome"],
        "created_at": iso(row["created_ms"]),
        "ended_at": iso(row["ended_ms"]),
        "seats": row["seats"],
    }


def _lines(documents: Iterator[bytes]) -> Iterator[bytes]:
    for document in documents:
        yield document + b"\n"
