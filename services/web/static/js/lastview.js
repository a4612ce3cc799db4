// The last view this device read for a seat it holds, kept so that a start with no network (a reload, the
// home-screen icon) shows the table as this device last saw it, reconnecting, rather than an error
// (game.js). Only the held seat's own view: the server's answer to that seat's token, which holds that
// seat's hand and no other's. In localStorage under `spades.view.<game>.<seat>`, only for the latest
// MAX_GAMES games and each at most MAX_CHARS; forgotten when the game ends or the seat is left or taken
// away (seats.js), and when this device signs out (identity.js).

const PREFIX = "spades.view.";
export const MAX_GAMES = 3;
export const MAX_CHARS = 200_000; // a long game's view is a few tens of kB: this bounds a surprise

const keyOf = (gameId, seat) => `${PREFIX}${gameId}.${seat}`;

/** The kept views' keys, of one game or of all. */
function keptKeys(gameId = null) {
  const start = gameId === null ? PREFIX : `${PREFIX}${gameId}.`;
  const keys = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith(start)) keys.push(key);
  }
  return keys;
}

function savedAt(key) {
  try {
    return JSON.parse(localStorage.getItem(key)).saved || 0;
  } catch {
    return 0;
  }
}

/** Keep `view` as `seat`'s last view of the game (the seat this device holds). False when it is not kept:
 * not that seat's view, a finished game, too long, or no room (then nothing of the game stays). */
export function keepView(gameId, seat, view) {
  if (!Number.isInteger(seat) || !view || view.you !== seat || view.phase === "game_over") return false;
  const text = JSON.stringify({ seat, saved: Date.now(), view });
  const key = keyOf(gameId, seat);
  for (const other of keptKeys(gameId)) if (other !== key) localStorage.removeItem(other);
  try {
    if (text.length > MAX_CHARS) throw new RangeError("too long to keep");
    localStorage.setItem(key, text);
  } catch {
    localStorage.removeItem(key); // full, or too long: no view rather than an older one
    return false;
  }
  const keys = keptKeys();
  if (keys.length > MAX_GAMES) {
    keys.sort((a, b) => (b === key) - (a === key) || savedAt(b) - savedAt(a)); // this one first, then the newest
    for (const old of keys.slice(MAX_GAMES)) localStorage.removeItem(old);
  }
  return true;
}

/** The view kept for `seat` of the game, or null. */
export function lastView(gameId, seat) {
  if (!Number.isInteger(seat)) return null;
  try {
    const kept = JSON.parse(localStorage.getItem(keyOf(gameId, seat)));
    return kept && kept.seat === seat && kept.view && kept.view.you === seat ? kept.view : null;
  } catch {
    return null;
  }
}

/** Forget the game's kept view (every seat's). */
export function forgetView(gameId) {
  for (const key of keptKeys(gameId)) localStorage.removeItem(key);
}

/** Forget every kept view (this device signs out). */
export function forgetViews() {
  for (const key of keptKeys()) localStorage.removeItem(key);
}
