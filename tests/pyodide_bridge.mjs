// Test helper (never shipped): answers bridge requests with the core running in
// Pyodide under Node, as the page's workers do.  Usage:
//   node pyodide_bridge.mjs PYODIDE_DIR WHEEL REQUESTS.json REPLIES.json
// REQUESTS.json is a list of request strings; REPLIES.json gets the list of replies.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheel, requestsFile, repliesFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
pyodide.FS.writeFile("/tmp/core.whl", readFileSync(wheel));
pyodide.runPython(`
import site, zipfile
zipfile.ZipFile("/tmp/core.whl").extractall(site.getsitepackages()[0])
`);
const handle = pyodide.runPython("from bombbuster_core.bridge import handle; handle");
const requests = JSON.parse(readFileSync(requestsFile, "utf8"));
writeFileSync(repliesFile, JSON.stringify(requests.map((r) => handle(r))));
