// The seats this browser holds: one token per game, in localStorage, never in a URL. A seat's last view
// (lastview.js) goes with it: forgotten when the seat is forgotten or its game is over.

import { forgetView } from "./lastview.js";

const PREFIX = "spades.seat.";

/** {seat, token} for the game, or null. */
export function heldSeat(gameId) {
  try {
    const stored = JSON.parse(localStorage.getItem(PREFIX + gameId));
    return stored && Number.isInteger(stored.seat) && typeof stored.token === "string" ? stored : null;
  } catch {
    return null;
  }
}

export function keepSeat(gameId, seat, token) {
  localStorage.setItem(PREFIX + gameId, JSON.stringify({ seat, token, since: Date.now() }));
}

/** The game this browser holds a seat in is over (the lobby lists it as finished). */
export function markFinished(gameId) {
  forgetView(gameId);
  const held = heldSeat(gameId);
  if (held && !held.finished) localStorage.setItem(PREFIX + gameId, JSON.stringify({ ...held, finished: true }));
}

export function forgetSeat(gameId) {
  forgetView(gameId);
  localStorage.removeItem(PREFIX + gameId);
}

/** Games this browser holds a seat in, newest first: [{gameId, seat, since, finished}]. */
export function heldGames() {
  const games = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (!key.startsWith(PREFIX)) continue;
    const gameId = key.slice(PREFIX.length);
    const held = heldSeat(gameId);
    if (held) games.push({ gameId, seat: held.seat, since: held.since || 0, finished: Boolean(held.finished) });
  }
  return games.sort((a, b) => b.since - a.since);
}
