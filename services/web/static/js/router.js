// Moves between the lobby, an invite and a game without reloading the page.

const listeners = [];

export function onRoute(listener) {
  listeners.push(listener);
  window.addEventListener("popstate", listener);
}

/** Go to a /play address (the lobby's links and buttons call this). */
export function navigate(url) {
  history.pushState(null, "", url);
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
