// How game events reach the page: a long poll of GET /v1/games/{id}/events (the only module that
// knows; an SSE stream could replace it behind the same `follow` function).

import { api } from "./api.js";

const WAIT_SECONDS = 25; // under the contract's 30 s cap
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

/**
 * Follow a game's events from `after`. Calls onEvents(events) for each non-empty page and
 * onStatus({state: "live" | "reconnecting" | "stopped", attempt, retryInMs, problem}).
 * onFatal(problem) ends the loop for answers a retry cannot fix (401: the token died; 404).
 * Returns {stop()}.
 */
export function follow(gameId, token, after, { onEvents, onStatus, onFatal }) {
  const control = new AbortController();
  let stopped = false;
  let cursor = after;

  async function loop() {
    let failures = 0;
    while (!stopped) {
      try {
        const page = await api.events(gameId, token, cursor, WAIT_SECONDS, control.signal);
        if (failures) onStatus({ state: "live" });
        failures = 0;
        if (page.events.length) {
          cursor = page.last_seq;
          onEvents(page.events);
        }
      } catch (problem) {
        if (stopped || problem.name === "AbortError") return;
        if (problem.status === 401 || problem.status === 404) {
          stopped = true;
          onFatal(problem);
          return;
        }
        const retryAfter = Number(problem.retryAfter) * 1000 || 0;
        const delay = Math.max(retryAfter, BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]);
        failures += 1;
        onStatus({ state: "reconnecting", attempt: failures, retryInMs: delay, problem });
        await new Promise((resolve) => setTimeout(resolve, delay * (0.8 + Math.random() * 0.4)));
      }
    }
  }

  onStatus({ state: "live" });
  loop();
  return {
    stop() {
      stopped = true;
      control.abort();
      onStatus({ state: "stopped" });
    },
  };
}
