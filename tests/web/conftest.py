"""Browser fixtures: Debian's chromium driven by Playwright (never Playwright's own download),
against the real gunicorn and Celery worker of tests/conftest.py."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import run_gunicorn

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
STREAM_SECONDS = 3  # the short-lived streams' STREAM_MAX_SECONDS: a page reconnects every few seconds
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"  # git-ignored (/var/)


@pytest.fixture(scope="session")
def browser() -> Iterator:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test.sh installs Debian's chromium (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where chromium's sandbox refuses to start
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def web(api_server: str, ai_worker: None) -> str:
    """The base URL of a real API (gunicorn) with a real AI worker behind it."""
    return api_server


@pytest.fixture(scope="module")
def short_stream_web(redis_db1, ai_worker: None) -> Iterator[str]:
    """A second real API whose push streams close after STREAM_SECONDS (same Redis, same AI worker),
    for pages that must live through the server ending their stream."""
    with run_gunicorn({"STREAM_MAX_SECONDS": str(STREAM_SECONDS)}) as base:
        yield base


# Page errors a test may leave behind: none.  An entry is a substring of the error's text, with the reason beside it.
ALLOWED_PAGE_ERRORS: dict[str, str] = {}
NETWORK_LOG = "Failed to load resource: "  # Chromium's line for every answer >= 400 and every request cut off


class PageErrors:
    """Every uncaught error, unhandled rejection and ``console.error`` of a browser context's pages (every page the
    context opens, the test's own ones too), so a test fails on a script error nobody looked for."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def watch(self, context) -> None:
        context.on("weberror", lambda error: self.seen.append(f"uncaught: {error.error}"))
        context.on("console", self._console)

    def _console(self, message) -> None:
        # the browser's own network log ("Failed to load resource: … 409"): a refusal the page reads and handles
        if message.type == "error" and not message.text.startswith(NETWORK_LOG):
            self.seen.append(f"console.error: {message.text} ({message.location.get('url')})")

    def unexpected(self) -> list[str]:
        return [error for error in self.seen if not any(allowed in error for allowed in ALLOWED_PAGE_ERRORS)]


@pytest.fixture
def page_errors() -> Iterator[PageErrors]:
    """The errors of every page :func:`new_page` made; the test fails at teardown if there is any."""
    errors = PageErrors()
    yield errors
    if found := errors.unexpected():
        pytest.fail("the page reported errors:\n" + "\n".join(found[:20]), pytrace=False)


@pytest.fixture
def new_page(browser, web, page_errors):
    """Pages in fresh browser contexts (each its own localStorage), closed at teardown; on `web`
    unless given another server's base URL.  Any script error on them fails the test (:class:`PageErrors`)."""
    contexts = []

    def make(
        width: int = 1100,
        height: int = 900,
        base: str = web,
        bypass_csp: bool = False,
        reduced_motion=None,
        locale: str = "en-US",
    ):
        # bypass_csp: only to inject axe-core (tests/web/axe.py), whose script tag is inline.
        # locale: the browser's language (navigator.languages and Accept-Language), "id-ID" for Indonesian.
        context = browser.new_context(
            locale=locale,
            viewport={"width": width, "height": height},
            base_url=base,
            bypass_csp=bypass_csp,
            reduced_motion=reduced_motion or "no-preference",
        )
        context.set_default_timeout(60_000)
        page_errors.watch(context)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
