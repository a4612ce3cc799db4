"""spades_client without a server: SSE framing, moves, problems as exceptions, which requests are repeated,
a stream that resumes after a cut with Last-Event-ID (fake transports), and the pool's idle limit (a local
socket server)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from urllib3.exceptions import ProtocolError, ReadTimeoutError

from spades_client import Move, NotYourTurn, SpadesClient, TooFarBehind, as_move
from spades_client.errors import IllegalMove, ProblemError, Retryable, problem_error
from spades_client.pool import FreshConnectionAdapter, pooled_session
from spades_client.sse import EventStream, SseParser
from testkit.local_http import QuietHandler, local_http_server


def parse(text: str) -> list[tuple[str, str, str]]:
    parser = SseParser()
    messages = [parser.line(line) for line in text.split("\n")]
    return [(m.id, m.event, m.data) for m in messages if m is not None]


def test_the_parser_reads_the_servers_framing_and_skips_comments():
    text = 'retry: 2000\n\nid: 5\nevent: bid\ndata: {"seq":5}\n\n: keep-alive\n\nid: 6\ndata: a\ndata: b\n\n'
    assert parse(text) == [("5", "bid", '{"seq":5}'), ("6", "message", "a\nb")]


def test_the_parser_keeps_the_retry_and_drops_an_unfinished_message():
    parser = SseParser()
    for line in ["retry: 1500", "", "id: 3", "data: half"]:
        assert parser.line(line) is None
    assert parser.retry_ms == 1500


@pytest.mark.parametrize(
    ("answer", "move"),
    [
        (3, Move("bids", {"bid": 3})),
        ("QS", Move("plays", {"card": "QS"})),
        ({"bid": 0}, Move("bids", {"bid": 0})),
        ({"card": "2C"}, Move("plays", {"card": "2C"})),
        (Move("blind-nil", {"blind": True}), Move("blind-nil", {"blind": True})),  # a kind the client never named
        ({"look": True}, Move("blind", {"look": True})),  # the house rules' moves as a hint names them
        ({"bid": 0, "blind": True}, Move("blind", {"bid": 0})),
        ({"pass": ["AS", "KH"]}, Move("passes", {"cards": ["AS", "KH"]})),
    ],
)
def test_a_bots_answer_becomes_a_move(answer: Any, move: Move):
    assert as_move(answer) == move


@pytest.mark.parametrize(
    "answer", [True, None, {"bid": 1, "card": "QS"}, {"pass": 1}, {"look": False}, {"bid": 2, "blind": False}, 2.5]
)
def test_what_is_not_a_move_is_refused(answer: Any):
    with pytest.raises(TypeError):
        as_move(answer)


def problem(code: str, status: int, **more: Any) -> dict[str, Any]:
    return {"type": f"urn:spades:problem:{code}", "title": code, "status": status, "detail": code, "code": code,
            **more}  # fmt: skip


def test_problems_are_typed_exceptions_carrying_the_problem():
    error = problem_error(409, problem("not_your_turn", 409, reason="not_your_turn"))
    assert isinstance(error, NotYourTurn) and error.problem.reason == "not_your_turn"
    behind = problem_error(410, problem("too_far_behind", 410, first_seq=40))
    assert isinstance(behind, TooFarBehind) and behind.problem.first_seq == 40
    assert isinstance(problem_error(422, problem("illegal_move", 422, reason="must_follow_suit")), IllegalMove)
    assert type(problem_error(500, "<html>")) is ProblemError
    assert isinstance(problem_error(503, "down"), Retryable)


class FakeResponse:
    def __init__(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self.status_code = status
        self.ok = status < 400
        self.body = body
        self.headers = headers or {}
        self.text = json.dumps(body)

    def json(self) -> Any:
        return self.body


class FakeSession:
    """Answers each request with the next item of ``script`` (a response, or an exception to raise)."""

    def __init__(self, script: list[Any]) -> None:
        self.script = script
        self.sent: list[tuple[str, str, dict[str, Any]]] = []

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        self.sent.append((method, url, kwargs))
        answer = self.script.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


VIEW_FIELDS = json.loads(json.dumps({
    "game_id": "g", "version": 8, "phase": "bidding", "round": 1, "dealer": 0, "turn": 2, "you": 1, "hand": [],
    "hand_sizes": [13] * 4, "legal": [], "bids": [None] * 4, "tricks_won": [0] * 4, "leader": None, "trick": [],
    "tricks": [], "last_trick": None, "spades_broken": False, "scores": [0, 0], "bags": [0, 0],
    "rules": {"scoring": "partnership", "win_score": 500, "lose_score": -200, "set_penalty": "negative",
              "bag_limit": 10, "bag_penalty": 100, "nil": True, "nil_value": 100, "min_team_bid": 4,
              "max_team_bid": 13, "nil_tricks_count_for_team": True, "spades_must_be_broken": True,
              "jokers": False, "deuces_high": False, "blind_nil": False, "blind_nil_value": 200, "blind_bids": False,
              "blind_margin": 100, "nil_pass_cards": 0, "nil_pass_blind_only": False, "suicide": False,
              "ten_for_200": False, "ten_for_200_value": 200, "mercy_margin": None},
    "history": [], "winner": None, "seats": [], "options": {"ai_takeover": None, "hints": True}, "seeded": False,
    "last_seq": 9, "a_field_from_a_newer_server": {"x": 1},
}))  # fmt: skip


def test_a_move_is_repeated_after_a_lost_connection_and_a_503_with_one_key_and_if_match():
    session = FakeSession([
        requests.ConnectionError("reset"),
        FakeResponse(503, problem("unavailable", 503), {"Retry-After": "1"}),
        FakeResponse(200, VIEW_FIELDS),
    ])  # fmt: skip
    waits: list[float] = []
    client = SpadesClient("http://api", "tok", session=session, sleep=waits.append)
    view = client.place_bid("g", 3, version=7)
    assert view.version == 8 and view.extra == {"a_field_from_a_newer_server": {"x": 1}}
    keys = {kwargs["headers"]["Idempotency-Key"] for _, _, kwargs in session.sent}
    assert len(session.sent) == 3 and len(keys) == 1
    assert all(kwargs["headers"]["If-Match"] == '"7"' for _, _, kwargs in session.sent)
    assert all(kwargs["headers"]["Authorization"] == "Bearer tok" for _, _, kwargs in session.sent)
    assert waits[1] == 1.0  # Retry-After


def test_a_read_is_repeated_after_its_answer_was_cut_mid_body_and_a_create_is_not():
    """A server process that dies while sending an answer cuts it mid-body: requests raises ChunkedEncodingError (a
    chunked body or a Content-Length one alike), which is a lost connection too."""
    cut = requests.exceptions.ChunkedEncodingError("Connection broken: IncompleteRead(5 bytes read, 95 more expected)")
    session = FakeSession([cut, FakeResponse(200, VIEW_FIELDS)])
    assert SpadesClient("http://api", "tok", session=session, sleep=lambda s: None).get_game("g").version == 8
    assert len(session.sent) == 2
    session = FakeSession([cut])
    with pytest.raises(requests.exceptions.ChunkedEncodingError):
        SpadesClient("http://api", session=session, sleep=lambda s: None).create_game()
    assert len(session.sent) == 1


def test_a_create_is_not_repeated_after_a_lost_connection_but_is_after_a_429():
    session = FakeSession([requests.ConnectionError("reset")])
    with pytest.raises(requests.ConnectionError):
        SpadesClient("http://api", session=session, sleep=lambda s: None).create_game()
    assert len(session.sent) == 1
    quota = FakeResponse(429, problem("too_many_games", 429, limit=20), {"Retry-After": "2"})
    session = FakeSession([quota, FakeResponse(201, {"game_id": "g", "seats": [], "state": VIEW_FIELDS})])
    created = SpadesClient("http://api", session=session, sleep=lambda s: None).create_game()
    assert created.game_id == "g" and len(session.sent) == 2


def test_taking_my_seat_is_repeated_after_a_lost_connection_and_keeps_the_new_token():
    """A kept-alive connection the server closes just as the take goes out is reset: the take is repeated (it
    only gives the seat another token), where a claim of an empty seat is not."""
    taken = {"game_id": "g", "seat": 1, "token": "seat-2", "state": VIEW_FIELDS}
    session = FakeSession([requests.ConnectionError("reset"), FakeResponse(200, taken)])
    client = SpadesClient("http://api", player_token="ptok", session=session, sleep=lambda s: None)
    assert client.take_my_seat("g", 1).token == "seat-2" and client.token == "seat-2"
    assert [url for _, url, _ in session.sent] == ["http://api/v1/games/g/seats/1/take"] * 2
    session = FakeSession([requests.ConnectionError("reset")])
    with pytest.raises(requests.ConnectionError):
        SpadesClient("http://api", player_token="ptok", session=session, sleep=lambda s: None).claim_seat("g", 1)
    assert len(session.sent) == 1


def test_a_refusal_that_is_not_retryable_raises_at_once():
    session = FakeSession([FakeResponse(409, problem("not_your_turn", 409, reason="not_your_turn"))])
    with pytest.raises(NotYourTurn):
        SpadesClient("http://api", "tok", session=session).play_card("g", "QS", version=3)
    assert len(session.sent) == 1


class FakeStream:
    """A streaming response whose body is ``chunks``; a ``None`` chunk is a cut connection (raising ``cut``)."""

    def __init__(self, chunks: list[bytes | None], cut: Exception | None = None) -> None:
        self.raw = self
        self.chunks = chunks
        self.cut = cut or requests.exceptions.ChunkedEncodingError("cut")

    def read1(self, size: int) -> bytes:
        if not self.chunks:
            return b""
        chunk = self.chunks.pop(0)
        if chunk is None:
            raise self.cut
        return chunk

    def close(self) -> None:
        pass


def frame(seq: int, kind: str = "bid", version: int = 1) -> bytes:
    event = {"seq": seq, "type": kind, "version": version, "data": {}}
    return f"id: {seq}\nevent: {kind}\ndata: {json.dumps(event)}\n\n".encode()


def test_the_stream_resumes_after_a_cut_from_the_last_event_it_yielded():
    opened: list[int] = []
    bodies = [
        [b"retry: 10\n\n", frame(1), frame(2)[:7], None],  # cut in the middle of event 2
        [frame(2), frame(3, "game_over")],
    ]

    def open_connection(last_seq: int) -> FakeStream:
        opened.append(last_seq)
        return FakeStream(bodies.pop(0))

    stream = EventStream(open_connection, after=0, sleep=lambda s: None)
    assert [e.seq for e in stream] == [1, 2, 3]
    assert opened == [0, 1] and stream.reconnects == 1


def test_the_stream_skips_the_tables_presence_and_message_frames():
    presence = b'event: presence\ndata: {"seats":[true,false,false,false]}\n\n'
    message = b'event: message\ndata: {"seat":1,"code":"wow","at_ms":5}\n\n'
    body = [b"retry: 10\n\n" + presence, frame(1), message, frame(2, "game_over")]
    assert [e.seq for e in EventStream(lambda last_seq: FakeStream(body), after=0)] == [1, 2]


@pytest.mark.parametrize(
    "cut",
    [  # what urllib3's read1 raises when the server's process dies mid-body (reset, or closed) or goes quiet
        ProtocolError("Connection broken: ConnectionResetError(104, 'Connection reset by peer')"),
        ProtocolError("Connection broken: IncompleteRead(0 bytes read)"),
        ReadTimeoutError(None, "/v1/games/g/stream", "Read timed out."),
    ],
)
def test_the_stream_resumes_after_its_server_process_dies_mid_body(cut: Exception):
    bodies = [[frame(1), None], [frame(2, "game_over")]]
    stream = EventStream(lambda last_seq: FakeStream(bodies.pop(0), cut), after=0, sleep=lambda s: None)
    assert [e.seq for e in stream] == [1, 2]
    assert stream.reconnects == 1


def test_the_stream_ends_on_204_and_passes_too_far_behind_on():
    assert list(EventStream(lambda last: None)) == []

    def trimmed(last_seq: int) -> FakeStream:
        raise problem_error(410, problem("too_far_behind", 410, first_seq=50))

    with pytest.raises(TooFarBehind):
        list(EventStream(trimmed))


def test_the_client_package_imports_nothing_of_the_service_and_the_service_nothing_of_it():
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]

    def imported(path: Path) -> set[str]:
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        return names

    client = {p.name: imported(p) & {"services", "benchmarks", "testkit", "tests"}
              for p in (root / "clients" / "python" / "spades_client").glob("*.py")}  # fmt: skip
    assert {name: found for name, found in client.items() if found} == {}
    service = {str(p): "spades_client" in imported(p) for p in (root / "services").rglob("*.py")}
    assert [path for path, found in service.items() if found] == []


def test_a_match_on_a_server_without_match_mode_stops_with_the_servers_answer(monkeypatch, tmp_path, capsys):
    from spades_client import cli

    refusal = problem("seeded_games_disabled", 403)
    refusal["detail"] = "This server does not create games with a chosen seed (ALLOW_SEEDED_GAMES is off)."
    session = FakeSession([FakeResponse(403, refusal) for _ in range(2)])  # the deal's two games
    monkeypatch.setattr(
        cli,
        "SpadesClient",
        lambda api, player_token=None: SpadesClient(api, player_token=player_token, session=session),
    )
    bot = tmp_path / "bot.py"
    bot.write_text("def choose(view):\n    return None\n")
    code = cli.main(["match", "--api", "http://api", "--bot", f"{bot}:choose", "--deals", "1", "--parallel", "1"])
    assert code == 2 and session.sent[0][0] == "POST"
    assert "not in match mode: 403 seeded_games_disabled" in capsys.readouterr().err


class PortEcho(QuietHandler):
    """Answers every GET with the client's port: which connection carried the request."""

    protocol_version = "HTTP/1.1"  # keeps the connection open between requests

    def do_GET(self) -> None:
        body = str(self.client_address[1]).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def port_echo() -> Iterator[str]:
    with local_http_server(PortEcho) as base:
        yield base + "/"


def test_a_connection_idle_past_the_limit_is_opened_again_before_its_next_request(port_echo):
    """A pooled connection is reused within the idle limit and replaced after it (a fake clock: no waiting), so no
    request goes out on a connection the server's keep-alive is about to close."""
    now = [100.0]
    session = requests.Session()
    session.mount("http://", FreshConnectionAdapter(idle_limit=3.0, clock=lambda: now[0]))
    first = session.get(port_echo, timeout=10).text
    now[0] += 2.9
    assert session.get(port_echo, timeout=10).text == first, "within the limit the connection is reused"
    now[0] += 3.1
    second = session.get(port_echo, timeout=10).text
    assert second != first, "past the limit a new connection carries the request"
    assert session.get(port_echo, timeout=10).text == second
    assert isinstance(pooled_session().get_adapter("https://example.org/"), FreshConnectionAdapter)


def test_a_proxys_pools_keep_the_idle_limit_too():
    adapter = FreshConnectionAdapter(idle_limit=3.0)
    manager = adapter.proxy_manager_for("http://127.0.0.1:9")
    assert manager.pool_classes_by_scheme == adapter.pool_classes
