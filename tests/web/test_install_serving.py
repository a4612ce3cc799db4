"""How the API serves what makes /play installable (no browser): the web app manifest and its icons, the
page's links to them, the service worker with the client's build id and files, and the CSP that lets the
page use both. The browser side is tests/web/test_offline.py."""

from __future__ import annotations

import json
import re
import shutil
import struct

import pytest

from services.api.app import create_app
from services.web import WEB_ROOT
from tests.conftest import NO_STORE_CONFIG

BASE = dict(NO_STORE_CONFIG)


@pytest.fixture(scope="module")
def client():
    return create_app(BASE).test_client()


def build_and_files(worker_source: str) -> tuple[str, list[str]]:
    build = json.loads(re.search(r"const BUILD = (\"[^\"]*\");", worker_source).group(1))
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", worker_source, re.S).group(1))
    return build, files


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_describes_a_standalone_app_at_play(client):
    response = client.get("/play/manifest.webmanifest")
    assert response.status_code == 200 and response.mimetype == "application/manifest+json"
    assert "no-cache" in response.headers["Cache-Control"] and response.headers.get("ETag")
    manifest = response.get_json(force=True)
    assert manifest["name"] and manifest["short_name"]
    assert manifest["start_url"] == manifest["scope"] == manifest["id"] == "/play"
    assert manifest["display"] == "standalone"
    for colour in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest[colour]), colour
    pngs = {}
    for icon in manifest["icons"]:
        served = client.get(icon["src"])
        assert served.status_code == 200 and served.mimetype == icon["type"], icon["src"]
        if icon["type"] == "image/png":
            width, height = png_size(served.get_data())
            assert icon["sizes"] == f"{width}x{height}", icon["src"]
            pngs.setdefault(icon["purpose"], set()).add(width)
    assert pngs["any"] >= {192, 512} and pngs["maskable"] >= {512}


def test_the_page_links_the_manifest_its_colour_and_a_touch_icon(client):
    html = client.get("/play").get_data(as_text=True)
    assert '<link rel="manifest" href="/play/manifest.webmanifest">' in html
    manifest = client.get("/play/manifest.webmanifest").get_json(force=True)
    assert f'<meta name="theme-color" content="{manifest["theme_color"]}">' in html
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html).group(1)
    assert png_size(client.get(touch).get_data()) == (180, 180)


def test_the_page_may_load_its_own_manifest_and_worker_only(client):
    csp = client.get("/play").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["manifest-src"] == "'self'" and directives["worker-src"] == "'self'"
    assert client.get("/play/sw.js").headers["Content-Security-Policy"] == csp


def test_the_worker_carries_the_build_and_every_file_of_the_client(client):
    response = client.get("/play/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/play"  # it may control /play itself, not only /play/…
    assert "no-cache" in response.headers["Cache-Control"]
    build, files = build_and_files(response.get_data(as_text=True))
    assert re.fullmatch(r"[0-9a-f]{16}", build)
    on_disk = {p.relative_to(WEB_ROOT).as_posix() for p in WEB_ROOT.rglob("*") if p.is_file()}
    assert set(files) == {"/play"} | {f"/play/{name}" for name in on_disk - {"index.html"}}
    assert {"/play/js/main.js", "/play/js/locales/id.js", "/play/css/play.css", "/play/manifest.webmanifest"} <= set(
        files
    )
    assert not any(f.startswith("/v1") or f == "/play/sw.js" for f in files)
    for path in files:
        assert client.get(path).status_code == 200, path
    assert client.get("/play/sw.js", headers={"If-None-Match": response.headers["ETag"]}).status_code == 304


def test_a_changed_file_changes_the_build(tmp_path):
    root = tmp_path / "static"
    shutil.copytree(WEB_ROOT, root)
    client = create_app({**BASE, "WEB_ROOT": str(root)}).test_client()
    first, _ = build_and_files(client.get("/play/sw.js").get_data(as_text=True))
    assert first == build_and_files(client.get("/play/sw.js").get_data(as_text=True))[0], "stable while nothing changes"
    assert first == build_and_files(create_app(BASE).test_client().get("/play/sw.js").get_data(as_text=True))[0]
    module = root / "js" / "dom.js"
    module.write_text(module.read_text() + "\n// a new version\n")
    second, _ = build_and_files(client.get("/play/sw.js").get_data(as_text=True))
    assert second != first
    assert "// a new version" in client.get("/play/js/dom.js").get_data(as_text=True)  # served from WEB_ROOT
    (root / "js" / "extra.js").write_text("export const x = 1;\n")
    third, files = build_and_files(client.get("/play/sw.js").get_data(as_text=True))
    assert third != second and "/play/js/extra.js" in files


def page_build(html: str) -> str:
    return re.search(r'<meta name="client-build" content="([^"]*)">', html).group(1)


def test_the_page_and_version_json_say_the_build_the_worker_has(tmp_path):
    """The page is sent with the build id of its files, /play/version.json says the server's: equal while
    nothing changes, both the new one once a file changes (a page sent before then sees the difference)."""
    root = tmp_path / "static"
    shutil.copytree(WEB_ROOT, root)
    client = create_app({**BASE, "WEB_ROOT": str(root)}).test_client()
    build, _ = build_and_files(client.get("/play/sw.js").get_data(as_text=True))
    page = client.get("/play")
    assert page.mimetype == "text/html" and page_build(page.get_data(as_text=True)) == build
    assert page.headers["Cache-Control"] == "no-cache" and page.headers["ETag"] == f'"{build}"'
    assert client.get("/play", headers={"If-None-Match": page.headers["ETag"]}).status_code == 304
    version = client.get("/play/version.json")
    assert version.mimetype == "application/json" and version.get_json() == {"build": build}
    assert version.headers["Cache-Control"] == "no-cache"
    module = root / "js" / "dom.js"
    module.write_text(module.read_text() + "\n// a new version\n")
    newer = client.get("/play/version.json").get_json()["build"]
    assert newer != build and page_build(client.get("/play").get_data(as_text=True)) == newer
    assert client.get("/play", headers={"If-None-Match": page.headers["ETag"]}).status_code == 200
