// Moves between the lobby, an invite and a game without reloading the page — unless a newer client waits
// (release.js): then the move to another page is the natural point to load it.

import { takeUpdate, updateWaiting } from "./release.js";

const listeners = [];

export function onRoute(listener) {
  listeners.push(listener);
  window.addEventListener("popstate", () => (updateWaiting() ? takeUpdate() : listener()));
}

/** Go to a /play address (the lobby's links and buttons call this). */
export function navigate(url) {
  if (updateWaiting()) return takeUpdate(url);
  history.pushState(null, "", url);
  for (const listener of listeners) listener();
  return undefined;
}

/** Open the current address again, without a page load (network.js: the network is back for a page that
 * could not load). */
export function refresh() {
  for (const listener of listeners) listener();
}

/** The lobby's address, keeping a ?pace= override. */
export function lobbyUrl() {
  const pace = new URLSearchParams(location.search).get("pace");
  return pace === null ? "/play" : `/play?pace=${encodeURIComponent(pace)}`;
}

/** A game's address (`extra`: "&seat=<n>" for an invite), keeping a ?pace= override. */
export function gameUrl(gameId, extra = "") {
  const pace = new URLSearchParams(location.search).get("pace");
  return `/play?game=${encodeURIComponent(gameId)}${extra}${pace === null ? "" : `&pace=${encodeURIComponent(pace)}`}`;
}

// ---- the pages of players, in the fragment (`/play#/players/<id>`, `#/replay/<game>`, `#/leaderboards`):
// a server never sees them, and the lobby's address (its ?pace=) stays as it is.

/** A player's profile. */
export function profileUrl(playerId) {
  return `${lobbyUrl()}#/players/${encodeURIComponent(playerId)}`;
}

/** This browser's player's account: link a device, the devices signed in, recovery codes. */
export function accountUrl() {
  return `${lobbyUrl()}#/account`;
}

/** A game's replay, as `seat` saw it (null: every hand). */
export function replayUrl(gameId, seat = null) {
  return `${lobbyUrl()}#/replay/${encodeURIComponent(gameId)}${seat === null || seat === undefined ? "" : `?seat=${seat}`}`;
}

/** The leaderboards, at a board and a kind of player. */
export function leaderboardsUrl(board = null, kind = null) {
  const query = kind ? `?kind=${encodeURIComponent(kind)}` : "";
  return `${lobbyUrl()}#/leaderboards${board ? `/${encodeURIComponent(board)}` : ""}${query}`;
}

/** Your friends: whom you follow (online, at which public table) and whom you blocked. */
export function friendsUrl() {
  return `${lobbyUrl()}#/friends`;
}

/** The events (`eventId`: one event's page; `board` too: that board's scoresheet). */
export function eventsUrl(eventId = null, board = null) {
  if (eventId === null) return `${lobbyUrl()}#/events`;
  return `${lobbyUrl()}#/events/${encodeURIComponent(eventId)}${board === null ? "" : `/boards/${board}`}`;
}

/** The page a fragment names: {page: "player", id} | {page: "replay", gameId, seat} |
 * {page: "leaderboards", board, kind} | {page: "account"} | {page: "friends"} | {page: "events"} |
 * {page: "event", id} | {page: "board", id, board} | null (pure). */
export function fragmentPage(hash) {
  const match = /^#\/([a-z]+)(?:\/([^?]*))?(?:\?(.*))?$/.exec(hash || "");
  if (!match) return null;
  const [, page, rest = "", query = ""] = match;
  const params = new URLSearchParams(query);
  const id = rest ? decodeURIComponent(rest) : "";
  if (page === "players" && /^[A-Za-z0-9_-]{1,64}$/.test(id)) return { page: "player", id };
  if (page === "replay" && /^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    const seat = params.get("seat");
    return { page: "replay", gameId: id, seat: seat !== null && /^[0-3]$/.test(seat) ? Number(seat) : null };
  }
  if (page === "account" && !id) return { page: "account" };
  if (page === "friends" && !id) return { page: "friends" };
  if (page === "events") {
    const parts = /^([A-Za-z0-9_-]{1,64})(?:\/boards\/([1-9][0-9]{0,3}))?$/.exec(id);
    if (!id) return { page: "events" };
    if (!parts) return null;
    return parts[2] ? { page: "board", id: parts[1], board: Number(parts[2]) } : { page: "event", id: parts[1] };
  }
  if (page === "leaderboards") {
    const kind = params.get("kind");
    return { page: "leaderboards", board: id || null, kind: ["person", "bot", "computer"].includes(kind) ? kind : null };
  }
  return null;
}

/** A click on an in-page link: move without a page load (a modified click still opens a tab). */
export function followLink(event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(event.currentTarget.getAttribute("href"));
}
