// The table as a stage for motion: where a seat or a card is drawn, and the animations of one
// game (motion.js) run against the elements just drawn. While any runs, a redraw from outside the
// game's queue waits for it (`busy`), so an animation is not cut short by an unrelated redraw.

import { pause } from "./dom.js";
import { deal, durations, sweep, travel } from "./motion.js";

export class Stage {
  /** `root`: the table's container; `pace()`: ms between computer moves; `onIdle()`: the last animation ended. */
  constructor(root, pace, onIdle) {
    this.root = root;
    this.pace = pace;
    this.onIdle = onIdle;
    this.running = 0;
  }

  get busy() {
    return this.running > 0;
  }

  get durations() {
    return durations(this.pace());
  }

  async animate(promise) {
    this.running += 1;
    try {
      await promise;
    } finally {
      this.running -= 1;
      if (!this.running) this.onIdle();
    }
  }

  seatRect(seat) {
    const el = this.root.querySelector(`[data-testid=seat-${seat}]`);
    return el ? el.getBoundingClientRect() : null;
  }

  handCardRect(card) {
    const el = this.root.querySelector(`[data-testid=hand] [data-card="${card}"]`);
    return el ? el.getBoundingClientRect() : null;
  }

  /** The card just drawn in its trick slot flies in from `from` (its place in your hand) or from its seat. */
  travelIn(seat, card, from) {
    const el = this.root.querySelector(`[data-testid=trick] [data-card="${card}"]`);
    return this.animate(travel(el, from || this.seatRect(seat), this.durations.travel, seat, card));
  }

  /** The finished trick drawn in the middle stays 1.5× the pace (time to read it), then its banner
   * goes and its cards sweep to the winner's seat. */
  async sweepTrick(trick) {
    const { hold, sweep: ms } = this.durations;
    await pause(hold);
    const drawn = this.root.querySelector("[data-testid=trick]");
    if (drawn) drawn.classList.add("sweeping");
    const els = drawn ? [...drawn.querySelectorAll(".card")] : [];
    const cards = trick.cards.map((c) => c.card);
    return this.animate(sweep(els, this.seatRect(trick.winner), ms, trick.winner, cards, hold));
  }

  /** The hand just drawn is dealt from the dealer's seat. */
  dealHand(dealer) {
    const els = [...this.root.querySelectorAll("[data-testid=hand] .card")];
    const cards = els.map((el) => el.dataset.card);
    return this.animate(deal(els, this.seatRect(dealer), this.durations.deal, dealer, cards));
  }
}
