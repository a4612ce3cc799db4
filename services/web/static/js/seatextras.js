// What a seat shows of its person (drawn into felt.js's seat panel): a connection dot, the running
// clock on the seat whose turn it is (time to move and the reserve), "Away" while the computer plays
// for them (or, in a rated game, that they left and it counts as their loss), and a quick message as a bubble by the seat. Pure renders; clockface.js keeps the clock
// ticking between draws.

import { clockShape, clockState, clockWords, formatClock } from "./clock.js";
import { h } from "./dom.js";
import { forfeited } from "./fairplay.js";
import { t } from "./i18n.js";
import { messageText } from "./news.js";
import { playerOf, seatKind } from "./seating.js";

/**
 * `people` (what board.js gathers for a draw): {clock: parts of the running clock or null,
 * connected(seat) -> true | false | null, away(seat), reserve(seat) -> ms | null, timed (the game
 * has a clock), bubbles: Map seat -> code}.
 */

/** A small dot before a person's name: green while their page is connected. */
export function connectionDot(people, seat) {
  const connected = people ? people.connected(seat) : null;
  if (connected === null) return null;
  return h(
    "span.conn-dot",
    { dataset: { testid: `conn-${seat}`, state: connected ? "on" : "off" }, title: t(connected ? "table.conn.on" : "table.conn.off") },
    h("span.visually-hidden", {}, t(connected ? "table.conn.onSaid" : "table.conn.offSaid")),
  );
}

/** The running clock: "0:08 +0:30" (move time, then the reserve), the reserve alone once it runs, or the time
 * left standing still, "paused", while the service is out of reach. */
export function clockChip(parts, seat) {
  const main = parts.paused ? parts.leftMs : parts.inReserve || parts.expired ? parts.reserveMs : parts.moveMs;
  return h(
    "span.seat-clock",
    {
      role: "timer",
      "aria-label": clockWords(parts),
      title: parts.paused ? t("table.clock.pausedTitle") : null,
      dataset: { testid: `clock-${seat}`, state: clockState(parts), shape: clockShape(parts) },
    },
    h("span.clock-icon", { "aria-hidden": "true" }),
    h("span.clock-main", { "aria-hidden": "true" }, formatClock(main)),
    parts.paused
      ? h("span.clock-reserve", { "aria-hidden": "true" }, t("table.clock.pausedShort"))
      : parts.inReserve
      ? h("span.clock-reserve", { "aria-hidden": "true" }, t("table.clock.reserve"))
      : parts.reserveMs > 0
      ? h("span.clock-reserve", { "aria-hidden": "true" }, `+${formatClock(parts.reserveMs)}`)
      : null,
  );
}

/** The line under a seat's name: its clock on its turn, "Away", who plays it (and your reserve), or a
 * rematch's seat kept for the last game's player. */
export function seatLine(view, seat, people) {
  const mine = seat === view.you;
  const kept = view.phase === "waiting" && view.reserved && (view.reserved.seats || []).includes(seat);
  const kind = kept ? t("table.kind.kept") : seatKind(view, seat);
  if (forfeited(view, seat)) return h("div.seat-kind.forfeit", { dataset: { testid: `forfeit-${seat}` } }, t("table.kind.forfeit"));
  if (!people) return h("div.seat-kind", {}, kind);
  if (people.away(seat)) {
    return h(
      "div.seat-kind.timed",
      { dataset: { testid: `away-${seat}` } },
      h("span.away-badge", {}, t("table.away.badge")),
      h("span.away-note", {}, ` ${t(mine ? "table.away.yours" : "table.away.theirs")}`),
    );
  }
  if (people.clock && people.clock.seat === seat) {
    const named = mine ? null : playerOf(view, seat); // a person's name stays beside their running clock
    return named && named.kind !== "computer"
      ? h("div.seat-kind.timed.named", {}, h("span.seat-player", { title: named.name }, named.name), clockChip(people.clock, seat))
      : h("div.seat-kind.timed", {}, clockChip(people.clock, seat));
  }
  if (mine && people.timed) {
    const reserve = people.reserve(seat);
    return h("div.seat-kind.timed.idle", { dataset: { testid: `reserve-${seat}` } }, reserve ? t("table.clock.reserveIdle", { time: formatClock(reserve) }) : t("table.clock.on"));
  }
  return h("div.seat-kind", {}, kind);
}

/** A quick message by its seat, for a few seconds. */
export function bubble(people, seat) {
  const code = people && people.bubbles.get(seat);
  if (!code) return null;
  return h("div.bubble", { dataset: { testid: `bubble-${seat}`, code } }, messageText(code));
}
