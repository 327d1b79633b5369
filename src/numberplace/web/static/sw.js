// The service worker: it keeps the app's own files, so the page opens and a started game
// plays on without the network (the page keeps the game and its waiting moves itself).
// Files come from the server when it answers, so an updated app shows at once, and from
// the cache when it does not. The API is never cached: the page knows what to do offline.

const CACHE = "numberplace-app-v2";
const SHELL = [
  "/", "/static/style.css", "/static/app.js", "/static/board.js", "/static/rules.js", "/static/sync.js",
  "/static/theme.js", "/static/icon.svg", "/static/icon-192.png", "/manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/api/")) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const answer = await fetch(request);
      if (answer.ok) cache.put(request.mode === "navigate" ? url.pathname : request, answer.clone());
      return answer;
    } catch (error) {
      const kept = await cache.match(request.mode === "navigate" ? url.pathname : request, { ignoreSearch: true });
      if (kept) return kept;
      throw error;
    }
  })());
});
