"""The web client's SSE parser (services/web/static/js/sse.js), run in the browser the client targets
(Debian's chromium via Playwright; no server): the HTML standard's event-stream rules, fed in chunks
split anywhere, as a fetch body arrives."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import PageErrors

SSE_JS = Path(__file__).resolve().parents[2] / "services" / "web" / "static" / "js" / "sse.js"
ORIGIN = "http://client.test"  # answered by the route below, never the network

# The stream as the server frames it (services/api/live/stream.py): retry first, events, a heartbeat.
SERVER = (
    "retry: 2000\n\n"
    'id: 5\nevent: bid\ndata: {"seq":5,"type":"bid"}\n\n'
    ": keep-alive\n\n"
    'id: 6\nevent: card_played\ndata: {"seq":6,"type":"card_played"}\n\n'
)
SERVER_MESSAGES = [
    {"id": "5", "event": "bid", "data": '{"seq":5,"type":"bid"}'},
    {"id": "6", "event": "card_played", "data": '{"seq":6,"type":"card_played"}'},
]


@pytest.fixture(scope="module")
def parse(browser):
    """parse(chunks) -> (messages, retry, lastEventId) from one SseParser fed the chunks in order."""
    context, errors = browser.new_context(), PageErrors()
    errors.watch(context)
    page = context.new_page()
    page.route(f"{ORIGIN}/sse.js", lambda route: route.fulfill(body=SSE_JS.read_text(), content_type="text/javascript"))
    page.route(
        f"{ORIGIN}/", lambda route: route.fulfill(body="<!doctype html><title>sse</title>", content_type="text/html")
    )
    page.goto(f"{ORIGIN}/")

    def run(chunks: list[str]) -> tuple[list[dict], int | None, str]:
        return tuple(
            page.evaluate(
                """async (chunks) => {
                    const { SseParser } = await import("/sse.js");
                    const parser = new SseParser();
                    const messages = chunks.flatMap((chunk) => parser.push(chunk));
                    return [messages, parser.retry, parser.lastEventId];
                }""",
                chunks,
            )
        )

    yield run
    context.close()
    assert not errors.unexpected(), errors.unexpected()


def test_the_servers_framing_gives_its_events_and_retry(parse):
    assert parse([SERVER]) == (SERVER_MESSAGES, 2000, "6")


def test_any_split_of_the_stream_gives_the_same_messages(parse):
    """A fetch body arrives in arbitrary pieces: every split point, and one character at a time."""
    for cut in range(1, len(SERVER)):
        assert parse([SERVER[:cut], SERVER[cut:]])[0] == SERVER_MESSAGES, cut
    assert parse(list(SERVER)) == (SERVER_MESSAGES, 2000, "6")


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_lines_end_with_crlf_cr_or_lf(parse, newline):
    assert parse([SERVER.replace("\n", newline)]) == (SERVER_MESSAGES, 2000, "6")


def test_a_crlf_split_across_chunks_is_one_line_end(parse):
    """A CR ending one chunk and the LF starting the next must not read as a blank line (a dispatch)."""
    assert parse(["data: a\r", "\n", "data: b\r", "\n\r\n"])[0] == [{"id": "", "event": "message", "data": "a\nb"}]
    assert parse(["data: a\r", "\r", "\n"])[0] == [{"id": "", "event": "message", "data": "a"}]


def test_data_lines_join_with_newlines_and_field_values_lose_one_space(parse):
    messages, _, _ = parse(["data:first\ndata:  second\ndata\ndata: \n\n"])
    assert messages == [{"id": "", "event": "message", "data": "first\n second\n\n"}]


def test_comments_unknown_fields_and_messages_without_data_dispatch_nothing(parse):
    stream = ": hello\n\nevent: bid\n\nfoo: bar\nid: 3\n\n"
    assert parse([stream]) == ([], None, "3")


def test_the_last_id_persists_and_an_id_with_nul_is_ignored(parse):
    messages, _, last = parse(["id: 7\ndata: a\n\ndata: b\n\nid: 8\0\ndata: c\n\n"])
    assert [(m["id"], m["data"]) for m in messages] == [("7", "a"), ("7", "b"), ("7", "c")]
    assert last == "7"


def test_the_event_type_resets_after_each_message(parse):
    messages, _, _ = parse(["event: bid\ndata: 1\n\ndata: 2\n\n"])
    assert [m["event"] for m in messages] == ["bid", "message"]


def test_retry_takes_only_digits(parse):
    assert parse(["retry: 1500\n\nretry: soon\n\nretry: 15x\n\n"])[1] == 1500


def test_an_unfinished_message_is_not_dispatched(parse):
    assert parse(['id: 9\nevent: bid\ndata: {"seq":9}\n'])[0] == []


def test_a_leading_byte_order_mark_is_skipped_once(parse):
    assert parse(["\ufeffdata: a\n\n"])[0] == [{"id": "", "event": "message", "data": "a"}]
    assert parse(["\ufeff", "\ufeffdata: a\n\n"])[0] == []  # a second BOM is part of a field name
