// Keeps the drawn countdowns ticking between draws: the seat clock of a game (seatextras.js) and the
// quick match's wait (quickmatch.js). One timer per countdown, four times a second, touching only the
// countdown's text: the table is not drawn again for a second going by.

import { clockShape, clockState, clockWords, formatClock } from "./clock.js";

const TICK_MS = 250;

/**
 * Tick the `.seat-clock` element under `root`: `parts()` gives the clock now (clock.js clockParts,
 * or null); when it no longer belongs to the drawn seat, `redraw()` is called once. Returns {stop()}.
 */
export function tickSeatClock(root, parts, redraw) {
  let asked = false;
  const timer = setInterval(() => {
    const el = root.querySelector(".seat-clock");
    if (!el) return;
    const now = parts();
    if (!now || `clock-${now.seat}` !== el.dataset.testid || clockShape(now) !== el.dataset.shape) {
      if (!asked) redraw();
      asked = true;
      return;
    }
    asked = false;
    const state = clockState(now);
    const main = now.paused ? now.leftMs : now.inReserve || now.expired ? now.reserveMs : now.moveMs;
    setText(el.querySelector(".clock-main"), formatClock(main));
    const reserve = el.querySelector(".clock-reserve");
    if (reserve && clockShape(now) === "move") setText(reserve, `+${formatClock(now.reserveMs)}`);
    if (el.dataset.state !== state) el.dataset.state = state;
    const words = clockWords(now);
    if (el.getAttribute("aria-label") !== words) el.setAttribute("aria-label", words);
  }, TICK_MS);
  return { stop: () => clearInterval(timer) };
}

/** Tick a countdown element's text to `msLeft()` (formatted), calling `onZero` once it reaches 0. */
export function tickCountdown(el, msLeft, onZero = () => {}) {
  let done = false;
  const tick = () => {
    const left = msLeft();
    setText(el, formatClock(left));
    if (left <= 0 && !done) {
      done = true;
      onZero();
    }
  };
  tick();
  const timer = setInterval(tick, TICK_MS);
  return { stop: () => clearInterval(timer) };
}

function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}
