// Your turn, announced while the tab is in the background: the page's title and icon change at
// once; a short beep (WebAudio, no sound file; on unless turned off in Settings) and a notification once
// the person allowed it — from Settings' tick box, or the "Alert me" button at a table of people
// (a browser asks for the permission only from a click).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { loadSettings, saveSettings } from "./settings.js";

const TITLE = "Spades";
const ICON = "/play/img/icon.svg";
const TURN_ICON = "/play/img/icon-turn.svg";

/**
 * What to do (pure). `state` {rung: key of the turn already rung for, seen: key of a turn seen
 * while the tab was visible}; `now` {myTurn, hidden, key: which turn of yours this is}. Returns
 * {mark: title and icon changed, ring: sound and notification now, state: the next state}: a turn
 * rings once, and not at all if it began while the person was looking.
 */
export function turnSignal(state, { myTurn, hidden, key }) {
  const seen = myTurn && !hidden ? key : state.seen;
  const ring = myTurn && hidden && key !== state.rung && key !== seen;
  return { mark: myTurn && hidden, ring, state: { rung: ring ? key : state.rung, seen } };
}

let state = { rung: null, seen: null };
let marked = false;
let notice = null;
let audio = null;
let last = { myTurn: false, key: null, text: "" };

/** Called after every draw of a game (board.js), and when the tab is shown or hidden. */
export function noticeTurn({ myTurn, key, text }) {
  last = { myTurn, key, text };
  const signal = turnSignal(state, { myTurn, hidden: document.hidden, key });
  state = signal.state;
  mark(signal.mark);
  if (signal.ring) ring(text);
  if (!signal.mark && notice) {
    notice.close();
    notice = null;
  }
}

/** No game on the page any more: back to the plain title and icon. */
export function forgetTurn() {
  noticeTurn({ myTurn: false, key: null, text: "" });
}

if (typeof document !== "undefined") document.addEventListener("visibilitychange", () => noticeTurn(last));

function mark(on) {
  if (on === marked) return;
  marked = on;
  document.title = on ? t("app.turnTitle", { name: TITLE }) : TITLE;
  const icon = document.querySelector("link[rel=icon]");
  if (icon) icon.href = on ? TURN_ICON : ICON;
  document.documentElement.dataset.turnAlert = on ? "yes" : "no";
}

function ring(text) {
  const settings = loadSettings();
  if (settings.sound) beep();
  if (settings.notify && "Notification" in window && Notification.permission === "granted") {
    notice = new Notification(t("app.turnNotice"), { body: text, tag: "spades-turn", icon: ICON });
    notice.onclick = () => window.focus();
  }
  document.dispatchEvent(new CustomEvent("spades:turn-alert", { detail: { text, sound: settings.sound, notify: settings.notify } }));
}

/** Two short tones; the AudioContext is made (and allowed to play) from a click in Settings or on the page. */
export function beep() {
  const ctx = audioContext();
  if (!ctx || ctx.state !== "running") return;
  const gain = ctx.createGain();
  gain.connect(ctx.destination);
  gain.gain.setValueAtTime(0.0001, ctx.currentTime);
  [[660, 0], [880, 0.18]].forEach(([frequency, at]) => {
    const tone = ctx.createOscillator();
    tone.frequency.value = frequency;
    tone.connect(gain);
    gain.gain.exponentialRampToValueAtTime(0.25, ctx.currentTime + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + at + 0.16);
    tone.start(ctx.currentTime + at);
    tone.stop(ctx.currentTime + at + 0.17);
  });
}

function audioContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  audio ??= new Context();
  return audio;
}

/** A browser lets a page play sound only after a click: resume the sound then, if it is turned on. */
if (typeof document !== "undefined") {
  document.addEventListener("pointerdown", () => {
    if (loadSettings().sound && audioContext() && audio.state === "suspended") audio.resume();
  });
}

/** Whether to offer "Alert me" at a table of people: notifications exist, are off, and were never refused. */
export function offerAlerts() {
  return "Notification" in window && Notification.permission === "default" && !loadSettings().notify;
}

/** "Alert me": ask for the permission (this click's), and turn notifications on once it is granted. */
export async function allowAlerts() {
  const on = (await Notification.requestPermission()) === "granted";
  saveSettings({ ...loadSettings(), notify: on });
  return on;
}

/** The Settings dialog's part: sound and notifications at your turn while the tab is hidden. */
export function attentionFields(settings) {
  const supported = "Notification" in window;
  const blocked = supported && Notification.permission === "denied";
  return h(
    "fieldset.alerts",
    {},
    h("legend", {}, t("app.attention")),
    h("p.help", {}, t("app.attention.help")),
    h("div.field.check", {}, h("input", { id: "sound", type: "checkbox", checked: settings.sound, dataset: { testid: "sound" } }), h("label", { for: "sound" }, t("app.attention.sound"))),
    h(
      "div.field.check",
      {},
      h("input", { id: "notify", type: "checkbox", checked: settings.notify && !blocked, disabled: !supported, dataset: { testid: "notify" }, "aria-describedby": "notify-note" }),
      h("label", { for: "notify" }, t("app.attention.notify")),
    ),
    h("small.help", { id: "notify-note", dataset: { testid: "notify-note" } }, !supported ? t("app.attention.unsupported") : blocked ? t("app.attention.blocked") : ""),
  );
}

/** A change in those boxes (a click: the one moment a page may ask to notify or to play sound). */
export async function attentionChanged(form, event) {
  const settings = loadSettings();
  if (event.target.id === "sound") {
    saveSettings({ ...settings, sound: event.target.checked });
    if (event.target.checked && audioContext()) {
      await audio.resume();
      beep();
    }
  }
  if (event.target.id === "notify") {
    let on = event.target.checked;
    if (on && Notification.permission !== "granted") on = (await Notification.requestPermission()) === "granted";
    event.target.checked = on;
    form.querySelector("#notify-note").textContent = on || Notification.permission !== "denied" ? "" : t("app.attention.blocked");
    saveSettings({ ...loadSettings(), notify: on });
  }
}
