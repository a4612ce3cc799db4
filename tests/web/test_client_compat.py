"""/play's JavaScript checked by ESLint (tests/web/eslint.config.mjs): every browser API and built-in it
uses is in every browser the client supports (eslint-plugin-compat, from MDN's compatibility data for
the APIs the plugin knows, which are not all; the list is the config's BROWSERS), and no name is
undefined or unused. The tests drive only Debian's
Chromium: this is what stands for the other browsers people bring."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ESLINT = ROOT / "tests" / "web" / "node_modules" / ".bin" / "eslint"
CONFIG = ROOT / "tests" / "web" / "eslint.config.mjs"
CLIENT = ["services/web/static/js", "services/web/sw.js"]


def eslint(*args: str, stdin: str | None = None) -> tuple[int, list[dict]]:
    """ESLint's exit code and its JSON report, run from the repository's root."""
    if not ESLINT.exists():
        raise AssertionError(f"{ESLINT} is missing: scripts/ensure_npm_tools.sh tests/web installs it")
    done = subprocess.run(
        [str(ESLINT), "--config", str(CONFIG), "--format", "json", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr  # 2: ESLint itself failed
    return done.returncode, json.loads(done.stdout)


def problems(report: list[dict]) -> list[str]:
    return [f"{f['filePath']}:{m['line']}: {m['message']}" for f in report for m in f["messages"]]


def test_the_client_uses_only_what_every_supported_browser_has():
    code, report = eslint(*CLIENT)
    assert {Path(f["filePath"]).name for f in report} >= {"game.js", "transport.js", "sw.js"}
    assert code == 0 and problems(report) == [], "\n".join(problems(report))


def test_the_check_refuses_an_api_a_supported_browser_lacks():
    """The screen wake lock is not in Firefox 115 (ESR), a supported browser; an undefined name is refused too."""
    source = 'export const lock = navigator.wakeLock.request("screen");\nexport const parts = undefinedName;\n'
    code, report = eslint("--stdin", "--stdin-filename", "services/web/static/js/probe.js", stdin=source)
    rules = {m["ruleId"] for f in report for m in f["messages"]}
    assert code == 1 and rules == {"compat/compat", "no-undef"}, problems(report)
