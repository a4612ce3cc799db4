// Motion: the deal, a card travelling from its seat to the trick, a finished trick sweeping to its
// winner. Each animation moves the real elements of the table just rendered (Web Animations, which
// the page's CSP allows: no inline style), so nothing is left behind when the table is drawn again.
//
// Durations follow the computer-pace setting (a slower table moves more slowly; ?pace=0 makes every
// animation instant) and are zero when the system asks for reduced motion. A finished trick stays
// on the table 1.5× the pace before it sweeps (settings.js PACES), with or without motion: that is
// time to read it, not movement. game.js awaits each
// animation in its one queue, so moves that arrive faster than they can be shown wait their turn:
// never dropped, never reordered.
//
// Every animation announces itself on `document` as a `spades:motion` CustomEvent
// ({kind: "deal" | "travel" | "sweep", seat, cards, ms}; a sweep also `held`, the ms the finished
// trick stayed before it) before it starts, in order; the browser tests read that sequence.

const MAX = { travel: 420, sweep: 450, deal: 900 };

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Milliseconds for each kind of motion at `pace` (ms between computer moves). */
export function durations(pace) {
  const still = reducedMotion();
  const part = (share, cap) => (still ? 0 : Math.round(Math.min(cap, Math.max(0, pace) * share)));
  return { travel: part(0.45, MAX.travel), sweep: part(0.5, MAX.sweep), deal: part(1, MAX.deal), hold: Math.round(Math.max(0, pace) * 1.5) };
}

function announce(kind, seat, cards, ms, more = {}) {
  document.dispatchEvent(new CustomEvent("spades:motion", { detail: { kind, seat, cards, ms, ...more } }));
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** Resolves when every animation has finished (or at once when there is none). */
async function settle(animations) {
  await Promise.all(animations.map((a) => a.finished.catch(() => undefined)));
}

/** A card (`el`, now in its trick slot) flies in from `from` (a DOMRect: its seat or its place in the hand). */
export async function travel(el, from, ms, seat, card) {
  announce("travel", seat, [card], ms);
  if (!el || !from || ms <= 0 || !el.isConnected) return;
  const to = centre(el.getBoundingClientRect());
  const start = centre(from);
  const dx = start.x - to.x;
  const dy = start.y - to.y;
  const animation = el.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(0.85)`, opacity: 0.6 },
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
    ],
    { duration: ms, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" },
  );
  await settle([animation]);
}

/** The trick's cards (`els`) gather and slide to the winner's seat (`to`, a DOMRect), fading out
 * (`held`: how long the trick stayed before, for the announcement). */
export async function sweep(els, to, ms, seat, cards, held = 0) {
  announce("sweep", seat, cards, ms, { held });
  if (!to || ms <= 0) return;
  const target = centre(to);
  const animations = els
    .filter((el) => el && el.isConnected)
    .map((el) => {
      const at = centre(el.getBoundingClientRect());
      const move = `translate(${target.x - at.x}px, ${target.y - at.y}px) scale(0.45)`;
      return el.animate(
        [
          { transform: "translate(0, 0) scale(1)", opacity: 1 },
          { transform: move, opacity: 0 },
        ],
        { duration: ms, easing: "cubic-bezier(0.5, 0, 0.75, 0)", fill: "forwards" },
      );
    });
  await settle(animations);
}

/** The hand (`els`, left to right) dealt from the dealer's seat (`from`), one card after another. */
export async function deal(els, from, ms, seat, cards) {
  announce("deal", seat, cards, ms);
  if (!from || ms <= 0 || !els.length) return;
  const start = centre(from);
  const each = Math.max(80, Math.round(ms * 0.45));
  const gap = els.length > 1 ? (ms - each) / (els.length - 1) : 0;
  const animations = els
    .filter((el) => el.isConnected)
    .map((el, i) => {
      const at = centre(el.getBoundingClientRect());
      return el.animate(
        [
          { transform: `translate(${start.x - at.x}px, ${start.y - at.y}px) scale(0.5)`, opacity: 0 },
          { transform: "translate(0, 0) scale(1)", opacity: 1 },
        ],
        { duration: each, delay: Math.round(i * gap), easing: "ease-out", fill: "backwards" },
      );
    });
  await settle(animations);
}
