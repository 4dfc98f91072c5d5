// Service worker: precaches every file of the site under a versioned cache
// (build.py fills in the version, derived from the files' hashes, and the list)
// and serves from that cache first, so the app works with no network after one
// visit. A new build installs a new cache; it takes over on the next load.
const CACHE_VERSION = "__CACHE_VERSION__";
const PRECACHE_FILES = ["__PRECACHE_FILES__"];
const CACHE_NAME = `bombbuster-${CACHE_VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE_NAME);
    // cache: "reload" bypasses the HTTP cache so the new version is what gets stored.
    await cache.addAll(PRECACHE_FILES.map((file) => new Request(file, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith("bombbuster-") && name !== CACHE_NAME)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

let opened = null; // the cache, opened once: a warm start asks for ~60 files at once

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await (opened ||= caches.open(CACHE_NAME));
    // Query strings (e.g. worker options, share links in the hash) do not change the file.
    const cached = await cache.match(request, { ignoreSearch: true })
      || (request.mode === "navigate" ? await cache.match("./") : undefined);
    return cached || fetch(request);
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "version") event.source.postMessage({ version: CACHE_VERSION });
});
