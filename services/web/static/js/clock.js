// Turn clocks and countdowns in the server's time (pure: numbers in, numbers out). A client never
// trusts its own wall clock: every answer carries `server_time_ms`, and the time since it arrived is
// measured with the monotonic clock (performance.now()), so a wrong system clock changes nothing.

import { t } from "./i18n.js";

/** The named time controls (GET /v1/rules `time_controls` when the server lists them). */
export const TIME_CONTROLS = [
  { name: "fast", move_seconds: 10, reserve_seconds: 30 },
  { name: "normal", move_seconds: 25, reserve_seconds: 60 },
  { name: "relaxed", move_seconds: 60, reserve_seconds: 120 },
  { name: "correspondence", move_seconds: 86400, reserve_seconds: 0 },
];

/** The server's list when it has one, else the catalogue above. */
export function timeControls(catalogue) {
  const listed = catalogue && Array.isArray(catalogue.time_controls) ? catalogue.time_controls : null;
  return listed && listed.length ? listed.filter((c) => c.name !== "none") : TIME_CONTROLS;
}

/** A time control in words: "fast: 10 s a move + 30 s reserve". */
export function controlWords(control) {
  const span = (s) =>
    s >= 3600 ? t("table.clock.hoursShort", { count: Math.round(s / 3600) }) : s >= 120 ? t("table.clock.minutesShort", { count: Math.round(s / 60) }) : t("table.clock.secondsShort", { count: s });
  const move = span(control.move_seconds);
  return control.reserve_seconds ? t("table.clock.controlReserve", { move, reserve: span(control.reserve_seconds) }) : t("table.clock.control", { move });
}

/**
 * Where server time stands: `server_time_ms` of an answer and the monotonic instant (ms) it
 * arrived. null when the answer had no server time.
 */
export function timeBase(serverTimeMs, localMs) {
  return Number.isFinite(serverTimeMs) ? { server: serverTimeMs, local: localMs } : null;
}

/** The server's time now, from a time base and the monotonic clock now. */
export function serverNow(base, localMs) {
  return base.server + Math.max(0, localMs - base.local);
}

/** Milliseconds from server time `now` to `untilMs` (0 once passed). */
export function msLeft(untilMs, now) {
  return Math.max(0, untilMs - now);
}

function reserveOf(clock, seat) {
  const r = clock.reserve_ms;
  const value = Array.isArray(r) ? r[seat] : r;
  return Number.isFinite(value) ? Math.max(0, value) : 0;
}

/**
 * What the clock of the seat to move shows at server time `now`: the deadline is the turn's start +
 * the move time + the seat's reserve, and the reserve is spent only once the move time is gone.
 * {seat, leftMs, moveMs, reserveMs, inReserve, urgent, expired}, or null without a running clock.
 */
export function clockParts(clock, now) {
  if (!clock || !Number.isInteger(clock.seat) || !Number.isFinite(clock.deadline_ms)) return null;
  if (clock.away && clock.away[clock.seat]) return null; // an away seat is played at once: no wait
  const left = msLeft(clock.deadline_ms, now);
  const reserve = reserveOf(clock, clock.seat);
  const moveMs = Math.max(0, left - reserve);
  const reserveMs = Math.min(reserve, left);
  return {
    seat: clock.seat,
    leftMs: left,
    moveMs,
    reserveMs,
    inReserve: moveMs === 0 && left > 0,
    urgent: left > 0 && moveMs <= 5000, // the move time nearly gone (or the reserve running)
    expired: left === 0,
  };
}

/**
 * The clock shown while the service cannot be reached: `parts` frozen where they stood when it went, marked
 * `paused` (the service gives that time back to the turn: its deadline moves, told by `clock_credited`).
 */
export function pausedParts(parts) {
  return parts ? { ...parts, paused: true, urgent: false } : null;
}

/** A chip's colour: "paused", "expired", "reserve" (the reserve runs), "urgent" or "move". */
export function clockState(parts) {
  if (parts.paused) return "paused";
  return parts.expired ? "expired" : parts.inReserve ? "reserve" : parts.urgent ? "urgent" : "move";
}

/** A chip's layout, which a tick cannot change (it asks for a draw): "paused", "reserve" or "move". */
export function clockShape(parts) {
  return parts.paused ? "paused" : parts.inReserve ? "reserve" : "move";
}

/** "0:08", "1:30", "23 h 59 min": whole seconds rounded up, so 0:00 means the time is up. */
export function formatClock(ms) {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  if (seconds >= 3600) {
    const hours = Math.floor(seconds / 3600);
    return t("table.clock.long", { hours, minutes: String(Math.floor((seconds % 3600) / 60)).padStart(2, "0") });
  }
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The clock for a screen reader: "8 seconds to move, then 30 seconds of reserve". */
export function clockWords(parts) {
  const words = (ms) => {
    const s = Math.ceil(ms / 1000);
    const hours = t("table.clock.hours", { count: Math.floor(s / 3600) });
    const minutes = (count) => t("table.clock.minutes", { count });
    const seconds = (count) => t("table.clock.seconds", { count });
    if (s >= 3600) return `${hours} ${minutes(Math.floor((s % 3600) / 60))}`;
    if (s >= 120) return `${minutes(Math.floor(s / 60))} ${seconds(s % 60)}`;
    return seconds(s);
  };
  if (parts.paused) return t("table.clock.paused", { time: words(parts.leftMs) });
  if (parts.expired) return t("table.clock.up");
  if (parts.inReserve) return t("table.clock.reserveLeft", { time: words(parts.reserveMs) });
  return parts.reserveMs
    ? t("table.clock.moveThenReserve", { move: words(parts.moveMs), reserve: words(parts.reserveMs) })
    : t("table.clock.move", { move: words(parts.moveMs) });
}

/**
 * A clock update merged into the clock known so far: `clock` on an event, or a `turn_clock` event
 * {seat (null: none runs), deadline_ms, reserve_ms (that seat's), move_ms}. The per-seat reserves stay
 * an array: a single reserve is the named seat's.
 */
export function mergeClock(clock, update) {
  if (!update) return clock;
  const { reserve_ms: reserve, ...rest } = update;
  const base = clock || { control: null, move_ms: null, away: [false, false, false, false], reserve_ms: [0, 0, 0, 0] };
  const merged = { ...base, ...rest };
  if (Array.isArray(reserve)) merged.reserve_ms = reserve;
  else if (Number.isFinite(reserve) && Number.isInteger(update.seat)) {
    merged.reserve_ms = [...(base.reserve_ms || [0, 0, 0, 0])];
    merged.reserve_ms[update.seat] = reserve;
  }
  return merged;
}
