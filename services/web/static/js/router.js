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
