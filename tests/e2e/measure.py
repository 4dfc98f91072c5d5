"""Web-app measurements (not a test; run by `python build.py measure`).

Prints, for the built site in headless Chromium on this machine:
- cold load to ready (fresh profile: no HTTP cache, no service worker) and warm
  load (reload: service worker cache + compiled-wasm cache), with the worker's
  own start-up phases;
- micropip vs pyodide.unpackArchive for installing the wheel, and the
  precompiled vs the shipped python_stdlib.zip (same page, cold loads);
- analysis time in the worker (page round trip) vs CPython (bridge.handle in
  process) on the benchmark states of bench/bench_analyze.py;
- memory per worker: the worker's wasm linear memory, and the renderer
  process's resident memory with 1 vs 2 workers.
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "tests"), str(Path(__file__).parent)]

import build  # noqa: E402
from bench_analyze import states  # noqa: E402  (the lead's benchmark tables)
from bombbuster_core.bridge import handle  # noqa: E402
from e2e_helpers import wait_until  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
LOADS = 3
REPEAT = 3


def serve(directory: Path):
    server = build.make_server(directory, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://localhost:{server.server_address[1]}/"


def time_to_ready(page, url: str) -> dict:
    """Navigate and return ms from navigation start to bombbuster.ready, plus worker phases."""
    page.goto(url)
    page.wait_for_function("window.bombbuster !== undefined")
    ready_ms = page.evaluate("window.bombbuster.ready.then(() => performance.now())")
    stats = page.evaluate("window.bombbuster.stats()")
    return {"ready_ms": ready_ms, "startup": stats[0]["startup"] if stats else None}


def renderer_rss_mb() -> float:
    """Resident memory of Chromium renderer processes (workers live in the page's renderer)."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if "--type=renderer" not in cmdline or "chrom" not in cmdline:
                continue
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def describe(samples: list[float]) -> str:
    return f"median {statistics.median(samples) / 1000:.2f} s (runs: {', '.join(f'{s / 1000:.2f}' for s in samples)})"


def measure_loads(browser, url: str, label: str, query: str = "") -> None:
    cold = []
    for _ in range(LOADS):
        context = browser.new_context()
        cold.append(time_to_ready(context.new_page(), url + query))
        context.close()
    print(f"{label} cold load to ready: {describe([c['ready_ms'] for c in cold])}")
    print(f"    worker phases (ms) of the last: {cold[-1]['startup']}")


def main() -> int:
    dist = Path(os.environ.get("BOMBBUSTER_DIST") or build.DIST)
    chromium = os.environ.get("BOMBBUSTER_CHROMIUM", build.find_chromium() or "")
    server, url = serve(dist)
    # The same site with Pyodide's shipped (not precompiled) stdlib, on another origin.
    plain_dir = Path(tempfile.mkdtemp(prefix="bombbuster-plain-"))
    shutil.copytree(dist, plain_dir, dirs_exist_ok=True)
    shutil.copy2(build.fetch_pyodide() / "python_stdlib.zip", plain_dir / "pyodide" / "python_stdlib.zip")
    plain_server, plain_url = serve(plain_dir)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium or None, args=CHROMIUM_FLAGS)
        print(f"Chromium {browser.version}, {os.cpu_count()} cores; Pyodide {build.PYODIDE_VERSION}")

        measure_loads(browser, url, "unpackArchive + precompiled stdlib (default)", "?workers=1&installer=unpack")
        measure_loads(browser, url, "micropip + precompiled stdlib", "?workers=1&installer=micropip")
        measure_loads(browser, plain_url, "unpackArchive + Pyodide's .py stdlib", "?workers=1&installer=unpack&nosw")

        context = browser.new_context()
        page = context.new_page()
        time_to_ready(page, url)
        page.evaluate("navigator.serviceWorker.ready")
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        for installer in ("unpack", "micropip"):
            warm = [time_to_ready(page, f"{url}?installer={installer}") for _ in range(LOADS)]
            print(f"warm load to ready (service worker cache), {installer}: {describe([w['ready_ms'] for w in warm])}")
            print(f"    worker phases (ms) of the last: {warm[-1]['startup']}")

        print(f"\nanalysis, best of {REPEAT}: worker (page round trip) vs CPython {sys.version.split()[0]} "
              "(bridge.handle in process)")
        print(f"{'state':36} {'CPython s':>10} {'worker s':>10} {'ratio':>6}")
        for name, table in states().items():
            message = json.dumps({"id": 1, "method": "analyze", "params": {"table": table}})
            cpython = min(_timed(lambda: handle(message)) for _ in range(REPEAT))
            worker_ms = page.evaluate(
                """async ([table, repeat]) => {
                    let best = Infinity;
                    for (let i = 0; i < repeat; i++) {
                        const t0 = performance.now();
                        await window.bombbuster.analyze(table);
                        best = Math.min(best, performance.now() - t0);
                    }
                    return best;
                }""", [table, REPEAT])
            print(f"{name:36} {cpython:10.3f} {worker_ms / 1000:10.3f} {worker_ms / 1000 / cpython:6.2f}")
        context.close()

        print("\nmemory")
        for workers in (1, 2):
            context = browser.new_context()
            page = context.new_page()
            time_to_ready(page, f"{url}?nosw&workers={workers}")
            wait_until(page, f"window.bombbuster.stats().then(s => s.length === {workers})")
            page.evaluate("table => window.bombbuster.analyze(table)", states()["5p public, setup tokens"])
            time.sleep(1)
            stats = page.evaluate("window.bombbuster.stats()")
            heaps = ", ".join(f"{s['wasmBytes'] / 2**20:.0f} MiB" for s in stats)
            print(f"{workers} worker(s): wasm memory per worker {heaps}; renderer RSS {renderer_rss_mb():.0f} MiB")
            context.close()
        browser.close()
    server.shutdown()
    plain_server.shutdown()
    shutil.rmtree(plain_dir, ignore_errors=True)
    return 0


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


if __name__ == "__main__":
    sys.exit(main())
