// Build-time helper (run by build.py under Node, never shipped): a memory snapshot
// of a Pyodide that has started and imported bombbuster_core. A worker that restores
// it (loadPyodide({_loadSnapshot}), web/js/worker.js) skips Python's start-up and the
// imports: the snapshot is the WebAssembly memory at that point, made with the exact
// pyodide.asm.wasm and wheel that ship beside it (build.py keys it on both).
//
// Every module of the package is imported (not only the bridge's): the files the wheel
// unpacked are not in that memory, so a module first imported after the restore would
// need the wheel unpacked again (~0.13 s of a warm start). When one fails to import here,
// the snapshot says so and the worker unpacks the wheel as before.
//
// Written sparse, then gzip-compressed: more than half of the 31 MB memory is pages of
// zeros, which the worker need not inflate (inflating is most of restoring it). Layout
// (little-endian uint32s): "BBSNAP01", flags (1: every module imported), the memory's
// length, the page size, the number of runs of non-zero pages, then per run its first
// page and its page count, then the runs' bytes one after another.
// Usage: node make_snapshot.mjs PYODIDE_DIR WHEEL OUT_GZ
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const MAGIC = "BBSNAP01";
const PAGE = 4096;
const EVERY_MODULE_IMPORTED = 1;

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
const failed = pyodide.runPython(`
import importlib, pkgutil, bombbuster_core
failed = []
for module in pkgutil.walk_packages(bombbuster_core.__path__, "bombbuster_core."):
    if module.name != "bombbuster_core.__main__":  # runs the CLI
        try:
            importlib.import_module(module.name)
        except Exception as error:
            failed.append(f"{module.name}: {error!r}")
failed
`).toJs();
for (const line of failed) console.warn(`warning: not in the snapshot (the worker will unpack the wheel): ${line}`);
const memory = pyodide.makeMemorySnapshot();
writeFileSync(out, gzipSync(sparse(memory, failed.length ? 0 : EVERY_MODULE_IMPORTED), { level: 9 }));
console.log(`memory snapshot: ${(memory.length / 1e6).toFixed(1)} MB, ${(readFileSync(out).length / 1e6).toFixed(1)} MB compressed`);

/** The memory in the sparse layout above. */
function sparse(memory, flags) {
  const pages = Math.ceil(memory.length / PAGE);
  const zero = (page) => memory.subarray(page * PAGE, (page + 1) * PAGE).every((byte) => byte === 0);
  const runs = [];
  for (let page = 0; page < pages; page++) {
    if (zero(page)) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === page) last[1] += 1;
    else runs.push([page, 1]);
  }
  const fields = [flags, memory.length, PAGE, runs.length, ...runs.flat()];
  const header = Buffer.alloc(MAGIC.length + 4 * fields.length);
  header.write(MAGIC, 0, "latin1");
  fields.forEach((value, i) => header.writeUInt32LE(value, MAGIC.length + 4 * i));
  const parts = [header, ...runs.map(([first, count]) => memory.subarray(first * PAGE, Math.min((first + count) * PAGE, memory.length)))];
  return Buffer.concat(parts);
}
