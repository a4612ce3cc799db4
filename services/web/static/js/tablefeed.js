// The lobby's live list of open tables: GET /v1/tables once the lobby stream (GET /v1/tables/stream,
// Server-Sent Events, parsed by sse.js) is open, then the stream's changes as they come. The stream is
// opened again after the server ends it, and after a failure with a growing pause; each time the list
// is read again, so nothing missed while it was closed stays wrong.

import { api } from "./api.js";
import { SseParser } from "./sse.js";

const BACKOFF_MS = [1000, 2000, 5000, 10000, 30000];
const RETRY_MS = 2000;

/**
 * Follow the open tables: onList(page) with each fresh page of GET /v1/tables (`query`), onChange(name,
 * data) for each change of the stream, onState("live" | "down"). Returns {stop()}.
 */
export function followTables(query, { onList, onChange, onState }) {
  let stopped = false;
  let control = null;
  let failures = 0;
  let retryMs = RETRY_MS;

  async function once() {
    control = new AbortController();
    const response = await api.tablesStream(control.signal);
    const parser = new SseParser();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const early = []; // changes that arrive before the list: applied after it
    let listed = false;
    api.tables(query).then(
      (body) => {
        if (stopped) return;
        onList(body);
        listed = true;
        for (const [name, data] of early.splice(0)) onChange(name, data);
      },
      () => control.abort(),
    );
    failures = 0;
    onState("live");
    for (;;) {
      const { value, done } = await reader.read();
      if (done || stopped) return;
      for (const message of parser.push(value)) {
        const data = JSON.parse(message.data);
        if (listed) onChange(message.event, data);
        else early.push([message.event, data]);
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
        delay = Math.max(Number(problem.retryAfter) * 1000 || 0, BACKOFF_MS[Math.min(failures, BACKOFF_MS.length - 1)]);
        failures += 1;
        onState("down", problem);
        api.tables(query).then((body) => stopped || onList(body), () => {}); // the list, even without its stream
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
