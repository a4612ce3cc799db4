"""Reviewing a finished round in the browser: from its summary and from the finished game, what each of the
person's moves gave away against expert's best first (the round's total and its biggest mistakes on top, each
step's cost on its button, "Best move" or "Gave away 12 points — best was the K♠" at each move), then the
round step by step with all four hands shown; no raw expected figure; the whole review inside the window at
1280×720, 1366×768, 375×667 and 667×375 in English and Indonesian; a round still being played is refused."""

from __future__ import annotations

import json
import math
import re

import pytest
import requests
from playwright.sync_api import Page, expect

from .driver import LONG, SUMMARY, Player, assert_fits, create_game, seat_token
from .review_decisions import blind_look, nil_pass

pytestmark = pytest.mark.integration

SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
DIALOG = "dialog[open][data-testid=review-dialog]"
SIZES = [(1280, 720), (1366, 768), (375, 667), (667, 375)]
OLD_FIGURE = re.compile(r"\d[.,]\d")  # an expected worth or a mean to a decimal ("−18.4", "32.0 points"): none


def short(move: dict) -> str:
    """A move as the review shows it: "Q♠", "10♥", "4", "nil"."""
    if "card" in move:
        code = move["card"]
        return f"{'10' if code[0] == 'T' else code[0]}{SYMBOLS[code[1]]}"
    return "nil" if move["bid"] == 0 else str(move["bid"])


def cost(decision: dict) -> tuple[str, int | None]:
    """What the review says a decision cost, from the API's figures: whole points, as a score counts them."""
    if not any("value" in c for c in decision["candidates"]):
        return "only", None
    if decision["given_away"] is None:
        return "unscored", None
    if decision["made"] == decision["best"]:
        return "best", 0
    points = math.floor(decision["given_away"] + 0.5)
    return ("gave", points) if points else ("asGood", 0)


def points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def best_phrase(move: dict) -> str:
    return f"the {short(move)}" if "card" in move else f"to bid {short(move)}"


def step_of(decision: dict) -> int:
    return decision.get("trick", 0)


def with_house_rule_decisions(route) -> None:
    """The real review with a blind decision before the bid (looking, 6 points below a blind nil) and a nil
    exchange's pass after it, as a house-rules round's review has them."""
    review = route.fetch().json()
    look, passed = blind_look(), nil_pass()
    review["decisions"] = [look, review["decisions"][0], passed, *review["decisions"][1:]]
    route.fulfill(status=200, content_type="application/json", body=json.dumps(review))


def open_review_again(page: Page) -> None:
    """Round 1's review from the finished game, or from the score history of the game in play."""
    if Player(page).state() == "over":
        page.click("[data-testid=game-over] [data-testid=review-1]")
    else:
        page.click("[data-testid=scores-button]")
        page.click("[data-testid=scores] [data-testid=review-1]")
    expect(page.locator(f"{DIALOG} [data-testid=review-decision]")).to_be_visible(timeout=LONG)


def close_review_again(page: Page) -> None:
    """Close a review opened by :func:`open_review_again`: one opened from the score history goes back to it,
    which is closed in turn."""
    page.click("[data-testid=review-dialog-close]")
    expect(page.locator(DIALOG)).to_have_count(0)
    if Player(page).state() != "over":
        expect(page.locator("[data-testid=scores]")).to_be_visible()  # back where the review was opened from
        page.click("[data-testid=scores-close]")
        expect(page.locator("[data-testid=scores]")).to_have_count(0)


def assert_review_fits(page: Page) -> None:
    """The review, its summary, steps and Close button inside the window, the page not scrolling either way,
    and nothing in the dialog wider than it or cut off sideways."""
    assert_fits(
        page,
        {DIALOG: 1, f"{DIALOG} [data-testid=review-total]": 1, f"{DIALOG} .review-steps .step": 14},
    )
    expect(page.locator("[data-testid=review-dialog-close]")).to_be_in_viewport(ratio=1)
    cut = page.locator(DIALOG).evaluate(
        """d => { const box = d.getBoundingClientRect(); const body = d.querySelector('.modal-body');
          const wide = body.scrollWidth > body.clientWidth + 1 ? ['the body scrolls sideways'] : [];
          return wide.concat([...d.querySelectorAll('*')].filter(e => {
            if (e.closest('.visually-hidden')) return false;
            const r = e.getBoundingClientRect();
            if (!r.width) return false;
            const clips = getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1;
            return clips || r.left < box.left - 0.5 || r.right > box.right + 0.5;
          }).map(e => `${e.dataset.testid || e.className || e.tagName}: ${e.textContent.slice(0, 40)}`)); }"""
    )
    assert cut == [], f"{page.viewport_size}: {cut}"


def check_at_every_size(page: Page, screenshots, name: str, step: int) -> None:
    """At each size, a screenshot of the review at `step`, which fits the window."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        dialog = page.locator(DIALOG)
        dialog.locator(f"[data-testid=review-step-{step}]").click()
        expect(dialog.locator(f"[data-testid=review-step-{step}]")).to_have_attribute("aria-current", "step")
        page.evaluate("document.querySelector('dialog[open] .modal-body').scrollTop = 0")
        page.screenshot(path=str(screenshots / f"{name}-{width}x{height}.png"))  # taken first: to see what failed
        assert_review_fits(page)


def test_a_finished_round_is_reviewed_step_by_step_with_what_each_move_cost(new_page, web, screenshots):
    page = new_page(1280, 720)
    game_id = create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"], win_score=50, lose_score=-50)
    auth = {"Authorization": f"Bearer {seat_token(page, game_id)['token']}"}
    url = f"{web}/v1/games/{game_id}/rounds/1/review"
    player = Player(page)
    player.step()  # the bid
    refused = requests.get(url, headers=auth, timeout=30)
    assert refused.status_code == 409 and refused.json()["code"] == "round_not_finished", "not while it is played"
    page.click("[data-testid=scores-button]")
    expect(page.locator("[data-testid=score-history]")).to_have_text("No round has finished yet.")
    page.click("[data-testid=scores-close]")

    while player.state() != "summary":
        player.step()
    page.click("[data-testid=summary-review]")
    dialog = page.locator(DIALOG)
    expect(dialog.locator("[data-testid=review-decision]")).to_be_visible(timeout=LONG)
    review = requests.get(url, headers=auth, timeout=30).json()  # the same review the page shows
    assert review["round"] == 1 and len(review["decisions"]) == 14

    dealt = [
        dialog.locator(f"[data-testid=review-hand-{s}] [data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        for s in range(4)
    ]
    assert [len(hand) for hand in dealt] == [13] * 4 and len({c for hand in dealt for c in hand}) == 52, (
        "all four hands"
    )
    assert [sorted(hand) for hand in dealt] == [sorted(hand) for hand in review["record"]["hands"]]

    # on top: the round's total given away, its accuracy, its biggest mistakes
    costs = [cost(d) for d in review["decisions"]]
    total = sum(p for _, p in costs if p is not None)
    expect(dialog.locator("[data-testid=review-total]")).to_have_text(
        f"Your moves gave away {points(total)} this round against expert's best."
        if total
        else "None of your moves gave points away: each was as good as expert's best."
    )
    scores = review["record"]["scores"]  # a round that ended the game (to 50 or down to −50) says why it cost more
    ended = (max(scores) >= 50 or min(scores) <= -50) and scores.count(max(scores)) == 1
    expect(dialog.locator("[data-testid=review-decided]")).to_have_count(1 if ended else 0)
    scored = [d for d in review["decisions"] if d["given_away"] is not None]
    share = f"{round(review['accuracy']['accurate_share'] * 100)}%"
    close = sum(1 for d in scored if d["accurate"])
    expect(dialog.locator("[data-testid=review-accuracy]")).to_have_text(
        f"Accuracy {share}: {close} of {len(scored)} scored moves close to the best."
    )
    mistakes = sorted((d for d in scored if not d["accurate"]), key=lambda d: (-d["given_away"], step_of(d)))[
        :3
    ]  # the moves that gave most away, beyond the few points one analysis can't tell apart
    expect(dialog.locator("[data-testid^=review-mistake-]")).to_have_count(len(mistakes))
    for i, decision in enumerate(mistakes):
        step = step_of(decision)
        name = f"Trick {step}" if step else "The bidding"
        expect(dialog.locator(f"[data-testid=review-mistake-{i}]")).to_have_text(
            f"{name}: {points(cost(decision)[1])}, best was {best_phrase(decision['best'])}"
        )

    for step, (decision, (kind, lost)) in enumerate(zip(review["decisions"], costs, strict=True)):
        button = dialog.locator(f"[data-testid=review-step-{step}]")
        if lost:  # each step's button says what the move there gave away
            expect(button.locator(".step-cost")).to_have_text(f"−{lost}")
        else:
            expect(button.locator(".step-cost")).to_have_count(0)
        if step:
            dialog.locator("[data-testid=review-next]").click()
            expect(dialog.locator("[data-testid=review-step-title]")).to_contain_text(f"Trick {step} of 13")
            expect(dialog.locator("[data-testid=review-hand-0] [data-card]")).to_have_count(14 - step)
        panel = dialog.locator("[data-testid=review-decision]")
        expect(panel).to_have_attribute("data-made", short(decision["made"]))
        expect(panel).to_have_attribute("data-best", short(decision["best"]))  # expert's move at this point
        verdict = panel.locator("[data-testid=review-verdict]")
        yours = f"You played the {short(decision['made'])}." if step else f"You bid {short(decision['made'])}."
        expect(verdict).to_have_text(
            {
                "best": f"Best move. {yours}",
                "asGood": f"As good as the best — expert chose {best_phrase(decision['best'])}, worth the same. {yours}",
                "gave": f"Gave away {points(lost or 0)} — best was {best_phrase(decision['best'])}. {yours}",
                "only": f"Only possible move. {yours}",
            }[kind]
        )
        table = panel.locator("[data-testid=review-candidates]")
        if kind == "only":
            expect(table).to_have_count(0)
        else:  # every move against expert's best: 0 for its choice, yours at what it cost
            expect(table.locator("tr.best [data-testid=review-cost]")).to_have_text("0")
            expect(table.locator("tr.yours [data-testid=review-cost]")).to_have_text(f"−{lost}" if lost else "0")
        assert not OLD_FIGURE.search(dialog.inner_text()), "no expected worth of the round, no mean to a decimal"
        expect(dialog).not_to_contain_text("Expected points")

    expect(dialog.locator("[data-testid=review-next]")).to_be_disabled()
    if mistakes:  # the biggest mistake is a click away
        dialog.locator("[data-testid=review-mistake-0]").click()
        expect(dialog.locator(f"[data-testid=review-step-{step_of(mistakes[0])}]")).to_have_attribute(
            "aria-current", "step"
        )
    dialog.locator("[data-testid=review-step-0]").click()
    expect(dialog.locator("[data-testid=review-step-title]")).to_have_text("The bidding")
    page.click("[data-testid=review-dialog-close]")
    expect(page.locator(SUMMARY)).to_be_visible()  # back to the round's summary
    page.click("[data-testid=summary-next]")
    open_review_again(page)  # from the finished game, or the score history of the next round

    # the review in every window, in English then in Indonesian, at its biggest mistake (else its first trick)
    shown = step_of(mistakes[0]) if mistakes else 1
    check_at_every_size(page, screenshots, "review-cost-en", shown)
    close_review_again(page)
    page.set_viewport_size({"width": 1280, "height": 720})

    # with the house rules the bidding step holds the blind decision and the nil exchange's pass too
    page.route("**/rounds/1/review", with_house_rule_decisions)
    open_review_again(page)
    dialog.locator("[data-testid=review-step-0]").click()
    verdicts = dialog.locator("[data-testid=review-verdict]")
    expect(verdicts).to_have_count(3)
    expect(verdicts.nth(0)).to_have_text(
        "Gave away 6 points — best was to bid blind nil. You looked at your cards first."
    )
    expect(verdicts.nth(2)).to_have_text("Best move. You passed 2♣ and 3♦.")
    bid_cost = costs[0][1] or 0
    expect(dialog.locator("[data-testid=review-step-0] .step-cost")).to_have_text(f"−{6 + bid_cost}")
    expect(dialog.locator("[data-testid=review-candidates]")).to_have_count(3 if costs[0][0] != "only" else 2)
    close_review_again(page)
    page.unroute("**/rounds/1/review")
    page.goto(f"/play?pace=0&game={game_id}&lang=id")
    page.wait_for_selector("[data-testid=table][data-synced=yes]")
    open_review_again(page)
    dialog = page.locator(DIALOG)
    if total:
        expect(dialog.locator("[data-testid=review-total]")).to_have_text(
            f"Langkah Anda di ronde ini membuang {total} poin dibanding langkah terbaik Ahli."
        )
    dialog.locator(f"[data-testid=review-step-{shown}]").click()
    kind, lost = costs[shown]
    verdict = dialog.locator("[data-testid=review-verdict]")
    if kind == "gave":
        best = review["decisions"][shown]["best"]
        expect(verdict).to_contain_text(
            f"Membuang {lost} poin — terbaik: {'' if 'card' in best else 'menawar '}{short(best)}."
        )
        expect(dialog.locator(f"[data-testid=review-step-{shown}] .step-cost")).to_have_text(f"−{lost}")  # U+2212
    elif kind == "best":
        expect(verdict).to_contain_text("Langkah terbaik.")
    assert not OLD_FIGURE.search(dialog.inner_text())
    check_at_every_size(page, screenshots, "review-cost-id", shown)
    assert not page.js_errors
