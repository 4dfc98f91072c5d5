// Build-time helper (run by build.py under Node, never shipped): compiles
// Pyodide's python_stdlib.zip to sourceless .pyc with Pyodide's own Python,
// so the browser does not compile the stdlib modules on every cold start.
// Usage: node precompile_stdlib.mjs PYODIDE_DIR OUT_ZIP
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, outZip] = process.argv.slice(2);
if (!pyodideDir || !outZip) {
  console.error("usage: node precompile_stdlib.mjs PYODIDE_DIR OUT_ZIP");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
pyodide.FS.writeFile("/tmp/stdlib.zip", readFileSync(join(pyodideDir, "python_stdlib.zip")));
const count = pyodide.runPython(`
import importlib.util, marshal, zipfile

def precompile(src_path, dst_path):
    """Copy the zip, replacing each compilable .py by a sourceless .pyc."""
    compiled = 0
    with zipfile.ZipFile(src_path) as src, zipfile.ZipFile(dst_path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith(".py"):
                try:
                    code = compile(data, info.filename, "exec", dont_inherit=True, optimize=0)
                except SyntaxError:
                    dst.writestr(info, data)  # test fixtures with deliberate syntax errors
                    continue
                # PEP 552 header: magic, flags=0 (timestamp mode), mtime=0, size=0;
                # zipimport does not check the timestamp of a sourceless .pyc.
                header = importlib.util.MAGIC_NUMBER + bytes(12)
                dst.writestr(info.filename + "c", header + marshal.dumps(code))
                compiled += 1
            else:
                dst.writestr(info, data)
    return compiled

precompile("/tmp/stdlib.zip", "/tmp/stdlib_pyc.zip")
`);
writeFileSync(outZip, pyodide.FS.readFile("/tmp/stdlib_pyc.zip"));
console.log(`precompiled ${count} stdlib modules`);
