"""How the API serves the web client: files, caching, the page's CSP, the / redirect; and the
client's level list staying within the contract. (The browser tests are in test_play.py.)"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from services.api.app import create_app
from services.web import WEB_ROOT
from tests.conftest import NO_STORE_CONFIG

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def client():
    app = create_app(dict(NO_STORE_CONFIG))
    return app.test_client()


def test_root_redirects_to_play(client):
    response = client.get("/")
    assert response.status_code == 302 and response.headers["Location"] == "/play"


def test_the_page_and_its_modules_are_served_with_revalidation(client):
    page = client.get("/play")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "no-cache" in page.headers["Cache-Control"] and page.headers.get("ETag")
    for src in re.findall(r'(?:src|href)="(/play/[^"]+)"', page.get_data(as_text=True)):
        assert client.get(src).status_code == 200, src
    module = client.get("/play/js/main.js")
    assert module.mimetype in ("text/javascript", "application/javascript")
    again = client.get("/play/js/main.js", headers={"If-None-Match": module.headers["ETag"]})
    assert again.status_code == 304


def test_the_page_allows_only_its_own_scripts_and_styles(client):
    csp = client.get("/play").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'" and directives["default-src"] == "'none'"
    assert "unsafe-inline" not in csp
    html = (WEB_ROOT / "index.html").read_text()
    assert "<script>" not in html and "style=" not in html, "no inline script or style: the CSP would block it"
    assert client.get("/v1/rules").headers["Content-Security-Policy"].startswith("default-src 'none'")


def test_unknown_and_escaping_paths_are_404_problems(client):
    for path in ("/play/nope.js", "/play/../app.py", "/play/%2e%2e/web.py", "/nothing-here"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.mimetype == "application/problem+json", path


def test_every_module_is_reachable_and_no_script_calls_outside_api_js():
    """fetch lives in api.js only: every server call goes through the /v1 contract module."""
    for module in (WEB_ROOT / "js").glob("*.js"):
        text = module.read_text()
        if module.name != "api.js":
            assert "fetch(" not in text and "XMLHttpRequest" not in text, module.name
        for imported in re.findall(r'from "\./([a-z]+\.js)"', text):
            assert (WEB_ROOT / "js" / imported).exists(), f"{module.name} imports {imported}"


def test_the_client_restates_no_level_list():
    """The lobby's computer levels come from GET /v1/levels (services/computers is the one list):
    no module names the levels itself."""
    sources = "\n".join(p.read_text() for p in (WEB_ROOT / "js").glob("*.js"))
    assert "/v1/levels" in sources
    for name in ("standard", "pro", "basic"):  # ("normal" is also a display pace)
        assert f'"{name}"' not in sources, name


def test_the_bidding_panel_explains_the_team_minimum_when_it_bites(tmp_path):
    """bidding.js's explanation, run in node (part of this machine image): partner bid 1
    with a team minimum of 4."""
    script = tmp_path / "bid.mjs"
    script.write_text(
        f'const {{ bidConstraint }} = await import("{(WEB_ROOT / "js" / "bidding.js").as_uri()}");\n'
        'const rules = { scoring: "partnership", min_team_bid: 4, max_team_bid: 13, nil: true };\n'
        "const legal = [0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];\n"
        "console.log(bidConstraint({ you: 0, rules, bids: [null, 2, 1, null], legal }));\n"
        "console.log(bidConstraint({ you: 0, rules, bids: [null, 2, null, null], legal: [...Array(14).keys()] }));\n"
    )
    out = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60, check=True).stdout
    bites, free = out.splitlines()
    assert "partner (North) bid 1" in bites and "at least 4" in bites and "lowest bid is 3" in bites and "nil" in bites
    assert free == ""
