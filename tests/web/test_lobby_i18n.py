"""The lobby, the new game's house rules, the Rules dialog and Settings in the player's words and
language: every rule option, house rule, preset and computer level has its name and line in each
catalogue (shown by its code, not from the API's English); the Rules dialog says the table's actual
rules (the team minimum the bid panel enforces, nil, bags, how the game ends); the levels read in
order of strength; an Indonesian browser sees no English-only word on those screens, at every size
without sideways scrolling; the language chosen in Settings is kept across a reload, and `?lang=id`
chooses Indonesian."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
import requests
from playwright.sync_api import Page, expect

from services.computers.catalogue import LEVEL_NAMES, LEVELS
from services.engine.rules import HOUSE_RULES, OPTION_DOCS, PRESETS
from services.web import WEB_ROOT

from .catalogues import catalogue, english_words_in, languages
from .driver import LONG, open_house_rules, outside, play_now

SIZES = [(1280, 720), (375, 667), (667, 375)]


@pytest.mark.parametrize("code", list(languages()))
def test_every_rule_option_house_rule_preset_and_level_has_its_words(code: str):
    keys = set(catalogue(code))
    wanted = [f"lobby.rule.{option}{part}" for option in [*OPTION_DOCS, *HOUSE_RULES] for part in ("", ".about")]
    wanted += [f"lobby.preset.{preset}{part}" for preset in PRESETS for part in ("", ".short", ".about")]
    wanted += [f"lobby.level.{level}{part}" for level in LEVEL_NAMES for part in ("", ".summary")]
    wanted += [f"players.level.{level}" for level in LEVEL_NAMES]  # the players' lists name it too
    assert sorted(key for key in wanted if key not in keys) == []


def test_level_lines_follow_the_levels_strength():
    """The lines say what docs/ai.md measured: easy the gentlest, normal above standard and pro, which
    are even (next to each other), hard above normal, expert the strongest."""
    english = catalogue("en")
    by_strength = sorted(LEVEL_NAMES, key=lambda name: LEVELS[name].strength)
    assert (by_strength[0], by_strength[-1]) == ("easy", "expert")
    assert abs(by_strength.index("standard") - by_strength.index("pro")) == 1
    assert by_strength.index("pro") < by_strength.index("normal") < by_strength.index("hard")
    assert by_strength.index("standard") < by_strength.index("normal")
    assert "gentlest" in english["lobby.level.easy.summary"].lower()
    assert "strongest" in english["lobby.level.expert.summary"].lower()
    assert "strongest" not in english["lobby.level.hard.summary"].lower()
    assert "above Standard and Pro" in english["lobby.level.normal.summary"]
    assert "As strong as Pro" in english["lobby.level.standard.summary"]
    for code in languages():
        for text in catalogue(code).values():
            assert not re.search(r"\bseeds? ?0\d\d|\d&\d|\bnull\b|_", str(text), re.I), text


def test_the_rules_dialog_says_each_presets_rules_in_each_language():
    """rulewords.js run in node on every preset's rules: the team minimum the bid panel enforces is
    said for partnership play, never for individual play; nothing left as a key or a code."""
    script = (
        f'const i18n = await import("{(WEB_ROOT / "js" / "i18n.js").as_uri()}");\n'
        f'const words = await import("{(WEB_ROOT / "js" / "rulewords.js").as_uri()}");\n'
        f"const presets = {json.dumps({name: rules.to_dict() for name, rules in PRESETS.items()})};\n"
        "const out = {};\n"
        "for (const code of ['en', 'id']) {\n"
        "  await i18n.useLanguage(code);\n"
        "  for (const [name, rules] of Object.entries(presets))\n"
        "    out[`${code}:${name}`] = [...words.variantWords(rules), ...words.tableRuleWords(rules)];\n"
        "}\n"
        "process.stdout.write(JSON.stringify(out));"
    )
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    said = json.loads(out.stdout)
    assert "Partners together bid at least 4 tricks, unless one of them bids nil" in said["en:partnership"]
    assert "Dua rekan bersama menawar sedikitnya 4 trik, kecuali salah satunya menawar nil" in said["id:partnership"]
    assert not any("Partners" in line for line in said["en:individual"])
    assert "Blind nil ±200" in said["en:house"] and "Ampun bila tertinggal 500" in said["id:house"]
    for key, lines in said.items():
        assert all(not re.search(r"lobby\.|\{|_", line) for line in lines), (key, lines)
        if key.startswith("id:"):
            assert english_words_in(" ".join(lines)) == set(), (key, lines)


@pytest.mark.integration
def test_the_player_reads_rules_and_levels_in_plain_words(new_page, web):
    page = new_page(1280, 720)
    page.goto("/play?pace=0")
    # the levels, weakest first, each with its strength: normal reads stronger than pro
    levels = requests.get(f"{web}/v1/levels", timeout=30).json()["levels"]
    top = max(level["strength"] for level in levels)
    expect(page.locator(".level")).to_have_count(len(levels))  # drawn once the page's own GET /v1/levels answers
    shown = page.locator(".level").evaluate_all("els => els.map(e => e.dataset.level)")
    assert shown.index("normal") > shown.index("pro") > shown.index("basic")
    expect(page.locator(".level[data-level=normal] .level-summary")).to_contain_text("above Standard and Pro")
    for level in levels:
        expect(page.locator(f".level[data-level={level['name']}] .level-strength")).to_contain_text(
            f"strength {level['strength']} of {top}"
        )
    expect(page.locator("#seat-1 option[value='ai:normal']")).to_have_count(1)
    seat_levels = page.locator("#seat-1 option").evaluate_all("els => els.map(e => e.value)")
    assert seat_levels.index("ai:normal") > seat_levels.index("ai:pro")

    # House rules: no text written for developers
    open_house_rules(page)
    for preset in ("partnership", "individual", "house"):
        page.select_option("#preset", preset)
        help_text = page.locator("#preset-help").inner_text()
        assert help_text and not re.search(r"seed|0&2|1&3|null|_", help_text, re.I), help_text
    form = page.locator("[data-testid=new-game-form]").inner_text()
    assert not re.search(r"\bseeds?\b|0&2|\bnull\b|[a-z]_[a-z]", form, re.I), form

    # the Rules dialog says the table's rules, the team minimum the bid panel enforces among them
    play_now(page, "easy")
    page.click("[data-testid=rules-button]")
    rules = page.locator("[data-testid=rules]")
    expect(rules.locator("[data-testid=no-house-rules]")).to_have_text(
        "No house rules; this table plays to 500 points."
    )
    listed = rules.locator("[data-testid=table-rules-list]")
    expect(listed).to_contain_text("Partners together bid at least 4 tricks, unless one of them bids nil")
    expect(listed).to_contain_text("500 points or falls to \u2212200")
    expect(listed).to_contain_text("Every 10 bags cost 100 points")
    expect(listed).to_contain_text("Nil (no tricks at all): +100 if made, −100 if not")
    expect(rules).not_to_contain_text("standard game")
    assert not page.js_errors


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


# The player's name in the lobby and in Settings (identity.js) is checked by the players' pages' tests.
def indonesian(page: Page, where: str, allowed: frozenset[str] = frozenset()) -> None:
    """No English-only word in ``where``'s text, every option of its lists and its labels included."""
    text = page.locator(where).first.evaluate(
        """(el) => {
            const labels = [...el.querySelectorAll("[aria-label], [title]")].map((e) => `${e.getAttribute("aria-label") || ""} ${e.title || ""}`);
            return [el.textContent, ...labels].join(" ");
        }"""
    )
    assert english_words_in(text, set(allowed)) == set(), (where, text)


@pytest.mark.integration
def test_an_indonesian_browser_sees_the_lobby_rules_and_settings_in_indonesian(new_page, web, screenshots):
    page = new_page(1280, 720, locale="id-ID")
    live = requests.post(f"{web}/v1/games", json={"seats": [{"type": "human"}] + [{"type": "open"}] * 3}, timeout=30)
    game = live.json()
    page.goto("/play?pace=0")
    page.evaluate(  # a game this browser holds a seat in: "Your games"
        "([id, token]) => localStorage.setItem(`spades.seat.${id}`, JSON.stringify({seat: 0, token}))",
        [game["game_id"], game["seats"][0]["token"]],
    )
    page.reload()
    expect(page.locator("[data-testid=live-games]")).to_contain_text("ronde 1", timeout=LONG)
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("[data-testid=play-now]")).to_have_text("Main sekarang")
    expect(page.locator(".level").first).to_be_visible()
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        no_sideways_scroll(page)
        if (width, height) != (667, 375):
            page.screenshot(path=str(screenshots / f"lobby-id-{width}x{height}.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    indonesian(page, "body")

    # Play people: quick match and the open tables
    page.click("[data-testid=tab-people]")
    expect(page.locator("[data-testid=find-players]")).to_have_text("Cari pemain")
    expect(page.locator("[data-testid=tables-state]")).to_have_text("Langsung")
    indonesian(page, "#tab-panel-people")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        no_sideways_scroll(page)
    page.set_viewport_size({"width": 375, "height": 667})
    page.screenshot(path=str(screenshots / "lobby-people-id-375x667.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.click("[data-testid=tab-computers]")

    # the new game's house rules, with the house preset's variants on
    open_house_rules(page)
    page.select_option("#preset", "house")
    expect(page.locator("#mercy")).to_be_checked()
    expect(page.locator("#rules-summary")).to_have_text("(Aturan rumah, tim, sampai 500)")
    indonesian(page, "[data-testid=new-game-form]")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        no_sideways_scroll(page)
    page.locator("[data-testid=variants]").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "new-game-house-rules-id-667x375.png"))
    page.set_viewport_size({"width": 1280, "height": 720})

    # a refused combination, said in Indonesian
    page.select_option("#preset", "individual")
    page.check("#suicide")
    page.click("[data-testid=create]")
    expect(page.locator("[data-testid=variants-error]")).to_contain_text("aturan tim")
    indonesian(page, "[data-testid=variants-error]")

    # Settings
    page.click("[data-testid=settings-button]")
    settings = page.locator("dialog[data-testid=settings]")
    expect(settings).to_be_visible()
    expect(settings.locator("#language")).to_have_value("id")
    indonesian(page, "dialog[data-testid=settings]")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        no_sideways_scroll(page)
        box = settings.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 1280, "height": 720})
    assert not page.js_errors


@pytest.mark.integration
def test_an_indonesian_table_rules_dialog_and_game_bar(new_page, web, screenshots):
    page = new_page(1280, 720, locale="id-ID")
    body = {
        "rules": {"preset": "house", "min_team_bid": 4},
        "seats": [{"type": "human"}] + [{"type": "ai", "level": "basic"}] * 3,
    }
    created = requests.post(f"{web}/v1/games", json=body, timeout=30).json()
    page.goto("/play?pace=0")
    page.evaluate(
        "([id, token]) => localStorage.setItem(`spades.seat.${id}`, JSON.stringify({seat: 0, token, since: Date.now()}))",
        [created["game_id"], created["seats"][0]["token"]],
    )
    page.goto(f"/play?pace=0&game={created['game_id']}")
    expect(page.locator("[data-testid=table]")).to_be_visible(timeout=LONG)
    expect(page.locator("[data-testid=rules-button]")).to_have_text("Aturan")
    indonesian(page, "#game-meta")  # the connection's state between them is status.js's
    indonesian(page, "#game-controls")
    for width, height in SIZES:  # the game bar's longer Indonesian words still fit beside each other
        page.set_viewport_size({"width": width, "height": height})
        assert outside(page, ".topbar button") == [], (width, height)
        no_sideways_scroll(page)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.click("[data-testid=rules-button]")
    rules = page.locator("dialog[data-testid=rules]")
    expect(rules.locator("[data-testid=house-rules-list]")).to_contain_text("Blind nil ±200")
    expect(rules.locator("[data-testid=table-rules-list]")).to_contain_text("sedikitnya 4 trik")
    expect(rules.locator("[data-testid=rules-close]")).to_have_text("Tutup")
    indonesian(page, "dialog[data-testid=rules]")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        box = rules.bounding_box()
        assert box["x"] >= 0 and box["y"] >= 0, box
        assert box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5, box
        if (width, height) != (667, 375):
            page.screenshot(path=str(screenshots / f"rules-id-{width}x{height}.png"))
    page.keyboard.press("Escape")
    page.click("[data-testid=leave-button]")
    leave = page.locator("dialog[data-testid=leave]")
    expect(leave.locator("[data-testid=leave-stay]")).to_have_text("Tetap")
    indonesian(page, "dialog[data-testid=leave]")
    leave.locator("[data-testid=leave-stay]").click()

    # an invite to the same kind of table, opened by an Indonesian browser
    friend = requests.post(f"{web}/v1/games", json={"seats": [{"type": "human"}, {"type": "open"}] * 2}, timeout=30)
    invited = new_page(375, 667, locale="id-ID")
    invited.goto(f"/play?pace=0&game={friend.json()['game_id']}&seat=1")
    expect(invited.locator("[data-testid=claim]")).to_have_text("Ambil kursi Barat")
    indonesian(invited, "[data-testid=invite-page]")
    no_sideways_scroll(invited)
    assert not page.js_errors and not invited.js_errors


@pytest.mark.integration
def test_the_language_chosen_in_settings_is_kept_and_lang_in_the_address_wins(new_page):
    page = new_page(1280, 720)  # an English browser
    page.goto("/play")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("[data-testid=play-now]")).to_have_text("Play now")
    page.click("[data-testid=settings-button]")
    with page.expect_navigation():
        page.select_option("#language", "id")
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("[data-testid=play-now]")).to_have_text("Main sekarang")
    page.reload()
    expect(page.locator("[data-testid=play-now]")).to_have_text("Main sekarang")  # kept across a reload
    expect(page.locator("[data-testid=settings-button]")).to_have_attribute("aria-label", "Pengaturan")

    fresh = new_page(1280, 720)  # another English browser: the address chooses
    fresh.goto("/play?lang=id")
    expect(fresh.locator("html")).to_have_attribute("lang", "id")
    expect(fresh.locator("[data-testid=play-now]")).to_have_text("Main sekarang")
    fresh.goto("/play")
    expect(fresh.locator("[data-testid=play-now]")).to_have_text("Play now")  # not kept: only Settings keeps
    assert not page.js_errors and not fresh.js_errors
