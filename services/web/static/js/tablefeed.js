// The lobby's live list of open tables: a page of GET /v1/tables, then the lobby stream
// (GET /v1/tables/stream, Server-Sent Events parsed by sse.js) from that page's `last_seq`, so no
// change between the two is missed or repeated. A stream the server ends is resumed with
// `Last-Event-ID`; a failure waits a growing pause; a resume point the server no longer keeps
// (410 too_far_behind) reads the page again.

import { api } from "./api.js";
import { SseParser } from "./sse.js";

const BACKOFF_MS = [1000, 2000, 5000, 10000, 30000];
const RETRY_MS = 2000;

/**
 * Follow the open tables: onList(body) with each page of GET /v1/tables (`query`) read, onChange(name,
 * data) for each change of the stream, onState("live" | "down"). Returns {stop()}.
 */
export function followTables(query, { onList, onChange, onState }) {
  let stopped = false;
  let control = null;
  let failures = 0;
  let retryMs = RETRY_MS;
  let cursor = null; // the last change seen: null reads the page (again) first
  let resumed = false; // the cursor is an id the stream sent: resume with Last-Event-ID

  async function once() {
    control = new AbortController();
    if (cursor === null) {
      const body = await api.tables(query, control.signal);
      if (stopped) return;
      onList(body);
      cursor = Number.isInteger(body.last_seq) ? body.last_seq : 0;
      resumed = false;
    }
    const response = await api.tablesStream(cursor, resumed, control.signal);
    const parser = new SseParser();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    failures = 0;
    onState("live");
    for (;;) {
      const { value, done } = await reader.read();
      if (done || stopped) return;
      for (const message of parser.push(value)) {
        onChange(message.event, JSON.parse(message.data));
        if (/^[0-9]+$/.test(message.id)) {
          cursor = Number(message.id);
          resumed = true;
        }
      }
      if (parser.retry !== null) retryMs = parser.retry;
    }
  }

  (async () => {
    while (!stopped) {
      let delay;
      try {
        await once();
        delay = retryMs; // the server ended the stream: come back as its `retry:` asked
      } catch (problem) {
        if (stopped) return;
        if (problem.status === 410) cursor = null;
        delay = Math.max(Number(problem.retryAfter) * 1000 || 0, problem.status === 410 ? 0 : BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]);
        failures += 1;
        onState("down", problem);
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, delay * (0.8 + Math.random() * 0.4)));
    }
  })();

  return {
    stop() {
      stopped = true;
      if (control) control.abort();
    },
  };
}
