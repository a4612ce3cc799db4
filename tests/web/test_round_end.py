"""A round's end and the game's in the browser: the bags in the score header counted once (at the
summary and on the final board), the last round's summary leading to the result, the review going
back to its summary and counting a move as good as hard's when their expected points show the same,
a hint's figure worded as the side's chance, a passing hint marking its cards, the game-over panel
leaving your seat in view, "New game" keeping the house rules — and the same screens in Indonesian,
with no English-only word on them (screenshots in var/screenshots/)."""

from __future__ import annotations

import json
import re

import pytest
import requests
from playwright.sync_api import Page, expect

from .catalogues import english_words_in
from .driver import (
    BID,
    CARD,
    GAME_OVER,
    LONG,
    SUMMARY,
    Player,
    click_card,
    create_game,
    outside,
    seat_token,
    seated_game,
)

pytestmark = pytest.mark.integration

RECORD_MOTION = (
    "window.__motion = []; document.addEventListener('spades:motion', (e) => window.__motion.push(e.detail));"
)

SIZES = [(1280, 720), (375, 667)]
SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
FRACTION = re.compile(r"(\d+)\s*/\s*(\d+)")


def short(move: dict) -> str:
    """A move as the review's data attributes name it: "Q♠", "10♥", "4", "nil"."""
    if "card" in move:
        code = move["card"]
        return f"{'10' if code[0] == 'T' else code[0]}{SYMBOLS[code[1]]}"
    return "nil" if move["bid"] == 0 else str(move["bid"])


def header_bags(page: Page) -> list[str]:
    """Each side's "bags 4/10" in the score header, as "4/10"."""
    texts = [page.locator(f"[data-testid=bags-{side}]").inner_text() for side in (0, 1)]
    return ["/".join(FRACTION.search(text).groups()) for text in texts]


def summary_bags(page: Page) -> list[str]:
    """Each side's bags after the round in the open summary ("2/10 after"), as "2/10"."""
    texts = page.locator(f"{SUMMARY} [data-part=bags] .part-sub").all_inner_texts()
    return ["/".join(FRACTION.search(text).groups()) for text in texts]


def seat_uncovered(page: Page, seat: int) -> None:
    """Your seat's box lies outside the game-over panel, and its middle shows the seat itself."""
    panel = page.locator("[data-testid=game-over]").bounding_box()
    box = page.locator(f"[data-testid=seat-{seat}]").bounding_box()
    assert panel and box
    apart = (
        box["y"] >= panel["y"] + panel["height"]
        or box["y"] + box["height"] <= panel["y"]
        or box["x"] >= panel["x"] + panel["width"]
        or box["x"] + box["width"] <= panel["x"]
    )
    assert apart, f"the game-over panel {panel} covers your seat {box}"
    middle = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
    assert page.evaluate(
        "([x, y, seat]) => Boolean(document.elementFromPoint(x, y)?.closest(`[data-testid=seat-${seat}]`))",
        [*middle, seat],
    ), "your seat is seen at its middle"


def bid_low(page: Page) -> None:
    """The lowest bid above nil on offer: more overtricks, so bags in every round."""
    bids = page.locator(BID).evaluate_all("els => els.map(e => Number(e.dataset.bid))")
    page.click(f"{BID}[data-bid='{min((b for b in bids if b), default=bids[0])}']")


def tied_review(route) -> None:
    """The real review with two of your card moves rewritten: one that gives away less than half a point
    against hard's (shown as worth the same), one a whole point below hard's."""
    review = route.fetch().json()
    changed = []
    for decision in review["decisions"]:
        valued = [c for c in decision["candidates"] if "card" in c and isinstance(c.get("value"), (int, float))]
        if "trick" not in decision or len(valued) < 2 or len(changed) == 2:
            continue
        made, other = valued[0], valued[1]
        decision["made"], decision["best"] = {"card": made["card"]}, {"card": other["card"]}
        base = round(made["value"], 1)
        if not changed:  # shown as equal: e.g. −18.43 and −18.38 both show −18.4
            made["value"], other["value"] = base - 0.03, base + 0.02
        else:
            made["value"], other["value"] = base, base + 1.0
        for c in valued:  # nothing else better than hard's choice
            if c is not made and c is not other:
                c["value"] = min(c["value"], base - 5)
        decision["given_away"], decision["accurate"] = round(other["value"] - made["value"], 2), True
        changed.append(decision["trick"])
    route.fulfill(status=200, content_type="application/json", body=json.dumps(review))
    tied_review.changed = changed  # type: ignore[attr-defined]


def late_answer(page: Page, route) -> None:
    """A card's answer held back until the page shows its version from the event feed: the round's end reaches
    the page through the feed first (as when a computer plays the round's last card), with only the events to
    say the game is over."""
    response = route.fetch()
    version = response.json().get("version") if response.ok else None
    if isinstance(version, int):
        page.wait_for_function(
            "v => Number(document.querySelector('[data-testid=table]')?.dataset.version) >= v",
            arg=version,
            timeout=LONG,
        )
    route.fulfill(response=response)


def test_the_rounds_end_counts_bags_once_and_the_last_round_leads_to_the_result(new_page, web, screenshots):
    page = new_page(1280, 720)
    game_id = create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"], win_score=50, lose_score=-50)
    page.route("**/rounds/1/review", tied_review)
    page.route("**/plays", lambda route: late_answer(page, route))
    player = Player(page)
    labels: list[str] = []
    last_after: list[str] = []
    hinted = False
    while True:
        state = player.state()
        if state == "bid":
            bid_low(page)
        elif state == "card":
            if not hinted and page.locator(CARD).count() >= 2:  # a hint with a figure: the side's chance
                page.click("[data-testid=hint-button]")
                text = page.locator("[data-testid=hint-text]")
                expect(text).to_contain_text("Suggested: play the", timeout=LONG)
                expect(text).to_contain_text("your side takes this trick")
                expect(text).not_to_contain_text("wins the trick")
                expect(page.locator("[data-testid=hand] .card.hinted")).to_have_count(1)
                hinted = True
            click_card(page.locator(CARD).first)
        elif state == "summary":
            last_after = summary_bags(page)
            assert header_bags(page) == last_after, "the header's bags are the summary's, not twice the round's"
            labels.append(page.locator("[data-testid=summary-next]").inner_text())
            if len(labels) == 1:
                check_review_from_summary(page)
            page.click("[data-testid=summary-next]")
            expect(page.locator(SUMMARY)).to_have_count(0)
        else:
            break
    assert hinted
    assert labels[-1] == "See the result" and all(label == "Next round" for label in labels[:-1]), labels
    expect(page.locator("[data-testid=table]")).to_have_attribute("data-phase", "game_over")
    assert header_bags(page) == last_after, "the final board's bags are the last summary's"
    for width, height in reversed(SIZES):
        page.set_viewport_size({"width": width, "height": height})
        expect(page.locator(GAME_OVER)).to_be_visible()
        seat_uncovered(page, 0)
        page.screenshot(path=str(screenshots / f"game-over-en-{width}x{height}.png"))

    # "New game": the same rules (a winning score of 50, not the default 500), you in the same seat
    page.click("[data-testid=new-game]")
    expect(page.locator("[data-testid=table]")).not_to_have_attribute("data-phase", "game_over", timeout=LONG)
    new_id = page.evaluate("new URLSearchParams(location.search).get('game')")
    assert new_id and new_id != game_id
    auth = {"Authorization": f"Bearer {seat_token(page, new_id)['token']}"}
    view = requests.get(f"{web}/v1/games/{new_id}", headers=auth, timeout=30).json()
    old = requests.get(f"{web}/v1/games/{game_id}", timeout=30).json()
    assert view["you"] == 0 and view["rules"] == old["rules"] and view["rules"]["win_score"] == 50
    assert [(s["type"], s["level"]) for s in view["seats"][1:]] == [("ai", "easy")] * 3
    assert not page.js_errors


FITS = "dialog => dialog.scrollHeight <= dialog.clientHeight"  # the dialog's body and buttons fit it
STREAM = re.compile(r"/v1/games/[^/]+/stream")
GONE = {"type": "about:blank", "title": "Gone", "status": 410, "code": "too_far_behind", "detail": "trimmed"}


def wait_for_event(web: str, game_id: str, token: str, kind: str, **data: object) -> dict:
    """Read the game's event stream from its start (as the seat) until an event of ``kind`` whose data
    holds ``data``; that event."""
    auth = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
    with requests.get(f"{web}/v1/games/{game_id}/stream?after=0", headers=auth, stream=True, timeout=LONG / 1000) as r:
        assert r.status_code == 200, r.text
        for line in r.iter_lines(decode_unicode=True):
            if not line.startswith("data:"):
                continue
            event = json.loads(line[5:])
            if event.get("type") == kind and data.items() <= event["data"].items():
                return event
    raise AssertionError(f"the stream ended before a {kind} event with {data}")


@pytest.mark.parametrize(
    ("seed", "on_table"), [(6, 3), (1, 0)], ids=["your-card-ends-the-round", "the-next-round-read-after-a-gap"]
)
def test_a_view_of_the_next_round_ends_yours_first(new_page, web, screenshots, seed, on_table):
    """With the event feed cut before your last card, the next round's view reaches the page either as
    the answer to your card (it ends the round: seed 6, South plays the last trick's fourth card) or by
    the reload after a 410 (seed 1, South leads it): either way the page shows the round you were in
    end – its last trick of four swept, the emptied hand under its summary – then deals the new hand,
    never jumping from one card to the next thirteen."""
    page = new_page(375, 667)
    page.add_init_script(RECORD_MOTION)
    game_id = seated_game(page, web, {"preset": "partnership"}, seed)
    player = Player(page)
    hand_count = page.locator("[data-testid=hand]")
    while not (player.state() == "card" and hand_count.get_attribute("data-count") == "1"):
        player.step()
    assert page.locator("[data-testid=trick] [data-card]").count() == on_table

    gone = {"next": False}

    def stream(route) -> None:
        if gone["next"]:  # once: the resumption after the reload is refused again
            gone["next"] = False
            route.fulfill(status=410, content_type="application/problem+json", body=json.dumps(GONE))
        else:
            route.abort()

    page.route(STREAM, stream)
    page.context.set_offline(True)  # the open stream dies; every new one is refused
    page.context.set_offline(False)
    last = page.locator(CARD).first.get_attribute("data-card")
    motions = len(page.evaluate("window.__motion"))
    click_card(page.locator(CARD).first)
    if on_table < 3:  # the answer is of round 1: the next view comes with the reload after a 410
        wait_for_event(web, game_id, seat_token(page, game_id)["token"], "round_started", round=2)
        gone["next"] = True

    expect(page.locator(SUMMARY)).to_be_visible(timeout=LONG)
    assert hand_count.get_attribute("data-count") == "0", "the summary shows over the emptied hand"
    expect(page.locator(f"{SUMMARY} [data-testid=round-summary]")).to_contain_text("Round 1")
    sweeps = [m for m in page.evaluate("window.__motion")[motions:] if m["kind"] == "sweep"]
    assert len(sweeps) == 1 and len(sweeps[0]["cards"]) == 4 and last in sweeps[0]["cards"], sweeps
    page.screenshot(path=str(screenshots / f"round-end-after-gap-{seed}-375x667.png"))
    page.set_viewport_size({"width": 375, "height": 560})  # a phone with its browser's bars showing
    assert page.locator(SUMMARY).evaluate(FITS), "only the summary's body scrolls, never its two rows of buttons"
    assert outside(page, f"{SUMMARY} .modal-buttons button") == []
    page.screenshot(path=str(screenshots / f"round-end-after-gap-{seed}-375x560.png"))
    page.unroute(STREAM)
    page.click("[data-testid=summary-next]")
    expect(hand_count).to_have_attribute("data-count", "13", timeout=LONG)
    assert page.evaluate("window.__motion")[-1]["kind"] == "deal"
    assert not page.js_errors


def check_review_from_summary(page: Page) -> None:
    """The first round's review (rewritten by tied_review): a move within half a point of hard's is as good
    as it; a point less gave that point away. Closing it goes back to the summary."""
    page.click("[data-testid=summary-review]")
    dialog = page.locator("dialog[open][data-testid=review-dialog]")
    expect(dialog.locator("[data-testid=review-decision]")).to_be_visible(timeout=LONG)
    tied, worse = tied_review.changed  # type: ignore[attr-defined]
    expect(dialog.locator(f"[data-testid=review-step-{tied}]")).not_to_have_class(re.compile(r"\bdiffers\b"))
    expect(dialog.locator(f"[data-testid=review-step-{worse}]")).to_have_class(re.compile(r"\bdiffers\b"))
    dialog.locator(f"[data-testid=review-step-{tied}]").click()
    verdict = dialog.locator("[data-testid=review-verdict]")
    expect(verdict).to_have_class(re.compile(r"\bagreed\b"))
    expect(verdict).to_contain_text("worth the same")
    dialog.locator(f"[data-testid=review-step-{worse}]").click()
    expect(verdict).to_have_class(re.compile(r"\bdiffers\b"))
    expect(verdict).to_contain_text("Gave away 1 point — best was the ")
    page.click("[data-testid=review-dialog-close]")
    expect(page.locator(SUMMARY)).to_be_visible()  # back to the summary, not on into the next round
    expect(page.locator(f"{SUMMARY} [data-testid=round-summary]")).to_contain_text("Round 1")


# Seed 86 under these rules: South (this page) may bid blind nil first, and an exchange follows a nil.
PASSING_RULES = {
    "preset": "partnership",
    "jokers": True,
    "deuces_high": True,
    "blind_nil": True,
    "blind_bids": True,
    "blind_margin": 0,
    "nil_pass_cards": 2,
    "win_score": 100,
    "lose_score": -100,
}


def test_a_passing_hint_marks_the_cards_it_names(new_page, web):
    page = new_page(1280, 720)
    seated_game(page, web, PASSING_RULES, 86, hints=True)
    expect(page.locator("[data-testid=table][data-synced=yes] [data-testid=blind-decision]")).to_be_visible(
        timeout=LONG
    )
    page.click("[data-testid=blind-nil]")
    expect(page.locator("[data-testid=table][data-synced=yes] [data-testid=passing]")).to_be_visible(timeout=LONG)
    page.click("[data-testid=hint-button]")
    text = page.locator("[data-testid=hint-text]")
    expect(text).to_contain_text("Suggested: pass the", timeout=LONG)
    marked = page.locator("[data-testid=hand] .card.hinted")
    expect(marked).to_have_count(2)
    for card in marked.evaluate_all("els => els.map(e => e.dataset.card)"):
        name = page.locator(f"[data-testid=hand] [data-card='{card}']").get_attribute("aria-label")
        assert name.endswith(", suggested by the hint"), name
        _face, spoken = name.removesuffix(", suggested by the hint").split(", ", 1)  # "☆ JOKER, Little Joker"
        expect(text).to_contain_text(spoken)
    assert not page.js_errors


def test_the_rounds_end_in_indonesian(new_page, screenshots):
    """A short game in Indonesian: the hint, the round summary, its review and the game's end show no
    English-only word; screenshots of the summary and the game over at both sizes."""
    page = new_page(1280, 720, locale="id-ID")
    create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"], win_score=50, lose_score=-50)
    expect(page.locator("html")).to_have_attribute("lang", "id")
    player = Player(page)
    seen: dict[str, str] = {}
    while True:
        state = player.state()
        if state == "card" and "hint" not in seen:
            page.click("[data-testid=hint-button]")
            expect(page.locator("[data-testid=hint-text]")).to_contain_text("Saran", timeout=LONG)
            seen["hint"] = page.locator("[data-testid=hint-text]").inner_text()
            seen["scores"] = page.locator("[data-testid=scoreboard]").inner_text()
        if state == "summary" and "summary" not in seen:
            seen["summary"] = page.locator(SUMMARY).inner_text()
            for width, height in reversed(SIZES):
                page.set_viewport_size({"width": width, "height": height})
                assert outside(page, f"{SUMMARY} .modal-buttons button") == [], "the summary's buttons in the window"
                page.screenshot(path=str(screenshots / f"summary-id-{width}x{height}.png"))
            page.click("[data-testid=summary-review]")
            dialog = page.locator("dialog[open][data-testid=review-dialog]")
            expect(dialog.locator("[data-testid=review-decision]")).to_be_visible(timeout=LONG)
            dialog.locator("[data-testid=review-step-1]").click()
            seen["review"] = dialog.inner_text()
            page.screenshot(path=str(screenshots / "review-id-1280x720.png"))
            page.click("[data-testid=review-dialog-close]")
            expect(page.locator(SUMMARY)).to_be_visible()
        if state == "over":
            break
        player.step()
    seen["over"] = page.locator("[data-testid=game-over]").inner_text()
    for width, height in reversed(SIZES):
        page.set_viewport_size({"width": width, "height": height})
        seat_uncovered(page, 0)
        assert outside(page, "[data-testid=game-over] .end-actions button") == [], "New game in the window"
        page.screenshot(path=str(screenshots / f"game-over-id-{width}x{height}.png"))
    found = {name: english_words_in(text) for name, text in seen.items()}
    assert not any(found.values()), found
    assert not page.js_errors


def test_a_nil_kept_to_the_games_end_reads_made_not_alive(new_page, web):
    """At game over the last round is scored: a nil bidder who took no trick made the nil ("Nil made"), on the
    scoreboard and on the seat, in each language; during play the same nil is "alive"."""
    created = requests.post(f"{web}/v1/games", json={"seats": [{"type": "human"}] + [{"type": "open"}] * 3}, timeout=30)
    view = requests.get(f"{web}/v1/games/{created.json()['game_id']}", timeout=30).json()
    page = new_page(1280, 720)
    page.goto("/play?pace=0")
    said = page.evaluate(
        """async (view) => {
          const i18n = await import("/play/js/i18n.js");
          const { scoreboard } = await import("/play/js/scoreboard.js");
          const { seatPanel } = await import("/play/js/felt.js");
          const at = (phase) => ({ ...view, phase, round: 1, bids: [0, 3, 4, 5], tricks_won: [0, 4, 4, 5], turn: null });
          const out = {};
          for (const language of ["en", "id"]) {
            await i18n.useLanguage(language);
            out[language] = ["playing", "game_over"].map((phase) => [
              scoreboard(at(phase)).querySelector(".nil-chip").textContent,
              seatPanel(at(phase), 0, null).querySelector("[data-testid=nil-0]").textContent,
            ]);
          }
          return out;
        }""",
        view,
    )
    assert said["en"] == [["South nil alive", "Nil alive"], ["South nil made", "Nil made"]]
    assert said["id"][1] == ["Selatan nil berhasil", "Nil berhasil"]
