"""Reviewing a finished round in the browser: from its summary and from the finished game, step by
step with all four hands shown and, at each of the person's moves, hard's move from the AI workers;
a round still being played is refused."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import expect

from .driver import LONG, SUMMARY, Player, create_game, seat_token

pytestmark = pytest.mark.integration

SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def short(move: dict) -> str:
    """A move as the review shows it: "Q♠", "10♥", "4", "nil"."""
    if "card" in move:
        code = move["card"]
        return f"{'10' if code[0] == 'T' else code[0]}{SYMBOLS[code[1]]}"
    return "nil" if move["bid"] == 0 else str(move["bid"])


def test_a_finished_round_is_reviewed_step_by_step_with_hards_moves(new_page, web, screenshots):
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
    dialog = page.locator("dialog[open][data-testid=review-dialog]")
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
    accuracy = review["accuracy"]  # the round's accuracy: its share of moves within a few points of expert's best
    share = f"{round(accuracy['accurate_share'] * 100)}%"
    expect(dialog.locator("[data-testid=review-accuracy]")).to_contain_text(f"Accuracy {share}")
    for step, decision in enumerate(review["decisions"]):
        if step:
            dialog.locator("[data-testid=review-next]").click()
            expect(dialog.locator("[data-testid=review-step-title]")).to_contain_text(f"Trick {step} of 13")
            expect(dialog.locator("[data-testid=review-hand-0] [data-card]")).to_have_count(14 - step)
        panel = dialog.locator("[data-testid=review-decision]")
        expect(panel).to_have_attribute("data-made", short(decision["made"]))
        expect(panel).to_have_attribute("data-best", short(decision["best"]))  # hard's move at this point
        if decision["given_away"]:  # the expected points the move gave away
            expect(panel.locator("[data-testid=review-verdict]")).to_contain_text("That gave away")
        if any("value" in c for c in decision["candidates"]):  # what hard expected each move to be worth
            expect(panel.locator("[data-testid=review-candidates] tr.best th")).to_contain_text(short(decision["best"]))
        else:
            expect(panel).to_contain_text("Only one move was possible here.")
        if step == 5:
            page.screenshot(path=str(screenshots / "review.png"))
            page.set_viewport_size({"width": 375, "height": 667})
            expect(dialog.locator("[data-testid=review-accuracy]")).to_be_visible()
            page.screenshot(path=str(screenshots / "review-375x667.png"))
            page.set_viewport_size({"width": 1280, "height": 720})
    expect(dialog.locator("[data-testid=review-next]")).to_be_disabled()
    dialog.locator("[data-testid=review-step-0]").click()
    expect(dialog.locator("[data-testid=review-step-title]")).to_have_text("The bidding")
    page.click("[data-testid=review-dialog-close]")
    expect(page.locator(SUMMARY)).to_be_visible()  # back to the round's summary
    page.click("[data-testid=summary-next]")

    if player.state() == "over":  # from the finished game too
        page.click("[data-testid=game-over] [data-testid=review-1]")
        expect(page.locator("dialog[open][data-testid=review-dialog] [data-testid=review-decision]")).to_be_visible(
            timeout=LONG
        )
        page.click("[data-testid=review-dialog-close]")
    else:
        page.click("[data-testid=scores-button]")
        page.click("[data-testid=scores] [data-testid=review-1]")
        expect(page.locator("dialog[open][data-testid=review-dialog] [data-testid=review-decision]")).to_be_visible(
            timeout=LONG
        )
    assert not page.js_errors
