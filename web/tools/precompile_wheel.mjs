// Build-time helper (run by build.py under Node, never shipped): adds .pyc files
// compiled by Pyodide's own Python to the bombbuster_core wheel, so a cold worker
// does not compile the package on every start (the stdlib gets the same treatment,
// see precompile_stdlib.mjs). The .py files stay for tracebacks; the .pyc are
// "unchecked hash" (PEP 552), so the import system never compares them with the
// sources' timestamps, which unpacking does not keep. RECORD lists them with hashes.
// Usage: node precompile_wheel.mjs PYODIDE_DIR IN_WHEEL OUT_WHEEL
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, inWheel, outWheel] = process.argv.slice(2);
if (!pyodideDir || !inWheel || !outWheel) {
  console.error("usage: node precompile_wheel.mjs PYODIDE_DIR IN_WHEEL OUT_WHEEL");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/" });
pyodide.FS.writeFile("/tmp/in.whl", readFileSync(inWheel));
const count = pyodide.runPython(`
import base64, hashlib, importlib.util, py_compile, zipfile

def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

def precompile(src_path, dst_path):
    """Copy the wheel, adding an unchecked-hash .pyc beside every .py and to RECORD."""
    compiled = []
    with zipfile.ZipFile(src_path) as src:
        infos = src.infolist()
        files = {info.filename: src.read(info) for info in infos}
    for name, data in list(files.items()):
        if name.endswith(".py"):
            with open("/tmp/module.py", "wb") as f:
                f.write(data)
            pyc = importlib.util.cache_from_source(name)
            py_compile.compile("/tmp/module.py", cfile="/tmp/module.pyc", dfile=name, doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            with open("/tmp/module.pyc", "rb") as f:
                compiled.append((pyc, f.read()))
    record = next(name for name in files if name.endswith(".dist-info/RECORD"))
    lines = files[record].decode().splitlines() + [record_line(name, data) for name, data in compiled]
    with zipfile.ZipFile(dst_path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in infos:
            if info.filename != record:
                dst.writestr(info, files[info.filename])
        for name, data in compiled:
            dst.writestr(name, data)
        dst.writestr(record, "\\n".join(lines) + "\\n")
    return len(compiled)

precompile("/tmp/in.whl", "/tmp/out.whl")
`);
writeFileSync(outWheel, pyodide.FS.readFile("/tmp/out.whl"));
console.log(`precompiled ${count} bombbuster_core modules for Pyodide`);
