// Server-Sent Events framing, parsed as the HTML standard says (the "event stream interpretation"),
// for a stream read with fetch: EventSource cannot send the Authorization header a seat's token
// needs. Pure: text in, messages out; no I/O, so a unit test drives it with any chunking.

const BOM = "\uFEFF";
const LINE_END = /\r\n|\r|\n/g;

/**
 * Feed decoded text in any chunks; `push` returns the messages each chunk completed, as
 * {id, event, data}: `id` is the last event ID so far ("" if none), `event` defaults to "message",
 * `data` joins the message's data lines with "\n". `retry` holds the last valid `retry:` (ms) or null;
 * `lastEventId` persists across messages as the standard's last event ID buffer does.
 * Comments (lines starting with ":") and unknown fields are ignored; an unfinished message at the
 * end of a stream is never returned (the standard discards it).
 */
export class SseParser {
  constructor() {
    this.lastEventId = "";
    this.retry = null;
    this.buffer = "";
    this.started = false; // the BOM check happens once, on the first text
    this.skipLf = false; // the last chunk ended with CR: an LF starting the next one is the same line end
    this.data = [];
    this.event = "";
  }

  /** @param {string} text @returns {{id: string, event: string, data: string}[]} */
  push(text) {
    if (!this.started && text.length) {
      this.started = true;
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    if (this.skipLf && text.length) {
      if (text.startsWith("\n")) text = text.slice(1);
      this.skipLf = false;
    }
    this.buffer += text;
    const messages = [];
    const ends = new RegExp(LINE_END);
    let start = 0;
    for (let end = ends.exec(this.buffer); end; end = ends.exec(this.buffer)) {
      const message = this.line(this.buffer.slice(start, end.index));
      if (message) messages.push(message);
      start = ends.lastIndex;
      if (end[0] === "\r" && start === this.buffer.length) this.skipLf = true; // CRLF may straddle two chunks
    }
    this.buffer = this.buffer.slice(start);
    return messages;
  }

  /** One line: a field, a comment, or the blank line that dispatches the message so far. */
  line(line) {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "data") this.data.push(value);
    else if (name === "event") this.event = value;
    else if (name === "id" && !value.includes("\0")) this.lastEventId = value;
    else if (name === "retry" && /^[0-9]+$/.test(value)) this.retry = Number(value);
    return null;
  }

  dispatch() {
    const { data, event } = this;
    this.data = [];
    this.event = "";
    if (!data.length) return null;
    return { id: this.lastEventId, event: event || "message", data: data.join("\n") };
  }
}
