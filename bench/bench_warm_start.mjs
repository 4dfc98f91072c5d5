// The engine's start under Node on a built site (issue 31, item 3): Python started afresh
// (loadPyodide, unpack the wheel, import bombbuster_core.bridge: the worker's "unpack" start)
// vs the build's memory snapshot restored (the worker's default "snapshot" start: inflated and
// read as the worker does, the wheel unpacked only if the snapshot lacks a module), taking
// turns, files already read into memory (as from the service worker's cache). Prints ms.
// Usage: node bench/bench_warm_start.mjs [DIST] [RUNS]
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { loadavg } from "node:os";
import { readSnapshot } from "../web/js/snapshot.js";

const dist = resolve(process.argv[2] || "dist");
const runs = Number(process.argv[3] || 5);
const info = JSON.parse(readFileSync(join(dist, "build-info.json"), "utf8"));
const { loadPyodide } = await import(pathToFileURL(join(dist, "pyodide", "pyodide.mjs")).href);
const indexURL = join(dist, "pyodide") + "/";
const wheel = new Uint8Array(readFileSync(join(dist, info.wheel)));
const snapshotGz = readFileSync(join(dist, info.snapshot));

async function start(restore) {
  const t0 = performance.now();
  const snapshot = restore ? readSnapshot(new Uint8Array(gunzipSync(snapshotGz))) : null;
  const pyodide = await loadPyodide(restore ? { indexURL, _loadSnapshot: snapshot.memory } : { indexURL });
  if (!restore || !snapshot.everyModule) pyodide.unpackArchive(wheel, "wheel");
  const handle = pyodide.pyimport("bombbuster_core.bridge").handle;
  const ms = performance.now() - t0;
  if (!JSON.parse(handle(JSON.stringify({ id: 1, method: "ping", params: {} }))).result) throw new Error("no answer");
  return ms;
}

const times = { fresh: [], snapshot: [] };
for (let i = 0; i < runs; i++) {
  times.fresh.push(await start(false));
  times.snapshot.push(await start(true));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`load average ${loadavg()[0].toFixed(1)}; ${runs} starts each, alternating`);
for (const [name, xs] of Object.entries(times)) {
  console.log(`${name.padEnd(9)} median ${median(xs).toFixed(0)} ms (runs: ${xs.map((x) => x.toFixed(0)).join(", ")})`);
}
