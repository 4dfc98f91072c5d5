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

const siteRoot = new URL("../", self.location).href;
// How the wheel is installed: "unpack" (default: pyodide.unpackArchive of the
// wheel, 0.4–1.4 s faster per cold start, see web/README-web.md) or
// "micropip" (the project's original design; vendored and tested). It comes in
// the worker's name: a query string would be lost when the service worker
// answers with the cached worker.js.
const installer = self.name === "micropip" ? "micropip" : "unpack";

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
  const pyodideBase = siteRoot + "pyodide/";
  const pyodide = await loadPyodide({
    indexURL: pyodideBase,
    packageBaseUrl: pyodideBase, // also replaces the CDN fallback: nothing leaves this site
    lockFileURL: pyodideBase + "pyodide-lock.json",
  });
  lap("runtime");
  progress("install", "Installing the deduction engine");
  if (installer === "unpack") {
    const wheel = await (await fetch(siteRoot + info.wheel)).arrayBuffer();
    pyodide.unpackArchive(wheel, "wheel");
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
