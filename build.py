#!/usr/bin/env python3
"""The one build entry point for the bombbuster web app (stdlib only).

    python build.py           build the static site into dist/
    python build.py serve     build, then serve dist/ on localhost (prints the URL);
                              --lan (or --host 0.0.0.0): to the phones on the local
                              network (prints the address they open, with a QR code)
    python build.py test      install what the tests need (venv, Chromium), build,
                              and run the whole pytest suite; exit code = pytest's
                              (1 without pytest when no Chromium can be had: see
                              e2e_skip_allowed)
    python build.py test --fast   the edit-test loop's tier (BOMBBUSTER_FAST=1, under
                              5 minutes): a few seeds of each seed range, every engine
                              still against the oracle, no slow self-play or browser-heavy
                              tests (tests/conftest.py); CI runs the whole suite
    python build.py measure   build, then time cold/warm loads and worker analysis
                              in headless Chromium against CPython (needs `test` setup;
                              --phone: only the issue-12 "as a phone" table)

The site is self-contained: web/ sources, Pyodide's core files from the npm
package `pyodide` (fetched with `npm pack`), the micropip wheel (fetched with
`pip download`) and the bombbuster_core wheel built from this repo. Downloads
are cached under .cache/ so re-runs are fast and work offline.
"""

from __future__ import annotations

import argparse
import hashlib
import http.server
import ipaddress
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"

PYODIDE_VERSION = "314.0.7"  # Python 3.14.2
MICROPIP_VERSION = "0.11.1"  # the version Pyodide 314.0.7's lock names
PYODIDE_PYTHON = "3.14"
PYODIDE_CORE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# web/ paths that are not part of the site: build-time helpers and docs.
WEB_EXCLUDED = ("tools", "README-web.md")
TEST_REQUIREMENTS = ("pytest>=8", "pytest-xdist>=3", "hypothesis>=6", "playwright>=1.40", "distributed>=2024.1")
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
APT_LOCK_WAIT = 600  # seconds apt-get waits for another package manager's lock
LOCALHOST = "127.0.0.1"
ALL_INTERFACES = "0.0.0.0"
# Any address past the local network: connecting a UDP socket to it names the route out (nothing
# is sent). TEST-NET-3 (RFC 5737), an address no host has.
ROUTE_PROBE = ("203.0.113.1", 9)
SKIP_E2E = "BOMBBUSTER_SKIP_E2E"  # =1: a developer without a browser skips the e2e tests (never under CI)


class BuildError(Exception):
    """A build step failed; the message says which and why."""


def log(message: str) -> None:
    print(f"[build] {message}", flush=True)


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, check=True, **kwargs)
    except FileNotFoundError as exc:
        raise BuildError(f"command not found: {cmd[0]} (needed for: {' '.join(cmd)})") from exc
    except subprocess.CalledProcessError as exc:
        raise BuildError(f"command failed with exit code {exc.returncode}: {' '.join(cmd)}") from exc


# ---------------------------------------------------------------- downloads


def fetch_pyodide() -> Path:
    """Pyodide's core files from the npm package, cached per version."""
    target = CACHE / f"pyodide-{PYODIDE_VERSION}"
    if all((target / name).exists() for name in PYODIDE_CORE_FILES):
        return target
    log(f"fetching pyodide@{PYODIDE_VERSION} with npm pack")
    with tempfile.TemporaryDirectory() as tmp:
        run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
            stdout=subprocess.DEVNULL)
        tarballs = list(Path(tmp).glob("pyodide-*.tgz"))
        if len(tarballs) != 1:
            raise BuildError(f"npm pack produced {len(tarballs)} tarballs, expected 1")
        staging = Path(tmp) / "core"
        staging.mkdir()
        with tarfile.open(tarballs[0]) as tar:
            for name in PYODIDE_CORE_FILES:
                member = tar.getmember(f"package/{name}")
                with tar.extractfile(member) as src:
                    (staging / name).write_bytes(src.read())
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(target, ignore_errors=True)
        shutil.move(str(staging), target)
    return target


# Third-party files the e2e tests inject into the page (never shipped in dist/):
# axe-core (accessibility checks) and jsQR (an independent QR decoder that reads
# the page's own share codes). name → (npm version, file inside the package).
TEST_TOOLS = {
    "axe-core": ("4.10.3", "axe.min.js"),
    "jsqr": ("1.4.0", "dist/jsQR.js"),
}


def fetch_test_tool(name: str) -> Path:
    """One file of an npm package for the e2e tests (`npm pack`, cached in .cache/test-tools/)."""
    version, member = TEST_TOOLS[name]
    target = CACHE / "test-tools" / f"{name}-{version}-{Path(member).name}"
    if target.exists():
        return target
    log(f"fetching {name}@{version} with npm pack (e2e test tool)")
    with tempfile.TemporaryDirectory() as tmp:
        run(["npm", "pack", f"{name}@{version}", "--pack-destination", tmp, "--silent"], stdout=subprocess.DEVNULL)
        tarballs = list(Path(tmp).glob("*.tgz"))
        if len(tarballs) != 1:
            raise BuildError(f"npm pack produced {len(tarballs)} tarballs, expected 1")
        with tarfile.open(tarballs[0]) as tar, tar.extractfile(tar.getmember(f"package/{member}")) as src:
            data = src.read()
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    partial.write_bytes(data)
    partial.replace(target)
    return target


def fetch_micropip() -> Path:
    """The pure-Python micropip wheel, downloaded for Pyodide's Python version."""
    target = CACHE / "micropip"
    wheel_name = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
    if (target / wheel_name).exists():
        return target / wheel_name
    log(f"fetching micropip=={MICROPIP_VERSION} with pip download")
    target.mkdir(parents=True, exist_ok=True)
    run([sys.executable, "-m", "pip", "download", f"micropip=={MICROPIP_VERSION}", "--no-deps",
         "--only-binary=:all:", "--python-version", PYODIDE_PYTHON, "-d", str(target), "--quiet"])
    if not (target / wheel_name).exists():
        raise BuildError(f"pip download did not produce {wheel_name}")
    return target / wheel_name


def precompiled_stdlib(pyodide_dir: Path) -> Path:
    """python_stdlib.zip with .pyc instead of .py, made once per version under Node.

    Without Node the shipped zip is used: the app works, it just starts slower."""
    script = WEB / "tools" / "precompile_stdlib.mjs"
    key = hashlib.sha256(script.read_bytes()).hexdigest()[:12]
    target = CACHE / f"python_stdlib-{PYODIDE_VERSION}-pyc-{key}.zip"
    if target.exists():
        return target
    if not shutil.which("node"):
        log("warning: node not found, shipping the stdlib uncompiled (cold starts ~2.5x slower)")
        return pyodide_dir / "python_stdlib.zip"
    log("precompiling the Python stdlib with Pyodide under Node")
    partial_file = target.with_suffix(".partial")
    run(["node", str(script), str(pyodide_dir), str(partial_file)])
    partial_file.replace(target)
    return target


def build_core_wheel(out_dir: Path) -> Path:
    """The bombbuster_core wheel, built from pyproject.toml."""
    log("building the bombbuster_core wheel")
    with tempfile.TemporaryDirectory() as tmp:
        run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-w", tmp, "--quiet"])
        wheels = list(Path(tmp).glob("bombbuster_core-*.whl"))
        if len(wheels) != 1:
            raise BuildError(f"pip wheel produced {len(wheels)} bombbuster_core wheels, expected 1")
        out_dir.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copy2(wheels[0], out_dir))


def add_pyodide_bytecode(pyodide_dir: Path, wheel: Path) -> None:
    """Add .pyc compiled by Pyodide's Python to the wheel, in place (cached by content).

    A cold worker then imports the package without compiling it: 0.19 s ->
    0.075 s under Node here. Without Node the wheel ships as built."""
    script = WEB / "tools" / "precompile_wheel.mjs"
    # Keyed by what goes into the wheel: its zip bytes differ between builds (timestamps).
    sources = [script, ROOT / "pyproject.toml", *sorted((ROOT / "bombbuster_core").rglob("*.py"))]
    key = hashlib.sha256(b"".join(path.read_bytes() for path in sources)).hexdigest()[:12]
    cached = CACHE / f"{wheel.stem}-pyodide-{PYODIDE_VERSION}-{key}.whl"
    if not cached.exists():
        for stale in CACHE.glob(f"{wheel.stem}-pyodide-*.whl"):
            stale.unlink()
        if not shutil.which("node"):
            log("warning: node not found, shipping the wheel without bytecode (cold starts compile it)")
            return
        log("adding Pyodide bytecode to the bombbuster_core wheel under Node")
        partial_file = cached.with_suffix(".partial")
        run(["node", str(script), str(pyodide_dir), str(wheel), str(partial_file)])
        partial_file.replace(cached)
    shutil.copy2(cached, wheel)


def memory_snapshot(vendor: Path, wheel: Path) -> Path | None:
    """A gzip'd memory snapshot of Pyodide with bombbuster_core.bridge imported, made under Node
    from the very files that ship (web/tools/make_snapshot.mjs) and cached by their content.

    A worker that restores it skips Python's start and the imports (figures:
    docs/results/warm-start.md). Without Node: None, and workers start Python themselves."""
    script = WEB / "tools" / "make_snapshot.mjs"
    inputs = [script, *(vendor / name for name in ("pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")), wheel]
    digest = hashlib.sha256()
    for path in inputs:
        digest.update(path.read_bytes())
    cached = CACHE / f"snapshot-{PYODIDE_VERSION}-{digest.hexdigest()[:12]}.bin.gz"
    if not cached.exists():
        for stale in CACHE.glob("snapshot-*.bin.gz"):
            stale.unlink()
        if not shutil.which("node"):
            log("warning: node not found, shipping no memory snapshot (every worker starts Python itself)")
            return None
        log("making the Pyodide memory snapshot under Node")
        partial_file = cached.with_suffix(".partial")
        run(["node", str(script), str(vendor), str(wheel), str(partial_file)])
        partial_file.replace(cached)
    return cached


# ---------------------------------------------------------------- assembly


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_local_lock(source_lock: Path, micropip_wheel: Path, out: Path) -> None:
    """Pyodide's lock, cut down to micropip and pointed at the vendored wheel.

    Every other entry would resolve to files we do not ship, so dropping them
    guarantees nothing can be fetched from anywhere but this site."""
    lock = json.loads(source_lock.read_text())
    entry = dict(lock["packages"]["micropip"])
    entry.update(
        file_name=micropip_wheel.name,
        sha256=sha256_file(micropip_wheel),
        version=MICROPIP_VERSION,
        depends=[],
    )
    lock["packages"] = {"micropip": entry}
    out.write_text(json.dumps(lock, indent=1))


def copy_web_sources(dest: Path) -> None:
    for path in sorted(WEB.rglob("*")):
        relative = path.relative_to(WEB)
        if relative.parts[0] in WEB_EXCLUDED or path.is_dir():
            continue
        target = dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)


def site_files(dist: Path) -> list[str]:
    """Every file of the site, as URL paths relative to the site root."""
    return sorted(p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file())


def write_service_worker(dist: Path, build_info: dict) -> None:
    """Fill sw.js's placeholders with the cache version and the file list."""
    files = [f for f in site_files(dist) if f != "sw.js"]
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode())
        digest.update(sha256_file(dist / name).encode())
    version = digest.hexdigest()[:16]
    build_info["version"] = version
    (dist / "build-info.json").write_text(json.dumps(build_info, indent=1))
    template = (dist / "sw.js").read_text()
    for placeholder in ("__CACHE_VERSION__", "__PRECACHE_FILES__"):
        if placeholder not in template:
            raise BuildError(f"web/sw.js lacks the placeholder {placeholder}")
    precache = sorted(["./", "build-info.json", *files])
    sw = template.replace('"__CACHE_VERSION__"', json.dumps(version))
    sw = sw.replace('["__PRECACHE_FILES__"]', json.dumps(precache, indent=1))
    (dist / "sw.js").write_text(sw)


def build_site(dist: Path = DIST) -> dict:
    pyodide_dir = fetch_pyodide()
    micropip_wheel = fetch_micropip()
    stdlib = precompiled_stdlib(pyodide_dir)
    staging = dist.with_name(dist.name + ".staging")
    shutil.rmtree(staging, ignore_errors=True)
    copy_web_sources(staging)
    vendor = staging / "pyodide"
    vendor.mkdir()
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"):
        shutil.copy2(pyodide_dir / name, vendor / name)
    shutil.copy2(stdlib, vendor / "python_stdlib.zip")
    shutil.copy2(micropip_wheel, vendor / micropip_wheel.name)
    write_local_lock(pyodide_dir / "pyodide-lock.json", micropip_wheel, vendor / "pyodide-lock.json")
    core_wheel = build_core_wheel(staging / "wheels")
    add_pyodide_bytecode(pyodide_dir, core_wheel)
    # The version is filled in by write_service_worker (the file hashes) and
    # build-info.json is excluded from that hash, so it is written there.
    build_info = {"pyodide": PYODIDE_VERSION, "micropip": MICROPIP_VERSION,
                  "wheel": f"wheels/{core_wheel.name}"}
    snapshot = memory_snapshot(vendor, core_wheel)
    if snapshot is not None:
        shutil.copy2(snapshot, vendor / "snapshot.bin.gz")
        build_info["snapshot"] = "pyodide/snapshot.bin.gz"
    write_service_worker(staging, build_info)
    shutil.rmtree(dist, ignore_errors=True)
    staging.rename(dist)
    size = sum((dist / f).stat().st_size for f in site_files(dist))
    shown = dist.relative_to(ROOT) if dist.is_relative_to(ROOT) else dist  # e.g. a helper's /tmp copy
    log(f"site built in {shown}/ ({len(site_files(dist))} files, "
        f"{size / 1e6:.1f} MB, version {build_info['version']})")
    return build_info


# ---------------------------------------------------------------- serving


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide and PWAs need; no HTTP caching,
    so the service worker (not the browser cache) decides what is fresh."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".webmanifest": "application/manifest+json",
        ".svg": "image/svg+xml",
        ".whl": "application/octet-stream",
        ".zip": "application/zip",
    }

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):  # noqa: A002 - signature from the base class
        if os.environ.get("BOMBBUSTER_SERVER_LOG"):
            super().log_message(format, *args)


class SiteHTTPServer(http.server.ThreadingHTTPServer):
    """A client that goes away mid-download (a phone leaving the page while
    Pyodide's 10 MB load) is routine: no traceback for it, others as usual."""

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(directory: Path = DIST, port: int = 0, host: str = LOCALHOST) -> SiteHTTPServer:
    """A server for `directory` on `host` (localhost unless asked); port 0 picks a free one."""
    handler = partial(SiteHandler, directory=str(directory))
    return SiteHTTPServer((host, port), handler)


def site_url(server: SiteHTTPServer) -> str:
    """The address bound, not "localhost": a browser may resolve that to ::1, where another
    server on the same port would answer instead. Bound to every interface: this machine's
    loopback address, which that includes."""
    host, port = server.server_address[:2]
    return f"http://{LOCALHOST if host == ALL_INTERFACES else host}:{port}/"


def lan_address() -> str | None:
    """This machine's address on the local network, or None when it has none.

    Connecting a UDP socket sends nothing: it only asks the kernel which interface
    (and so which source address) the route out uses."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(ROUTE_PROBE)
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == ALL_INTERFACES else address


def phone_url(server: SiteHTTPServer) -> str | None:
    """The address another device on the network opens; None when bound to loopback only."""
    host, port = server.server_address[:2]
    if host == ALL_INTERFACES:
        host = lan_address()
    if host is None or ipaddress.ip_address(host).is_loopback:
        return None
    return f"http://{host}:{port}/"


def terminal_qr(text: str) -> str | None:
    """`text` as a QR code in half-block characters, drawn by the page's own encoder
    (web/js/qr.js) under Node; None without Node."""
    if not shutil.which("node"):
        return None
    return run(["node", str(WEB / "tools" / "terminal_qr.mjs"), text], capture_output=True, text=True).stdout


def serve(port: int, host: str = LOCALHOST, directory: Path = DIST) -> None:
    try:
        server = make_server(directory, port, host)
    except OSError as exc:
        raise BuildError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from exc
    try:
        print(f"Serving bombbuster at {site_url(server)}  (Ctrl+C stops; --port N for another port)", flush=True)
        if not ipaddress.ip_address(server.server_address[0]).is_loopback:
            announce_to_phones(server)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def announce_to_phones(server: SiteHTTPServer) -> None:
    """Where the table's phones open the page (with its QR code), and what plain http cannot do."""
    url = phone_url(server)
    if url is None:
        print("No local network address found: phones cannot reach this machine "
              "(connect it to the table's Wi-Fi and start again).", flush=True)
        return
    try:
        qr = terminal_qr(url)
    except BuildError as exc:
        qr = None
        log(f"warning: {exc}")
    scan = (f"  or scan:\n{qr}" if qr else
            "\nNo QR code printed: it is drawn by the page's own encoder (web/js/qr.js) under Node, "
            "which is not installed here. Type the address on the phones.\n")
    print(f"On the table's phones (same Wi-Fi), open {url}{scan}"
          "Over plain http the phones run the page while this machine serves it, but cannot keep it "
          "offline or install it (browsers allow that only on https or localhost): for that, put dist/ "
          "on an https host.", flush=True)


# ---------------------------------------------------------------- test setup


def venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_venv() -> Path:
    """A venv with the test requirements; re-installs only when they change."""
    stamp = VENV / ".bombbuster-requirements"
    wanted = "\n".join(TEST_REQUIREMENTS)
    if not venv_python().exists():
        log(f"creating {VENV.relative_to(ROOT)}/")
        run([sys.executable, "-m", "venv", str(VENV)])
    if not stamp.exists() or stamp.read_text() != wanted:
        log("installing test requirements into the venv: " + ", ".join(TEST_REQUIREMENTS))
        run([str(venv_python()), "-m", "pip", "install", "--quiet", *TEST_REQUIREMENTS])
        stamp.write_text(wanted)
    return venv_python()


def find_chromium() -> str | None:
    override = os.environ.get("BOMBBUSTER_CHROMIUM")
    if override:
        return override if Path(override).exists() else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def wait_for_apt_lists(seconds: int) -> None:
    """Until no other process holds the package lists' lock, or ``seconds``: ``apt-get update``
    fails at once on it (DPkg::Lock::Timeout covers dpkg's lock, not this one; apt 2.6)."""
    import fcntl
    import time

    try:
        fd = os.open("/var/lib/apt/lists/lock", os.O_RDWR)
    except OSError:
        return  # no lock file: nothing holds it
    try:
        for attempt in range(seconds + 1):
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return  # free (closing the file releases it)
            except OSError:
                if attempt == 0:
                    log(f"waiting (up to {seconds} s) for another process to release apt's package lists")
                time.sleep(1)
        # still held: apt-get says by whom
    finally:
        os.close(fd)


def ensure_chromium(python: Path) -> str | None:
    """The system Chromium, apt-installed when missing (as root), else Playwright's."""
    found = find_chromium()
    if found:
        return found
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        log("installing Chromium with apt-get")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        # Wait for another apt or dpkg (an unattended upgrade, another helper's install) to finish.
        wait = ["-o", f"DPkg::Lock::Timeout={APT_LOCK_WAIT}"]
        try:
            wait_for_apt_lists(APT_LOCK_WAIT)
            run(["apt-get", *wait, "update", "-qq"], env=env, stdin=subprocess.DEVNULL)
            run(["apt-get", *wait, "install", "-y", "-qq", "chromium"], env=env, stdin=subprocess.DEVNULL)
        except BuildError as exc:
            log(f"apt-get could not install Chromium: {exc}")
        found = find_chromium()
        if found:
            return found
    log("trying Playwright's own Chromium download")
    try:
        run([str(python), "-m", "playwright", "install", "chromium"], stdin=subprocess.DEVNULL)
    except BuildError as exc:
        log(f"Playwright could not install Chromium: {exc}")
        return None
    return ""  # Playwright's bundled browser: no executable path needed


def under_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false")


def e2e_skip_allowed() -> bool:
    """Whether a missing browser (or Playwright, or Node) may skip the tests that need it.

    Only when a developer without one asks for it (BOMBBUSTER_SKIP_E2E=1), and never
    under CI: a skip there would pass a run that never loaded the page."""
    return os.environ.get(SKIP_E2E) == "1" and not under_ci()


def run_tests(pytest_args: list[str], fast: bool = False) -> int:
    python = ensure_venv()
    chromium = ensure_chromium(python)
    if chromium is None and not e2e_skip_allowed():
        log(f"error: no Chromium available, so the end-to-end tests cannot run; the suite is not run "
            f"({SKIP_E2E}=1 skips them on a machine without a browser, never under CI)")
        return 1
    build_site()
    for tool in TEST_TOOLS:
        fetch_test_tool(tool)
    env = {**os.environ, "BOMBBUSTER_DIST": str(DIST)}
    if fast:
        env["BOMBBUSTER_FAST"] = "1"
        log("the fast tier: a sample of seeds, no slow tests (CI runs them all)")
        if not any(arg == "-n" or arg.startswith(("-n", "--numprocesses")) for arg in pytest_args):
            # One worker per core, each test handed to the next free one: the tier's tests are short
            # and independent (the full suite stays in one process: its file-order fixtures).
            pytest_args = ["-n", "auto", "--dist", "worksteal", *pytest_args]
    if chromium is None:
        log(f"WARNING: no Chromium available and {SKIP_E2E}=1: the end-to-end tests will be SKIPPED")
        env["BOMBBUSTER_CHROMIUM"] = ""
    else:
        env["BOMBBUSTER_CHROMIUM"] = chromium
        log(f"Chromium: {chromium or 'Playwright bundled'}")
    cmd = [str(python), "-m", "pytest", "tests", *pytest_args]
    log("running: " + " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT, env=env, stdin=subprocess.DEVNULL).returncode


def run_measurements(extra: list[str]) -> int:
    python = ensure_venv()
    chromium = ensure_chromium(python)
    build_site()
    env = {**os.environ, "BOMBBUSTER_DIST": str(DIST), "BOMBBUSTER_CHROMIUM": chromium or ""}
    return subprocess.run([str(python), str(ROOT / "tests" / "e2e" / "measure.py"), *extra],
                          cwd=ROOT, env=env).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", default="build",
                        choices=("build", "serve", "test", "measure"))
    parser.add_argument("--port", type=int, default=8000, help="port for `serve` (default 8000; 0: a free one)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--host", default=LOCALHOST,
                       help=f"address `serve` binds (default {LOCALHOST}, this machine only; "
                            f"{ALL_INTERFACES}: the local network too)")
    where.add_argument("--lan", action="store_const", const=ALL_INTERFACES, dest="host",
                       help=f"`serve` to the table's phones on the local network (= --host {ALL_INTERFACES}): "
                            "prints the address they open, with its QR code")
    parser.add_argument("--no-build", action="store_true", help="`serve` dist/ as last built")
    parser.add_argument("--fast", action="store_true",
                        help="`test`: the fast tier (a few seeds of each range, no slow tests)")
    args, extra = parser.parse_known_args(argv)
    if extra and args.command not in ("test", "measure"):
        parser.error(f"unrecognised arguments: {' '.join(extra)}")
    if args.fast and args.command != "test":
        parser.error("--fast is for `test`")
    os.chdir(ROOT)
    try:
        if args.command == "test":
            return run_tests(extra, args.fast)
        if args.command == "measure":
            return run_measurements(extra)
        if not (args.command == "serve" and args.no_build):
            build_site()
        if args.command == "serve":
            serve(args.port, args.host, DIST)
        return 0
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # e.g. the port is taken, the disk is full
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
