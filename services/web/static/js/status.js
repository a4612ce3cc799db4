// The page's status lines outside the table: the connection state in the top bar, the moves read
// out to screen readers, and "your turn" said once per turn from one persistent live region.

import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

/** Show the event feed's state; true when it is live again after being down. */
export function showConnection(status) {
  const el = document.getElementById("connection");
  const wasDown = el.dataset.wasDown === "yes";
  el.dataset.state = status.state;
  if (status.state === "reconnecting") {
    const seconds = Math.max(1, Math.round(status.retryInMs / 1000));
    fill(el, h("span.connection-text", {}, t("round.status.reconnecting", { attempt: status.attempt, seconds })));
  } else if (status.state === "live") {
    fill(el, h("span.connection-text", {}, t("round.status.live")));
  } else {
    fill(el, "");
  }
  el.dataset.wasDown = status.state === "reconnecting" ? "yes" : "no";
  return status.state === "live" && wasDown;
}

/** A move, read out politely (#announcer). */
export function announce(text) {
  const log = document.getElementById("announcer");
  if (log && text) fill(log, text);
}

let said = "";

/** `text` ("Your turn: bid", the game's end) in #turn-status, once per change; "" forgets the last. */
export function sayTurn(text) {
  if (text === said) return;
  said = text;
  const region = document.getElementById("turn-status");
  if (region && text) fill(region, text);
}
