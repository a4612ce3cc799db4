"""Motion: the deal, each card travelling to the trick, each finished trick sweeping to its winner,
shown in the order the server's event log holds them even when several computer moves land at once,
and nothing left behind: at every turn the table is exactly the seat's view.

The server has no pace of its own (computer moves are applied as fast as the worker decides) and
here every stream response is held until the server ends it (STREAM_MAX_SECONDS=3), so the moves
of those seconds reach the page in one batch. The page shows them at its own pace (?pace=), with
`prefers-reduced-motion` honoured. It reports each animation as a `spades:motion` event, which the
test records from the first script on."""

from __future__ import annotations

import pytest
import requests

from .driver import Player, create_game, seat_token

pytestmark = pytest.mark.integration

RECORD = "window.__motion = []; document.addEventListener('spades:motion', (e) => window.__motion.push(e.detail));"
MOVES = ("event: bid", "event: card_played")


def dom_state(page) -> dict:
    """What the table shows: version, hand, trick, bids, tricks won, scores."""
    return page.evaluate(
        """() => {
            const text = (sel) => document.querySelector(sel).textContent;
            return {
                version: Number(document.querySelector('[data-testid=table]').dataset.version),
                hand: [...document.querySelectorAll('[data-testid=hand] [data-card]')].map((e) => e.dataset.card).sort(),
                trick: [...document.querySelectorAll('[data-testid=trick] .trick-slot')]
                    .filter((s) => s.querySelector('[data-card]'))
                    .map((s) => [Number(s.dataset.seat), s.querySelector('[data-card]').dataset.card])
                    .sort(),
                bids: [0, 1, 2, 3].map((s) => text(`[data-testid=bid-${s}]`)),
                won: [0, 1, 2, 3].map((s) => text(`[data-testid=tricks-${s}]`)),
                scores: [0, 1].map((s) => Number(text(`[data-testid=points-${s}]`).replace("\u2212", "-"))),  // a true minus sign
                // the motion's own animations (a card rising on your turn is a CSS transition, not motion)
                running: document.getAnimations().filter((a) => !(a instanceof CSSTransition) && a.playState === 'running').length,
            };
        }"""
    )


def view_state(view: dict) -> dict:
    bid = lambda b: "—" if b is None else "Nil" if b == 0 else f"Bid {b}"  # noqa: E731
    return {
        "version": view["version"],
        "hand": sorted(view["hand"]),
        "trick": sorted([c["seat"], c["card"]] for c in view["trick"]),
        "bids": [bid(b) for b in view["bids"]],
        "won": [f"Won {n}" for n in view["tricks_won"]],
        "scores": view["scores"],
        "running": 0,
    }


def expected_motion(events: list[dict]) -> list[tuple]:
    """The animations the log's events call for, in order: a card travels, a trick sweeps, a round is dealt."""
    out = []
    for event in events:
        data = event["data"]
        if event["type"] == "card_played":
            out.append(("travel", data["seat"], [data["card"]]))
        elif event["type"] == "trick_won":
            out.append(("sweep", data["seat"], [c["card"] for c in data["trick"]["cards"]]))
        elif event["type"] == "round_started":
            out.append(("deal", data["dealer"], None))
    return out


@pytest.mark.parametrize(
    ("pace", "reduced"), [(0, False), (240, False), (240, True)], ids=["pace-0", "pace-240", "pace-240-reduced-motion"]
)
def test_moves_that_land_at_once_play_out_in_order_and_the_table_ends_as_the_view(
    new_page, short_stream_web, pace, reduced
):
    page = new_page(base=short_stream_web, reduced_motion="reduce" if reduced else None)
    page.add_init_script(RECORD)
    batches: list[int] = []  # moves per stream response

    def held(route) -> None:
        response = route.fetch(timeout=30_000)  # the whole stream: the server ends it after 3 s
        body = response.text()
        batches.append(sum(body.count(kind) for kind in MOVES))
        route.fulfill(response=response, body=body)

    page.route("**/stream*", held)
    game_id = create_game(page, ["you", "ai:easy", "ai:easy", "ai:easy"], win_score=500, lose_score=-500, pace=pace)
    auth = {"Authorization": f"Bearer {seat_token(page, game_id)['token']}"}
    player = Player(page)
    while player.moves < 2:  # the bid and a card: a deal, a whole trick swept to its winner, the next one led
        player.step()
    player.state()  # a quiet table: the person's turn, on a view read from the server

    view = requests.get(f"{short_stream_web}/v1/games/{game_id}", headers=auth, timeout=30).json()
    assert dom_state(page) == view_state(view), "the table is the seat's view, nothing left over"
    assert max(batches) >= 3, f"several computer moves reached the page at once: {batches}"

    events = requests.get(
        f"{short_stream_web}/v1/games/{game_id}/events", params={"after": 0}, headers=auth, timeout=30
    ).json()["events"]
    motion = page.evaluate("window.__motion")
    assert (
        motion[0]["kind"] == "deal"
        and motion[0]["seat"] == 0
        and sorted(motion[0]["cards"])
        == sorted(next(e for e in events if e["type"] == "round_started")["data"]["hand"])
    ), "the hand is dealt from the dealer's seat first"
    shown = [(m["kind"], m["seat"], m["cards"] if m["kind"] != "deal" else None) for m in motion[1:]]
    called = [m for m in expected_motion(events) if m[0] != "deal"]
    assert shown == called, "every card and trick, each once, in the log's order"
    travel_ms = [m["ms"] for m in motion if m["kind"] == "travel"]
    if pace == 0 or reduced:
        assert set(m["ms"] for m in motion) == {0}, "no movement: ?pace=0, or the system asks for reduced motion"
    else:
        assert min(travel_ms) > 0 and all(m["ms"] > 0 for m in motion), "cards move at this pace"
    assert not page.js_errors
    page.unroute_all(behavior="ignoreErrors")  # a held stream may still be in flight
