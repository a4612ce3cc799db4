// Quick match: a request with the person's preferences (rules preset, clock, how long to wait, the
// computers' level that fills free seats) sent as POST /v1/matches; then a waiting dialog with a
// countdown in the server's time (expires_ms against server_time_ms, never the local clock alone),
// the people found so far (live: the long poll answers when the server's count differs from the one
// shown), what the end of the wait brings, and Cancel, following GET /v1/matches/{id} (the request's
// secret as bearer) until the person is seated: the seat's token is kept like any other and the game opens.

import { api } from "./api.js";
import { msLeft, serverNow, timeBase, timeControls } from "./clock.js";
import { tickCountdown } from "./clockface.js";
import { openDialog } from "./dialog.js";
import { fill, h, pause } from "./dom.js";
import { currentPlayer, withPlayer } from "./identity.js";
import { describeProblem, showMessage } from "./messages.js";
import { t } from "./i18n.js";
import { byStrength, levelTitle } from "./levels.js";
import { presetShort } from "./rulewords.js";
import { gameUrl, navigate } from "./router.js";
import { keepSeat } from "./seats.js";
import { clockName, clockWords } from "./tableopts.js";
import { clockPhrase } from "./tablelist.js";

const KEY = "spades.match"; // sessionStorage: the request waiting in this tab, resumed after a reload
const WAITS = [10, 20, 30, 60, 120]; // seconds (the server takes 5 to 120)
const POLL_WAIT = 25; // seconds a long poll may wait for a change
const BACKOFF_MS = [1000, 2000, 4000, 8000];
const MIN_POLL_MS = 1000;


/** The quick match form: {rules: {preset}, clock, max_wait_seconds, fill_level} read from it. */
export function quickMatchForm(levels, catalogue, onSubmit) {
  const ordered = byStrength(levels);
  const presets = catalogue ? Object.keys(catalogue.presets) : ["partnership", "individual"];
  const controls = timeControls(catalogue).filter((c) => ["fast", "normal", "relaxed"].includes(c.name));
  const select = (id, label, options, chosen) =>
    h("div.field", {}, h("label", { for: id }, label), h("select", { id, dataset: { testid: id } }, options.map(([value, text]) => h("option", { value, selected: value === chosen }, text))));
  const form = h(
    "form.quick-match",
    { novalidate: true, dataset: { testid: "quick-match" }, "aria-labelledby": "quick-match-title" },
    h("h2", { id: "quick-match-title" }, t("lobby.match.title")),
    select("qm-preset", t("lobby.match.rules"), presets.map((p) => [p, presetShort(p)]), presets.includes("partnership") ? "partnership" : presets[0]),
    h(
      "fieldset.clock-choice",
      {},
      h("legend", {}, t("lobby.match.clock")),
      controls.map((c) =>
        h(
          "label.clock-option",
          {},
          h("input", { type: "radio", name: "qm-clock", value: c.name, checked: c.name === "normal", dataset: { testid: `qm-clock-${c.name}` } }),
          h("span.clock-name", {}, clockName(c.name)),
          h("span.clock-words", {}, clockWords(c)),
        ),
      ),
    ),
    select("qm-wait", t("lobby.match.wait"), WAITS.map((s) => [String(s), s < 60 ? t("lobby.match.seconds", { count: s }) : t("lobby.match.minutes", { count: s / 60 })]), "20"),
    select("qm-level", t("lobby.match.level"), ordered.map((l) => [l.name, levelTitle(l.name)]), levels.default_level || (ordered[0] || {}).name),
    h("div.form-actions", {}, h("button.primary", { type: "submit", dataset: { testid: "find-players" } }, t("lobby.match.find")), h("small.field-error", { id: "qm-error", role: "alert", dataset: { testid: "qm-error" } })),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onSubmit(form, {
      rules: { preset: form.querySelector("#qm-preset").value },
      clock: form.querySelector("input[name=qm-clock]:checked").value,
      max_wait_seconds: Number(form.querySelector("#qm-wait").value),
      fill_level: form.querySelector("#qm-level").value,
    });
  });
  return form;
}

/** Send the request and wait for a seat; returns {stop()} (the lobby left: stop waiting, keep the request). */
export function startMatch(form, wanted) {
  const button = form.querySelector("[data-testid=find-players]");
  const error = form.querySelector("#qm-error");
  error.textContent = "";
  button.disabled = true;
  let left = false; // the lobby was left before the server answered: the request waits for its return
  const handle = { stop: () => (left = true) };
  withPlayer((playerToken) => api.startMatch(wanted, playerToken)).then(
    (match) => {
      button.disabled = false;
      sessionStorage.setItem(KEY, JSON.stringify({ match_id: match.match_id, secret: match.secret, expires_ms: match.expires_ms, wanted }));
      if (!left) Object.assign(handle, waitForSeat({ ...match, wanted, local: performance.now() }));
    },
    (problem) => {
      button.disabled = false;
      error.textContent = describeProblem(problem);
    },
  );
  return handle;
}

/** A request this tab was waiting on before a reload: wait on (the server says how long is left). */
export function resumeMatch() {
  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(KEY));
  } catch {
    saved = null;
  }
  return saved && saved.match_id ? waitForSeat({ ...saved, status: "waiting" }) : null;
}

/**
 * The people found so far: a pip per seat and "3 of 4 players found", read out as it changes; then what the end of
 * the wait brings (the free seats to computers of the level the server names) and whether the game is rated
 * (services/ratings/policy.py: a quick match under a clock is, computers and all, when every person at it has a
 * name). Before the server's first answer, the level this person chose.
 */
function foundPanel(wanted) {
  const seats = h("span.match-seats", { "aria-hidden": "true" });
  const line = h("span", { dataset: { testid: "match-found" } }, "…");
  const found = h("p.match-found", { "aria-live": "polite" }, seats, line);
  const fillers = (level) => (level ? t("lobby.match.fillers", { level: levelTitle(level) }) : t("lobby.match.computers"));
  const note = h("p.match-note", { dataset: { testid: "match-note" } }, t("lobby.match.looking", { fillers: fillers(wanted.fill_level) }));
  const rated = h("p.match-rated", { dataset: { testid: "match-rated" } }, t(currentPlayer() ? "lobby.match.rated" : "lobby.match.unrated"));
  let last = { found: null, seats: 4, level: wanted.fill_level };
  let timeIsUp = false;
  const say = () => {
    const free = last.seats - (last.found ?? 0);
    if (last.found !== null && free <= 0) fill(note, t("lobby.match.full"));
    else if (timeIsUp) fill(note, t("lobby.match.timeUp", { fillers: fillers(last.level) }));
    else if (last.found !== null) fill(note, t("lobby.match.then", { count: free, level: levelTitle(last.level) }));
  };
  const show = (state) => {
    if (!Number.isInteger(state.found)) return; // a server that does not count: the note as it was
    last = { found: state.found, seats: Number.isInteger(state.seats) ? state.seats : 4, level: state.fill_level || last.level };
    fill(seats, Array.from({ length: last.seats }, (_, i) => h("span.match-seat", { dataset: { found: i < last.found ? "yes" : "no" } })));
    fill(line, t("lobby.match.found", { count: last.found, seats: last.seats }));
    say();
  };
  const timeUp = () => {
    timeIsUp = true;
    say();
  };
  return { nodes: [found, note, rated], show, timeUp, full: () => last.found !== null && last.found >= last.seats };
}

/** The waiting dialog and its long poll; {stop()}. */
function waitForSeat(match) {
  let base = timeBase(match.server_time_ms, match.local ?? performance.now());
  let expires = match.expires_ms ?? null;
  let finished = false;
  const control = new AbortController();
  const count = h("span.match-count", { dataset: { testid: "match-countdown" } }, "…");
  const wanted = match.wanted || {};
  const panel = foundPanel(wanted);
  const left = () => (base && expires !== null ? msLeft(expires, serverNow(base, performance.now())) : null);
  let ticker = null;
  const startTicking = () => {
    if (ticker || left() === null) return;
    ticker = tickCountdown(count, left, () => panel.timeUp());
  };
  startTicking();
  const dialog = openDialog(
    h(
      "div.match-wait",
      { dataset: { testid: "match-wait" } },
      h("h2.panel-title", {}, t("lobby.match.finding")),
      h("p.match-what", {}, [presetShort((wanted.rules || {}).preset || "partnership"), wanted.clock ? clockPhrase(wanted.clock) : null].filter(Boolean).join(" · ")),
      h("p.match-clock", { role: "timer", "aria-label": t("lobby.match.timeLeft") }, count),
      panel.nodes,
    ),
    { testid: "match", label: t("lobby.match.finding"), buttons: [{ label: t("lobby.match.cancel"), value: "cancel" }] },
  );
  const close = (value) => {
    finished = true;
    control.abort();
    if (ticker) ticker.stop();
    const open = document.querySelector("dialog[data-testid=match]");
    if (open) open.close(value);
  };
  const seated = (state) => {
    sessionStorage.removeItem(KEY);
    keepSeat(state.game_id, state.seat, state.token);
    close("seated");
    navigate(gameUrl(state.game_id));
  };
  const over = (text) => {
    sessionStorage.removeItem(KEY);
    close("over");
    showMessage(text, "info");
  };
  const follow = async () => {
    let shown; // the count the dialog shows: the long poll answers as soon as the server's is another
    for (let failures = 0, first = true; !finished; ) {
      try {
        const asked = performance.now();
        const state = await api.match(match.match_id, match.secret, first ? 0 : POLL_WAIT, control.signal, shown);
        failures = 0;
        if (Number.isFinite(state.server_time_ms)) base = timeBase(state.server_time_ms, performance.now());
        if (Number.isFinite(state.expires_ms)) expires = state.expires_ms;
        startTicking();
        if (state.status === "seated") return seated(state);
        if (state.status === "cancelled") return over(t("lobby.match.wasCancelled"));
        if (state.status === "expired") return over(t("lobby.match.expired"));
        panel.show(state);
        shown = Number.isInteger(state.found) ? state.found : undefined;
        if (panel.full() && ticker) ticker.stop(); // everyone is here: the game is being made, nothing left to wait for
        if (!first) await pause(MIN_POLL_MS - (performance.now() - asked)); // a server that answers at once is not asked in a loop
        first = false;
      } catch (problem) {
        if (finished || problem.name === "AbortError") return;
        if (problem.status === 404 || problem.status === 401 || problem.status === 403) return over(t("lobby.match.gone", { why: describeProblem(problem) }));
        await pause(BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)]);
      }
    }
  };
  follow();
  dialog.then((value) => {
    if (value === "seated" || value === "over" || value === "left") return;
    close("cancel"); // Cancel, or Escape
    cancel(match);
  });
  return { stop: () => close("left") };
}

/** Cancel the request; if a seat was given meanwhile, the person still gets it. */
async function cancel(match) {
  sessionStorage.removeItem(KEY);
  await api.cancelMatch(match.match_id, match.secret).catch(() => null);
  const state = await api.match(match.match_id, match.secret, 0).catch(() => null);
  if (state && state.status === "seated") {
    keepSeat(state.game_id, state.seat, state.token);
    navigate(gameUrl(state.game_id));
    return;
  }
  showMessage(t("lobby.match.cancelled"), "info");
}
