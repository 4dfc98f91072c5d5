// Build-time helper (run by build.py under Node, never shipped): a memory snapshot
// of a Pyodide that has started and imported bombbuster_core.bridge. A worker that
// restores it (loadPyodide({_loadSnapshot})) skips Python's start-up and the
// imports: the snapshot is the WebAssembly memory at that point, made with the
// exact pyodide.asm.wasm and wheel that ship beside it (build.py keys it on both).
// The files the wheel unpacked are not in that memory: the worker unpacks the
// wheel again after restoring, for any module imported later.
// Written gzip-compressed (31 MB of memory, about 5 MB compressed).
// Usage: node make_snapshot.mjs PYODIDE_DIR WHEEL OUT_GZ
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const [pyodideDir, wheel, out] = process.argv.slice(2);
if (!pyodideDir || !wheel || !out) {
  console.error("usage: node make_snapshot.mjs PYODIDE_DIR WHEEL OUT_GZ");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", _makeSnapshot: true });
// The same steps as web/js/worker.js's "unpack" start, so the restored state is the one it makes.
pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel");
pyodide.pyimport("bombbuster_core.bridge");
const memory = pyodide.makeMemorySnapshot();
writeFileSync(out, gzipSync(memory, { level: 9 }));
console.log(`memory snapshot: ${(memory.length / 1e6).toFixed(1)} MB, ${(readFileSync(out).length / 1e6).toFixed(1)} MB compressed`);
