// How an event's page hears of its changes: the push stream GET /v1/events/{id}/stream (Server-Sent Events),
// read with the browser's EventSource (the stream needs no credential), which reconnects by itself with
// Last-Event-ID. The server ends the stream after a finished event's body and answers the reconnect 204, which
// closes the EventSource for good; a stream that cannot be had at all (an old proxy, a 404) is closed too, and
// the page then reads the event on its own clock instead (readInSight).

import { POLL_MS } from "./eventlist.js";

/**
 * Follow event `eventId`: onBody(event) with each body as it changes; onClosed() once the stream is closed for
 * good (after a finished event's body, or when it cannot be had). Returns {close()}.
 */
export function followEvent(eventId, onBody, onClosed, Source = globalThis.EventSource) {
  if (typeof Source !== "function") {
    onClosed();
    return { close() {} };
  }
  const source = new Source(`/v1/events/${encodeURIComponent(eventId)}/stream`);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    source.close();
  };
  source.addEventListener("event", (message) => onBody(JSON.parse(message.data)));
  source.onerror = () => {
    if (source.readyState === 2 && !closed) {
      // CLOSED: not a drop the browser retries, but an end (204) or a refusal
      closed = true;
      onClosed();
    }
  };
  return { close };
}

/**
 * `read()` at once whenever the page comes back into sight, and every POLL_MS while it is in sight once
 * `tick()` is called; `page.stopped` ends it. Returns {tick, stop}.
 */
export function readInSight(page, read) {
  const tick = () => {
    if (page.stopped) return;
    page.timer = setTimeout(async () => {
      if (!document.hidden) await read();
      tick();
    }, POLL_MS);
  };
  const onVisible = () => !document.hidden && !page.stopped && read();
  document.addEventListener("visibilitychange", onVisible);
  return {
    tick,
    stop: () => {
      clearTimeout(page.timer);
      document.removeEventListener("visibilitychange", onVisible);
    },
  };
}
