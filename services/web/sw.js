// The /play client's service worker, served as /play/sw.js by services/web/__init__.py with BUILD (a hash
// of every file of the client) and FILES (their addresses) filled in; it controls /play and /play/….
//
// It keeps the client's own files, and nothing else, so that /play opens with no network (from the
// home-screen icon, or a reload while offline) and shows its own "reconnecting" state rather than a
// browser error. Online, every file still comes from the server first (revalidated, as without a
// worker), so a reload always runs the files the server has; the cache answers only when the network
// fails. Any changed file changes BUILD, so this script's bytes change: the browser installs the new
// worker, which fetches the whole new set into a cache of its own and deletes the old caches.
// API calls (/v1/…, the event streams) are never answered or cached here: they go to the network as if
// there were no worker.

const BUILD = "__BUILD__";
const FILES = ["__FILES__"];
const PREFIX = "spades-play-";
const CACHE = `${PREFIX}${BUILD}`;
const PAGE = "/play";

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // "no-cache": revalidated with the server, never an older copy from the HTTP cache
      await cache.addAll(FILES.map((url) => new Request(url, { cache: "no-cache", credentials: "omit" })));
      await self.skipWaiting(); // the next start (or an offline reload) already has the new files
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** The cache key of one of the client's own files (the page whatever its query), else null. */
function clientFile(url) {
  if (url.origin !== self.location.origin) return null;
  if (url.pathname === PAGE) return PAGE;
  if (url.pathname === `${PAGE}/sw.js` || url.pathname === `${PAGE}/version.json`) return null; // the server's word, never kept
  if (url.pathname.startsWith(`${PAGE}/`)) return url.pathname;
  return null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const key = clientFile(new URL(request.url));
  if (key === null) return; // /v1/… and everything else: the network, untouched and never stored
  event.respondWith(networkElseCache(request, key));
});

/** The server's answer; only when the network fails, this build's copy. */
async function networkElseCache(request, key) {
  try {
    return await fetch(request);
  } catch (failure) {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(key);
    if (kept) return kept;
    throw failure;
  }
}
