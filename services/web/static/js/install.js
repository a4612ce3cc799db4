// /play as an installed app: registers the service worker (/play/sw.js, scope /play), which keeps the
// client's own files so the page opens with no network, and starts the page's own reconnecting state
// (network.js). Imported once by main.js; nothing here says a word before the language is loaded.

import { watchNetwork } from "./network.js";

export const WORKER = "/play/sw.js";
export const SCOPE = "/play";

async function register() {
  // http://localhost and https only (a secure context); a browser without workers just has no offline start
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  try {
    // updateViaCache "none": the browser asks the server for sw.js itself at every check, never its HTTP cache
    const registration = await navigator.serviceWorker.register(WORKER, { scope: SCOPE, updateViaCache: "none" });
    document.documentElement.dataset.worker = "registered";
    // Each start asks whether the client changed (a new build changes sw.js): the new worker then fetches
    // the new files into a cache of its own and takes over, for this page's next start and offline.
    if (registration.active && !registration.installing && !registration.waiting) registration.update().catch(() => {});
  } catch (error) {
    document.documentElement.dataset.worker = "failed";
    console.warn("The service worker was not registered:", error);
  }
}

watchNetwork();
if (document.readyState === "complete") register();
else window.addEventListener("load", register, { once: true }); // after the page's own files have loaded
