// The people at a drawn table, for board.js: what the seats show of their persons (seatextras.js),
// the buttons beside the turn line ("I'm back", "Say…"), the rematch at the end, the clock kept
// ticking and the bubbles taken down on time, and your turn announced while the tab is hidden.

import { msLeft, serverNow } from "./clock.js";
import { tickCountdown, tickSeatClock } from "./clockface.js";
import { h } from "./dom.js";
import { allowAlerts, noticeTurn, offerAlerts } from "./attention.js";
import { t } from "./i18n.js";
import { isAway } from "./people.js";
import { personAt } from "./seating.js";

const REMATCH_POLL_MS = 5000; // after the end, the view is read this often to see a rematch offered…
const REMATCH_WATCH_MS = 180_000; // …for this long

/** What seatextras.js needs for this draw. */
export function peopleUi(game) {
  const view = game.view;
  const now = performance.now();
  const people = game.people;
  return {
    clock: people.clockFor(view, now),
    connected: (seat) => people.isConnected(view, seat),
    away: (seat) => isAway(view, seat),
    reserve: (seat) => people.reserveOf(seat),
    timed: Boolean(view.clock),
    bubbles: people.bubbles.current(now),
  };
}

/** Whether anyone else at the table is a person (quick messages are for people). */
function othersArePeople(view) {
  return view.seats.some((s) => s.seat !== view.you && s.type === "human");
}

/**
 * Beside the turn line: how long a rematch keeps its seats for the last game's players; "I'm back"
 * for your away seat; "Say" at a table with people.
 */
export function statusExtras(game) {
  const view = game.view;
  const kept = view.phase === "waiting" && view.reserved && game.people.base
    ? h("span.reserve-wait", { role: "timer", "aria-label": t("table.people.keptTime"), dataset: { testid: "reserved-wait", until: String(view.reserved.until_ms) } }, "…")
    : null;
  if (view.you === null || !game.token) return kept;
  const offline = Boolean(game.unreachable || game.unread); // nothing could be sent: they wait, as the moves do
  const waits = offline ? t("offline.action") : null;
  const back = isAway(view, view.you)
    ? h("button.back-button.primary", { type: "button", onclick: () => game.back(), disabled: Boolean(game.backPending) || offline, title: waits, dataset: { testid: "back-button", focusKey: "back" } }, t("table.people.back"))
    : null;
  const people = othersArePeople(view) && view.phase !== "game_over";
  const say = people
    ? h("button.say-button", { type: "button", onclick: () => game.say(), disabled: offline, title: waits, "aria-label": t("table.people.sayLabel"), dataset: { testid: "say-button", focusKey: "say" } }, h("span.say-icon", { "aria-hidden": "true" }), h("span.say-text", {}, t("table.people.say")))
    : null;
  const alerts = people && offerAlerts()
    ? h("button.alert-button", { type: "button", onclick: () => allowAlerts().then(() => game.render()), title: t("table.people.alertsTitle"), dataset: { testid: "alert-me" } }, t("table.people.alerts"))
    : null;
  return kept || back || say ? [kept, back, alerts, say] : null;
}

/** The rematch part of the final scores: offered by someone else, or yours to offer. */
export function rematchBox(game) {
  const view = game.view;
  if (view.you === null || !game.token) return null;
  const offered = Boolean(game.people.rematch);
  return h(
    "div.rematch",
    { dataset: { testid: "rematch" } },
    offered
      ? h("p.rematch-offer", { dataset: { testid: "rematch-offered" } }, game.people.rematchSeat === null ? t("table.people.rematchAnyone") : t("table.said.rematch", { seat: personAt(view, game.people.rematchSeat) }))
      : null,
    h(
      "button.primary",
      { type: "button", onclick: () => game.rematch(), disabled: Boolean(game.rematchPending), dataset: { testid: "rematch-button", focusKey: "rematch" } },
      t(offered ? "table.people.join" : "table.people.rematch"),
    ),
  );
}

/** After a draw: keep the clock ticking, take bubbles down on time, announce your turn if hidden. */
export function afterDraw(game, { myTurn, text }) {
  const view = game.view;
  if (!game.ticker) game.ticker = tickSeatClock(game.root, () => game.people.clockFor(game.view, performance.now()), () => game.render());
  if (game.keptTicker) game.keptTicker.stop();
  const kept = game.root.querySelector(".reserve-wait");
  if (kept) game.keptTicker = tickCountdown(kept, () => msLeft(Number(kept.dataset.until), serverNow(game.people.base, performance.now())));
  clearTimeout(game.bubbleTimer);
  const next = game.people.bubbles.nextChange(performance.now());
  if (next !== null) game.bubbleTimer = setTimeout(() => game.render(), next + 20);
  noticeTurn({ myTurn, text, key: `${view.round}:${view.phase}:${view.tricks.length}:${view.trick.length}:${view.bids.filter((b) => b !== null).length}` });
  if (view.phase === "game_over" && game.token && othersArePeople(view) && !game.people.rematch && !game.rematchWatch) watchRematch(game);
}

/** At the end, read the view now and then for a while: someone else's rematch offer shows up there. */
function watchRematch(game) {
  const until = performance.now() + REMATCH_WATCH_MS;
  game.rematchWatch = setInterval(() => {
    if (game.stopped || game.people.rematch || performance.now() > until) {
      clearInterval(game.rematchWatch);
      return;
    }
    game.run(() => game.sync());
  }, REMATCH_POLL_MS);
}

/** The page leaves the game: no timers left behind. */
export function stopLife(game) {
  if (game.ticker) game.ticker.stop();
  if (game.keptTicker) game.keptTicker.stop();
  clearTimeout(game.bubbleTimer);
  clearInterval(game.rematchWatch);
  clearTimeout(game.ratingsTimer);
}
