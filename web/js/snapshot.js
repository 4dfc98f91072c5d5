// The build's memory snapshot as web/tools/make_snapshot.mjs lays it out (sparse: the
// pages of zeros left out), read back into the memory a Pyodide restores. Used by
// js/worker.js and bench/bench_warm_start.mjs.

const MAGIC = "BBSNAP01";
const EVERY_MODULE_IMPORTED = 1;

/**
 * {memory, everyModule} of the inflated snapshot `bytes`: the memory with its pages of zeros
 * put back, and whether it holds every module of the package (then the wheel's files are not
 * needed). Throws on bytes of another layout or cut short.
 */
export function readSnapshot(bytes) {
  if (new TextDecoder("latin1").decode(bytes.subarray(0, MAGIC.length)) !== MAGIC) {
    throw new Error("not a memory snapshot of this build's layout");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const field = (i) => view.getUint32(MAGIC.length + 4 * i, true);
  const [flags, length, page, runs] = [0, 1, 2, 3].map(field);
  const memory = new Uint8Array(length);
  let offset = MAGIC.length + 4 * (4 + 2 * runs);
  for (let run = 0; run < runs; run++) {
    const start = field(4 + 2 * run) * page;
    const size = Math.min(field(5 + 2 * run) * page, length - start);
    memory.set(bytes.subarray(offset, offset + size), start);
    offset += size;
  }
  if (offset !== bytes.length) throw new Error("a damaged memory snapshot (its length does not match its runs)");
  return { memory, everyModule: Boolean(flags & EVERY_MODULE_IMPORTED) };
}
