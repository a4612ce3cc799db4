// A newer client while a page is open. The page knows the build it was sent with (index.html's
// <meta name="client-build">, filled in by the server) and asks for the server's (/play/version.json) when
// it starts, when it is shown again, every 10 minutes, and as a round ends. An older page keeps running its
// files — its game, its seat and what it shows are the server's, read through /v1 like any client's — and
// takes the new ones at a natural point: when the person goes on from a round's summary (gameactions.js),
// or at the next move to another page (router.js), which then loads from the server rather than being drawn
// in place. The summary says so while an update waits; the start after it says it was taken.

import { api } from "./api.js";

const UPDATED = "spades.updated"; // sessionStorage: this start took a newer client at a natural point
const EVERY_MS = 10 * 60 * 1000;
const AGAIN_MS = 60 * 1000; // shown again: at most one question a minute

let running = null; // this page's build, read at the first question
let newer = null; // the server's build, once it is not the running one
let asked = 0;

/** Ask the server which client it has; true when it is newer than this page's (an answer that fails changes nothing). */
export async function checkForUpdate() {
  running ??= document.querySelector('meta[name="client-build"]')?.content || "";
  if (!/^[0-9a-f]+$/.test(running) || newer) return newer !== null; // a page not sent by /play has no build to compare
  asked = Date.now();
  try {
    const build = await api.clientBuild();
    if (build && build !== running) newer = build;
  } catch {
    // no answer (no network, an older server): the next question tells
  }
  document.documentElement.dataset.update = newer ? "waiting" : "current";
  return newer !== null;
}

/** Whether newer files wait for this page's next natural point. */
export function updateWaiting() {
  return newer !== null;
}

/** Load `url` (this page's address when left out) from the server: the newer files, at once. */
export function takeUpdate(url = null) {
  sessionStorage.setItem(UPDATED, newer || "");
  if (url !== null && url !== location.pathname + location.search + location.hash) history.pushState(null, "", url);
  location.reload(); // a reload, not assign(): an address that differs only in its fragment would not load
}

/** True once, on the start that took an update (to say so). */
export function justUpdated() {
  if (sessionStorage.getItem(UPDATED) === null) return false;
  sessionStorage.removeItem(UPDATED);
  return true;
}

/** Ask now, then every 10 minutes, and when the page is shown again. */
export function watchForUpdates() {
  checkForUpdate();
  setInterval(() => document.visibilityState === "visible" && checkForUpdate(), EVERY_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && Date.now() - asked > AGAIN_MS) checkForUpdate();
  });
}
