"""axe-core in the page under test: injected from tests/web/node_modules (npm, pinned in
tests/web/package.json; scripts/ensure_npm_tools.sh installs it), never fetched while tests run."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
# Besides axe's default rules, the experimental one that compares a control's visible text with its name.
EXTRA_RULES = {"label-content-name-mismatch": {"enabled": True}}


def violations(page: Page) -> list[dict]:
    """axe's violations on the page as it is now: [{id, impact, help, nodes: [target, ...]}]."""
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: scripts/ensure_npm_tools.sh tests/web installs it")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async (rules) => {
            const result = await axe.run(document, { rules, resultTypes: ["violations"] });
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
            }));
        }""",
        EXTRA_RULES,
    )
    return found


def assert_no_violations(page: Page, screen: str) -> None:
    found = violations(page)
    assert not found, f"axe on the {screen}:\n" + "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n  " + "\n  ".join(v["nodes"][:6]) for v in found
    )
