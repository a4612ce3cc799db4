// Your turn, announced while the tab is in the background: the page's title and icon change at
// once; a short beep (WebAudio, no sound file) and a notification follow if the person turned them
// on in Settings (both off by default; notifications are asked for only from that tick box).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { loadSettings, saveSettings } from "./settings.js";

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
  document.title = on ? t("table.alert.title", { app: t("app.name") }) : t("app.name");
  const icon = document.querySelector("link[rel=icon]");
  if (icon) icon.href = on ? TURN_ICON : ICON;
  document.documentElement.dataset.turnAlert = on ? "yes" : "no";
}

function ring(text) {
  const settings = loadSettings();
  if (settings.sound) beep();
  if (settings.notify && "Notification" in window && Notification.permission === "granted") {
    notice = new Notification(t("table.alert.notification", { app: t("app.name") }), { body: text, tag: "spades-turn", icon: ICON });
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

/** The Settings dialog's part: sound and notifications at your turn while the tab is hidden. */
export function attentionFields(settings) {
  const supported = "Notification" in window;
  const blocked = supported && Notification.permission === "denied";
  return h(
    "fieldset.alerts",
    {},
    h("legend", {}, t("table.alert.legend")),
    h("p.help", {}, t("table.alert.help")),
    h("div.field.check", {}, h("input", { id: "sound", type: "checkbox", checked: settings.sound, dataset: { testid: "sound" } }), h("label", { for: "sound" }, t("table.alert.sound"))),
    h(
      "div.field.check",
      {},
      h("input", { id: "notify", type: "checkbox", checked: settings.notify && !blocked, disabled: !supported, dataset: { testid: "notify" }, "aria-describedby": "notify-note" }),
      h("label", { for: "notify" }, t("table.alert.notify")),
    ),
    h("small.help", { id: "notify-note", dataset: { testid: "notify-note" } }, !supported ? t("table.alert.unsupported") : blocked ? t("table.alert.blocked") : ""),
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
    form.querySelector("#notify-note").textContent = on || Notification.permission !== "denied" ? "" : t("table.alert.blocked");
    saveSettings({ ...loadSettings(), notify: on });
  }
}
