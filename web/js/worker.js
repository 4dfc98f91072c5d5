// Module Web Worker: loads Pyodide from the site's vendored files, installs the
// bombbuster_core wheel and answers bridge requests. JSON strings only cross the
// boundary; all game logic lives in bombbuster_core.bridge (testable in CPython).
//
// Messages in:  {id, message}            message = bridge JSON request (string)
// Messages out: {type: "progress", stage, detail}
//               {type: "ready", timings}
//               {type: "work", id, done, total}   analyses done so far in a long request
//               {type: "reply", id, reply}       reply = bridge JSON reply (string)
//               {type: "fatal", error}           start-up failed
//               {type: "crashed", id, error}     the runtime broke; replace this worker
// {type: "stats", forget?} in → {type: "stats", wasmBytes, core} out: the worker's linear memory size and
// the bridge's `stats` (signature cache hits/misses, sweeps and plans kept for split analyses;
// `forget`: then drop them, so a timed request repeated costs what a new one does).
import { loadPyodide } from "../pyodide/pyodide.mjs";
import { readSnapshot } from "./snapshot.js";

const siteRoot = new URL("../", self.location).href;
// How the engine starts: "snapshot" (default, when the build made one: restore
// the memory of a Pyodide that had already imported bombbuster_core, made at
// build time by web/tools/make_snapshot.mjs; the wheel's files are unpacked only
// if the snapshot lacks one of its modules; figures in docs/results/warm-start.md
// and docs/results/issue31-warm-start.md),
// "unpack" (start Python, then pyodide.unpackArchive of the wheel, 0.4–1.4 s
// faster per cold start than micropip, see web/README-web.md) or "micropip" (the
// project's original design; vendored and tested). It comes in the worker's
// name: a query string would be lost when the service worker answers with the
// cached worker.js.
let installer = ["unpack", "micropip"].includes(self.name) ? self.name : "snapshot";

/**
 * The build's memory snapshot, inflated (a host that sent it with Content-Encoding: gzip
 * already did) and read (js/snapshot.js): {memory, everyModule}. Inflating is the largest
 * part of a warm start's restore (~0.15 s here, more on a phone), so the inflated bytes are
 * kept in this build's cache (`siteCache`, when the service worker made it) under a name no
 * server has, for the next start; that cache goes with its version. timings.snapshotKept:
 * whether this start read that copy.
 */
async function fetchSnapshot(url, siteCache, timings) {
  const inflatedUrl = url.replace(/\.gz$/, "") + ".inflated";
  const cache = siteCache && await caches.has(siteCache).catch(() => false) ? await caches.open(siteCache) : null;
  const kept = cache && await cache.match(inflatedUrl);
  timings.snapshotKept = Boolean(kept);
  if (kept) {
    try {
      return readSnapshot(new Uint8Array(await kept.arrayBuffer()));
    } catch (error) {
      timings.snapshotKept = false;
      console.warn("the kept inflated snapshot is damaged, inflating it again:", error);
      await cache.delete(inflatedUrl);
    }
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  let bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(inflated).arrayBuffer());
  }
  const snapshot = readSnapshot(bytes);
  // Not awaited: the next start's gain, not this one's wait. A full disk only costs that gain.
  if (cache) cache.put(inflatedUrl, new Response(bytes)).catch(() => {});
  return snapshot;
}

/**
 * Read the site's files straight from this build's cache (the one sw.js fills) when it holds
 * them, rather than through the service worker: at a warm start its thread is busy serving the
 * page's own files, and the runtime's 20 MB queue behind them (through it, 3x slower here).
 * Pyodide fetches its files itself, so the worker's fetch is the place. The same bytes as the
 * service worker would answer; anything not cached (a first visit) from the network.
 */
function readFromSiteCache(cacheName) {
  const networkFetch = self.fetch.bind(self);
  self.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.method === "GET" && new URL(request.url).origin === self.location.origin) {
      const cached = await caches.match(request, { cacheName, ignoreSearch: true }).catch(() => undefined);
      if (cached) return cached;
    }
    return networkFetch(input, init);
  };
}

function progress(stage, detail) {
  self.postMessage({ type: "progress", stage, detail });
}

async function start() {
  const timings = {};
  let mark = performance.now();
  const lap = (name) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };
  progress("runtime", "Loading the Python runtime");
  const info = await (await fetch(siteRoot + "build-info.json")).json();
  // sw.js's CACHE_NAME for this build; no caches outside a secure context.
  const siteCache = typeof caches === "undefined" ? null : `bombbuster-${info.version}`;
  if (siteCache) readFromSiteCache(siteCache);
  const pyodideBase = siteRoot + "pyodide/";
  const options = {
    indexURL: pyodideBase,
    packageBaseUrl: pyodideBase, // also replaces the CDN fallback: nothing leaves this site
    lockFileURL: pyodideBase + "pyodide-lock.json",
  };
  const fetchWheel = () => fetch(siteRoot + info.wheel).then((response) => response.arrayBuffer());
  if (installer === "snapshot" && !info.snapshot) installer = "unpack"; // a build made without Node
  // The snapshot's start fetches the wheel only if the snapshot lacks a module.
  const wheel = installer === "unpack" ? fetchWheel() : null;
  let pyodide = null;
  let everyModule = false;
  if (installer === "snapshot") {
    try {
      const snapshot = fetchSnapshot(siteRoot + info.snapshot, siteCache, timings);
      pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot.then(({ memory }) => memory) });
      everyModule = (await snapshot).everyModule;
    } catch (error) {
      // A snapshot this browser cannot restore costs the start-up time, not the engine.
      console.warn("memory snapshot not restored, starting Python instead:", error);
      timings.snapshotError = String(error && error.message || error);
      installer = "unpack";
    }
  }
  pyodide = pyodide || await loadPyodide(options);
  lap("runtime");
  progress("install", "Installing the deduction engine");
  if (installer !== "micropip") {
    if (!everyModule) pyodide.unpackArchive(await (wheel || fetchWheel()), "wheel");
  } else {
    await pyodide.loadPackage("micropip", { messageCallback: () => {} });
    lap("micropip");
    const micropip = pyodide.pyimport("micropip");
    await micropip.install(siteRoot + info.wheel);
  }
  lap("install");
  const handle = pyodide.pyimport("bombbuster_core.bridge").handle;
  lap("import");
  return { handle, timings, pyodide };
}

const starting = start();
starting.then(
  ({ timings }) => self.postMessage({ type: "ready", timings, installer }),
  (error) => self.postMessage({ type: "fatal", error: String(error && error.message || error) }),
);

self.onmessage = async (event) => {
  const { id, message, type } = event.data;
  const { handle, pyodide } = await starting;
  if (type === "stats") {
    const params = event.data.forget ? { forget: true } : {};
    const core = JSON.parse(handle(JSON.stringify({ id: 0, method: "stats", params }))).result;
    self.postMessage({ type: "stats", wasmBytes: pyodide._module.HEAPU8.length, core });
    return;
  }
  let reply;
  try {
    // Never raises for bad input: errors come back as replies.
    reply = handle(message, (done, total) => self.postMessage({ type: "work", id, done, total }));
  } catch (error) {
    // Only a broken runtime gets here (e.g. Pyodide's fatal error after running
    // out of memory): tell the pool, which replaces this worker.
    self.postMessage({ type: "crashed", id, error: String(error && error.message || error) });
    self.close();
    return;
  }
  self.postMessage({ type: "reply", id, reply });
};
