// The page's own "reconnecting" state while the network is gone, on any page (the lobby, a game, a
// profile): in the top bar's connection indicator (#connection), in the page's words. It learns of the
// network from the browser (`offline`, `online`) and from every server call (api.js `onNetwork`); while
// the server can't be reached it asks again (GET /v1/levels, a small public answer) 0.5 s, 1 s, 2 s, …
// 15 s apart, and at once when the browser says the network is back or the page is shown again (a phone's
// browser holds back a hidden page's timers); nothing is asked while the server answers. A game's event
// feed says the same thing its own way (transport.js, status.js) and takes the indicator over; this
// leaves it alone then. Once the server answers again (the probe or any other call) the indicator clears;
// a page whose own requests failed meanwhile (it could not load, or a move did not go) is opened again:
// by the page itself when it said how (`whenBack`: a game started with no network, game.js), else at the
// same address (router.js `refresh`), without reloading the page. Whether the server is out of reach is told
// to whoever asks (`onOffline`: a game sends no move meanwhile): from the browser's `offline` at once, or from a
// call that found no server; an event stream's failure alone is not enough (the probe it starts says).

import { api, onNetwork } from "./api.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { refresh } from "./router.js";

const PROBE_MS = [500, 1000, 2000, 4000, 8000, 15000];

let down = false;
let broken = false; // a request of the page failed while the network was gone: open the page again after
let attempt = 0;
let timer = null;
let again = null; // how the page opens itself again once the server answers (whenBack), else refresh()
let offline = false; // the server is known out of reach: the browser said so, or a call found no server
const offlineListeners = new Set();

function setOffline(value) {
  if (offline === value) return;
  offline = value;
  for (const listener of offlineListeners) listener(value);
}

function indicator() {
  return document.getElementById("connection");
}

/** Our text in the indicator, unless the game's feed already shows its own reconnecting state there. */
function show() {
  const el = indicator();
  if (!el) return;
  el.dataset.network = "down";
  if (el.dataset.state === "reconnecting") return;
  el.dataset.state = "reconnecting";
  fill(el, h("span.connection-text", { dataset: { offline: "", testid: "offline-status" } }, t("offline.reconnecting")));
}

/** Our text goes (what the game's feed wrote since stays). */
function clear() {
  const el = indicator();
  if (!el) return;
  delete el.dataset.network;
  if (el.querySelector("[data-offline]")) {
    el.replaceChildren();
    delete el.dataset.state;
  }
}

function probeLater() {
  clearTimeout(timer);
  timer = setTimeout(probe, PROBE_MS[Math.min(attempt, PROBE_MS.length - 1)] * (0.8 + Math.random() * 0.4));
  attempt += 1;
}

function probe() {
  clearTimeout(timer);
  timer = null;
  if (down) api.levels().catch(() => {}); // its outcome comes back through onNetwork
}

/** The server was not reached: by a call of the page's (`request`: not an event stream's), or the browser
 * says it is offline (`browser`). */
function unreachable(request, browser = false) {
  if (request) broken = true;
  if (request || browser) setOffline(true);
  if (!down) {
    down = true;
    attempt = 0;
    show();
  }
  if (!timer) probeLater();
}

function reachable(request) {
  setOffline(false);
  if (!down) {
    if (request) broken = false;
    return;
  }
  down = false;
  clearTimeout(timer);
  timer = null;
  clear();
  if (broken) {
    broken = false;
    const open = again || refresh; // the page as it would have loaded: the lobby's lists, the game's view and feed
    again = null;
    open();
  }
}

/** Ask now, and 0.5 s, 1 s, … after if that fails: the browser says the network is back, or the page is seen again. */
function askNow() {
  attempt = 0;
  probe();
}

/**
 * The page that could not load for want of the network opens itself again with `retry()` (once, when the
 * server next answers) instead of being opened again at its address. Returns a function that takes it
 * back (the page is left first).
 */
export function whenBack(retry) {
  again = retry;
  return () => {
    if (again === retry) again = null;
  };
}

/**
 * Calls listener(true) when the server is found out of reach (the browser says it is offline, or a call other
 * than an event stream's reached no server: the probe's too), listener(false) when it answers again. Returns
 * a function that stops the calls.
 */
export function onOffline(listener) {
  offlineListeners.add(listener);
  return () => offlineListeners.delete(listener);
}

/** Whether the server is out of reach now (as `onOffline` tells it). */
export function isOffline() {
  return offline;
}

/** Starts watching (once, from install.js); shows nothing until the network is found gone. */
export function watchNetwork() {
  onNetwork(({ reachable: ok, stream }) => (ok ? reachable(!stream) : unreachable(!stream)));
  window.addEventListener("offline", () => unreachable(false, true));
  window.addEventListener("online", askNow);
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && askNow());
}
