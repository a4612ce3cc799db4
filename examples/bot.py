"""A third-party Spades bot on the bot runner (``pip install ./clients/python``).

    python examples/bot.py --api http://127.0.0.1:8000 --game <game_id> [--seat 2]

or, with the runner's own command (the bot is the ``choose`` function below):

    spades-bot play --api http://127.0.0.1:8000 --bot examples/bot.py:choose --game <game_id>
    spades-bot match --api http://127.0.0.1:8000 --bot examples/bot.py:choose --level normal --deals 200

A bot is one function: a seat's view (what that seat may know: its own hand, the bids, the trick, the
scores, and ``legal``, every move it may make now) in, a move out.  The runner does the rest: it claims the
seat, follows the game on its push stream (resuming after a cut), calls the bot on each of the seat's turns
and sends the move with ``If-Match`` and an ``Idempotency-Key``, so a retry is safe and a stale move is
refused instead of misapplied.

Its strategy is deliberately simple: bid one trick per ace, king and spade beyond the third; play the
lowest card that wins the trick when a partner isn't already winning it, else the lowest legal card.
"""

from __future__ import annotations

import argparse
import logging
import sys

from spades_client import GameView, Runner, SpadesClient
from spades_client.models import PlayedCard

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    return RANKS.index(card[0])


def beats(card: str, best: str) -> bool:
    """Whether ``card`` beats ``best`` in a trick (spades are trump)."""
    if card[1] == best[1]:
        return rank(card) > rank(best)
    return card[1] == "S"


def winning_play(trick: list[PlayedCard]) -> PlayedCard | None:
    best = None
    for play in trick:
        if best is None or beats(play.card, best.card):
            best = play
    return best


def choose_bid(view: GameView) -> int:
    hand = view.hand or []
    spades = [c for c in hand if c[1] == "S"]
    estimate = sum(c[0] in "AK" for c in hand) + max(0, len(spades) - 3)
    non_nil = [b for b in view.legal if isinstance(b, int) and b > 0] or view.legal
    return min(non_nil, key=lambda b: (abs(b - estimate), b))


def choose_card(view: GameView) -> str:
    legal = sorted(view.legal, key=lambda c: (rank(c), c[1]))
    best = winning_play(view.trick)
    if best is not None and view.rules.partnership and (best.seat - view.you) % 4 == 2:
        return legal[0]  # partner is winning: don't overtake
    winners = [c for c in legal if best is None or beats(c, best.card)]
    return winners[0] if winners else legal[0]


def choose(view: GameView) -> int | str:
    """The bot: a bid while bidding, a card while playing."""
    return choose_bid(view) if view.phase == "bidding" else choose_card(view)


def main() -> int:
    parser = argparse.ArgumentParser(description="Claim an open seat and play it to the end.")
    parser.add_argument("--api", default="http://127.0.0.1:8000")
    parser.add_argument("--game", required=True, help="game id")
    parser.add_argument("--seat", type=int, default=None, help="seat to claim (default: the first claimable one)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    runner = Runner(SpadesClient(args.api), choose)
    final = runner.join(args.game, args.seat)
    print(f"played seat {final.you} of game {args.game}", file=sys.stderr)
    print(f"game over: scores {final.scores}, winner seats {final.winner}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
