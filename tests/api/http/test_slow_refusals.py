"""``SlowRefusals``: a 429 is answered after the delay, anything else at once (no server, a recorded sleep)."""

from __future__ import annotations

from services.api.http.rate_limits import SlowRefusals


def app_answering(status: str):
    def app(environ, start_response):
        start_response(status, [("Content-Type", "application/json")])
        return [b"{}"]

    return app


def call(status: str) -> tuple[list[float], list[str], list[bytes]]:
    slept: list[float] = []
    started: list[str] = []
    middleware = SlowRefusals(app_answering(status), 1.5, sleep=slept.append)
    body = middleware({}, lambda status, headers, exc_info=None: started.append(status))
    return slept, started, list(body)


def test_a_refusal_waits_before_its_body_is_returned():
    slept, started, body = call("429 TOO MANY REQUESTS")
    assert slept == [1.5] and started == ["429 TOO MANY REQUESTS"] and body == [b"{}"]


def test_every_other_answer_goes_at_once():
    for status in ("200 OK", "201 CREATED", "503 SERVICE UNAVAILABLE", "404 NOT FOUND"):
        slept, started, _ = call(status)
        assert slept == [] and started == [status]
