// The people at a table, as the page tracks them (pure: no DOM, no server; times are passed in): the
// running clock and the server time it is read in, who is connected, the quick messages shown as
// bubbles by their seats, and a rematch on offer. Fed by views read from the server, log events
// and the stream's frames that are not log events (`presence`, `message`, `turn_clock`).

import { clockParts, mergeClock, pausedParts, serverNow, timeBase } from "./clock.js";

export const BUBBLE_MS = 5000; // how long a quick message stays by its seat

/** The quick messages shown by the seats: at most one per seat, each for BUBBLE_MS, none twice. */
export class Bubbles {
  constructor() {
    this.bySeat = new Map(); // seat -> {code, until (monotonic ms)}
    this.seen = new Set();
  }

  /** A message {seat, code, at_ms}, `ageMs` old when it arrived at `localMs`; false if already shown or too old. */
  add(message, localMs, ageMs = 0) {
    const key = `${message.seat}:${message.code}:${message.at_ms}`;
    if (this.seen.has(key) || !Number.isInteger(message.seat) || ageMs >= BUBBLE_MS) return false;
    this.seen.add(key);
    if (this.seen.size > 200) this.seen.delete(this.seen.values().next().value);
    this.bySeat.set(message.seat, { code: message.code, until: localMs + BUBBLE_MS - Math.max(0, ageMs) });
    return true;
  }

  /** seat -> code of the bubbles still shown at `localMs`. */
  current(localMs) {
    const shown = new Map();
    for (const [seat, bubble] of this.bySeat) if (bubble.until > localMs) shown.set(seat, bubble.code);
    return shown;
  }

  /** Milliseconds until the next bubble goes (null when none is shown). */
  nextChange(localMs) {
    const left = [...this.bySeat.values()].map((b) => b.until - localMs).filter((ms) => ms > 0);
    return left.length ? Math.min(...left) : null;
  }
}

export class People {
  constructor() {
    this.clock = null; // the latest clock heard of (view, event or frame)
    this.clockVersion = -1;
    this.base = null; // the latest server time sample: {server, local}
    this.pausedAt = null; // the monotonic instant the service went out of reach (the clock stands still), or null
    this.connected = null; // [bool x4] or null when the server says nothing of presence
    this.bubbles = new Bubbles();
    this.rematch = null; // the next game's id once someone offered a rematch
    this.rematchSeat = null; // who offered it, when an event said so
  }

  /** A view read from the server, arriving at `localMs`. */
  fromView(view, localMs) {
    this.time(view.server_time_ms, localMs);
    if (view.version >= this.clockVersion) {
      this.clock = view.clock || null;
      this.clockVersion = view.version;
    }
    if (view.seats.some((s) => typeof s.connected === "boolean")) this.connected = view.seats.map((s) => s.connected === true);
    this.rematch = rematchOf(view.rematch || view.rematch_offered) || this.rematch;
    if (view.rematch && Number.isInteger(view.rematch.seat)) this.rematchSeat = view.rematch.seat;
    const now = this.base ? serverNow(this.base, localMs) : null;
    for (const m of view.messages || []) {
      if (now !== null && Number.isFinite(m.at_ms)) this.bubbles.add(m, localMs, now - m.at_ms);
    }
  }

  /** Log events as they arrive (before they are replayed): the clock they carry. */
  fromEvents(events, localMs) {
    for (const event of events) {
      if (event.clock !== undefined && event.version >= this.clockVersion) {
        this.clock = event.clock === null ? null : mergeClock(this.clock, event.clock);
        this.clockVersion = event.version;
      }
      if (event.server_time_ms !== undefined) this.time(event.server_time_ms, localMs);
      if (event.type === "turn_clock") this.turnClock(event.data, localMs, event.version);
      if (event.type === "rematch_offered") {
        this.rematch = rematchOf(event.data) || this.rematch;
        if (Number.isInteger(event.data.seat)) this.rematchSeat = event.data.seat;
      }
    }
  }

  /** A stream frame that is not a log event; true when the table should be drawn again. */
  fromFrame(name, data, localMs) {
    if (name === "presence" && Array.isArray(data.seats)) {
      const next = data.seats.map((c) => c === true);
      const changed = !this.connected || next.some((c, i) => c !== this.connected[i]);
      this.connected = next;
      return changed;
    }
    if (name === "message") {
      const age = this.base && Number.isFinite(data.at_ms) ? serverNow(this.base, localMs) - data.at_ms : 0;
      return this.bubbles.add(data, localMs, Math.max(0, age));
    }
    if (name === "turn_clock") return this.turnClock(data, localMs, this.clockVersion);
    return false;
  }

  turnClock(data, localMs, version) {
    const { server_time_ms: serverTime, ...update } = data || {};
    this.time(serverTime, localMs);
    this.clock = mergeClock(this.clock, update);
    this.clockVersion = Math.max(this.clockVersion, version ?? -1);
    return true;
  }

  time(serverTimeMs, localMs) {
    const base = timeBase(serverTimeMs, localMs);
    if (base) this.base = base;
  }

  /**
   * The service out of reach (`down`: the event feed reconnects while the browser says it is online) or back,
   * at `localMs`. While it is, the clock stands where it was: the service gives that time back to the turn.
   */
  interrupted(down, localMs) {
    if (!down) this.pausedAt = null;
    else if (this.pausedAt === null) this.pausedAt = localMs;
  }

  /** The running clock as the displayed view shows it: only on the seat whose turn is shown. */
  clockFor(view, localMs) {
    if (!this.clock || !this.base || !["bidding", "passing", "playing"].includes(view.phase)) return null;
    if (this.clock.seat !== view.turn) return null; // a replay behind the clock: its turn is not shown yet
    if (this.pausedAt !== null) return pausedParts(clockParts(this.clock, serverNow(this.base, this.pausedAt)));
    return clockParts(this.clock, serverNow(this.base, localMs));
  }

  /** A seat's reserve left (ms) while it is not its turn; null without a clock. */
  reserveOf(seat) {
    if (!this.clock || !this.clock.reserve_ms) return null;
    const r = Array.isArray(this.clock.reserve_ms) ? this.clock.reserve_ms[seat] : null;
    return Number.isFinite(r) ? r : null;
  }

  /** true / false for a person's seat when the server tells presence; null otherwise (no dot). */
  isConnected(view, seat) {
    if (!this.connected || view.seats[seat].type !== "human") return null;
    return seat === view.you ? true : this.connected[seat];
  }
}

/** Whether a seat is away (the computer plays it until its person is back), from the shown view. */
export function isAway(view, seat) {
  return Boolean(view.clock && view.clock.away && view.clock.away[seat]);
}

function rematchOf(offer) {
  if (!offer) return null;
  return typeof offer === "string" ? offer : offer.game_id || null;
}
