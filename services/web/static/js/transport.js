// How game events reach the page: the push stream GET /v1/games/{id}/stream (Server-Sent Events),
// read with fetch because EventSource cannot send the seat's Authorization header, and parsed by
// sse.js. The only module that knows how events travel.

import { api, onNetwork } from "./api.js";
import { SseParser } from "./sse.js";

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
const RETRY_MS = 2000; // between a stream's end and the next connection, until its `retry:` says otherwise
const SILENCE_MS = 65_000; // heartbeats come at least every 30 s: this long without a byte is a dead connection
const FATAL = new Set([400, 401, 403, 404]); // a retry of the same request cannot succeed
const LAST_TYPE = "game_over"; // nothing follows it: the stream ends and so does following

/**
 * A stream's messages parted: the log's events (their data has a `seq`: in order, resumable) and the
 * frames outside the log (`presence`, `message`: no id, nothing to resume) as {name, data}.
 */
export function sortMessages(messages) {
  const events = [];
  const frames = [];
  for (const message of messages) {
    const data = JSON.parse(message.data);
    if (Number.isInteger(data.seq)) events.push(data);
    else frames.push({ name: message.event, data });
  }
  return { events, frames };
}

/**
 * Follow a game's events after seq `after`. Calls onEvents(events) with the events each read of the
 * stream brought (in order, never empty) and onStatus({state: "live" | "reconnecting" | "stopped",
 * attempt, retryInMs, problem}); "stopped" once the game is over or stop() was called.
 * onFatal(problem) ends following for answers a retry cannot fix (401: the token died; 403; 404; 400).
 * A 410 too_far_behind (the log no longer holds the events after the resume point) calls
 * onTooFarBehind(problem), which reloads the view and resolves to the seq to follow after; without
 * that handler a 410 is fatal. Frames that are not log events (no `seq`: `presence`, `message`)
 * go to onFrame(name, data) as they arrive, outside the event order. Returns {stop()}.
 */
export function follow(gameId, token, after, { onEvents, onStatus, onFatal, onTooFarBehind, onFrame }) {
  let stopped = false;
  let connection = null; // the AbortController of the open request
  let cursor = after;
  let resumed = false; // the cursor is an id the stream sent: resume with Last-Event-ID
  let retryMs = RETRY_MS;
  let failures = 0;
  let wake = null; // ends the wait before the next connection at once
  let lostNetwork = false; // the last failure reached no server (not an answer such as a 503 or a 429)
  // The browser knows when the network goes and comes back: a stream open then is dead (do not wait for
  // the silence to tell), and a wait for the next connection is pointless once the network is back. So is
  // a wait for the network once any other call of the page got an answer (network.js's probe, a move): the
  // server is there again. A wait the server asked for (Retry-After, a 5xx) is waited out.
  const browser = typeof window === "undefined" ? null : window;
  const offline = () => connection && connection.abort();
  const online = () => wake && wake();
  browser?.addEventListener("offline", offline);
  browser?.addEventListener("online", online);
  const unhear = onNetwork(({ reachable }) => reachable && lostNetwork && wake && wake());
  const unlisten = () => {
    browser?.removeEventListener("offline", offline);
    browser?.removeEventListener("online", online);
    unhear();
    if (wake) wake();
  };

  /** One connection, read to its end: true when the game is over (nothing more will come). */
  async function readStream() {
    connection = new AbortController();
    const control = connection;
    let silence = setTimeout(() => control.abort(), SILENCE_MS);
    try {
      const response = await api.stream(gameId, token, cursor, resumed, control.signal);
      if (response.status === 204) return true;
      if (failures) onStatus({ state: "live" });
      failures = 0;
      lostNetwork = false;
      const parser = new SseParser();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let over = false; // the server closes the stream right after game_over: read on to that end
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return over;
        clearTimeout(silence);
        silence = setTimeout(() => control.abort(), SILENCE_MS);
        const messages = parser.push(value);
        const { events, frames } = sortMessages(messages);
        if (onFrame) for (const frame of frames) onFrame(frame.name, frame.data);
        if (parser.retry !== null) retryMs = parser.retry;
        const last = messages[messages.length - 1]; // an id whose message is complete, never one half-read
        if (last && /^[0-9]+$/.test(last.id)) {
          cursor = Number(last.id);
          resumed = true;
        }
        if (events.length) onEvents(events);
        over ||= events.some((event) => event.type === LAST_TYPE);
      }
    } finally {
      clearTimeout(silence);
    }
  }

  /** What to do after a failed connection: stop (fatal), resume elsewhere (410), or wait this many ms. */
  async function recover(problem) {
    if (problem.status === 410 && problem.code === "too_far_behind" && onTooFarBehind) {
      try {
        cursor = await onTooFarBehind(problem);
        resumed = false;
        return 0;
      } catch (reloadProblem) {
        problem = reloadProblem;
      }
    }
    if (FATAL.has(problem.status) || problem.status === 410) {
      stopped = true;
      onFatal(problem);
      return null;
    }
    lostNetwork = !(problem.status > 0); // no connection (status 0), or the stream cut (an abort)
    const retryAfter = Number(problem.retryAfter) * 1000 || 0;
    const delay = Math.max(retryAfter, retryMs, BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]);
    failures += 1;
    onStatus({ state: "reconnecting", attempt: failures, retryInMs: delay, problem });
    return delay;
  }

  /** A pause of `ms`, cut short when the network comes back (or following stops). */
  function waitFor(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  }

  async function loop() {
    while (!stopped) {
      let delay = retryMs; // the server closed the stream (its maximum lifetime): come back as it asked
      try {
        if (await readStream()) break;
      } catch (problem) {
        if (stopped) return;
        delay = await recover(problem);
        if (delay === null) return unlisten(); // fatal: following has ended
      }
      await waitFor(delay * (0.8 + Math.random() * 0.4));
    }
    unlisten();
    if (!stopped) {
      stopped = true;
      onStatus({ state: "stopped" });
    }
  }

  onStatus({ state: "live" });
  loop();
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      if (connection) connection.abort();
      unlisten();
      onStatus({ state: "stopped" });
    },
  };
}
