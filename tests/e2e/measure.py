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
  process's resident memory with 1 vs 2 workers;
- the warm start alone with ``--warm N`` (issue 31): the memory snapshot vs starting Python, and
  with ``--baseline DIR`` (repeatable) other builds' sites (e.g. dist/ before a change) in turn;
- "as a phone" (issue 12; alone with ``--phone``): with the phone pool (2
  workers), the page's analysis, full suggestion list (my view, public view)
  and entropy ranking on the phone benchmark states, beside the CLI's whole
  command for the same request, and the phone estimate = 4 x page time (a
  phone's cores run WebAssembly about 4x slower than this machine's; DevTools
  CPU throttling does not reach Web Workers, so it cannot stand in).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# tests/e2e first: its conftest (PHONE) is the one e2e_helpers imports; bench_analyze then puts
# tests/ in front, so e2e_helpers is imported before it.
sys.path[:0] = [str(Path(__file__).parent), str(ROOT), str(ROOT / "bench"), str(ROOT / "tests")]

import build  # noqa: E402
from e2e_helpers import wait_until  # noqa: E402
from bench_analyze import WIRES, states  # noqa: E402  (the lead's benchmark tables)
from bombbuster_core.bridge import handle  # noqa: E402
from gamegen import random_game  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
LOADS = 3
REPEAT = 3
PHONE_WORKERS = 2
PHONE_FACTOR = 4  # a phone runs WebAssembly ~4x slower per core (issue 12)
ENTROPY_CAP_S = 60.0  # an entropy ranking still running after this is reported as "> cap"
INSTALLERS = ("snapshot", "unpack", "micropip")  # the worker's ways of starting (web/js/worker.js)


def serve(directory: Path):
    server = build.make_server(directory, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://localhost:{server.server_address[1]}/"


def time_to_ready(page, url: str) -> dict:
    """Navigate and return ms from navigation start to bombbuster.ready, plus worker phases."""
    page.goto(url)
    page.wait_for_function("window.bombbuster !== undefined")
    ready_ms = page.evaluate("window.bombbuster.ready.then(() => performance.now())")
    # The pool's other workers start once the first is ready: let them, so that the next load
    # (maybe on another page, which would not stop them) does not share the cores with them.
    wait_until(page, "window.bombbuster.stats().then((s) => s.length === window.bombbuster.poolSize)")
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


def phone_states() -> dict[str, dict]:
    """The phone benchmark states: bench_analyze's 5-player starts and late game, and a
    public game 6 events in (drawn like bench_analyze's states)."""
    bench = states()
    six, _ = random_game(random.Random("1-5-6"), players=5, wires=WIRES, me=False, setup_tokens=True, turns=6,
                         move_weights={"success": 6, "failure": 2, "solo": 1, "reveal_red": 1})
    return {"5p observer start (setup tokens)": bench["5p observer, setup tokens"],
            "5p public start (setup tokens)": bench["5p public, setup tokens"],
            "5p public after 6 events": six,
            "5p observer late (35 turns)": bench["5p observer, late game (35 turns)"]}


def phone_requests(table: dict) -> list[tuple[str, str, dict, dict]]:
    """(request, bridge method, table, params) of one state: analysis and suggestion list in each
    view the table has (a table without 'me' has only the public view), the entropy ranking in its
    own view.  Suggestions are for the observer, or player 0 in a public game."""
    public = {k: v for k, v in table.items() if k != "me"}
    player = table["me"]["player"] if "me" in table else 0
    out = []
    if "me" in table:
        out += [("analysis, my view", "analyze", table, {}),
                ("suggestions, my view", "suggest", table, {"player": player})]
    out += [("analysis, public", "analyze", public, {}),
            ("suggestions, public", "suggest", public, {"player": player}),
            ("entropy ranking" + (", my view" if "me" in table else ", public"), "suggest", table,
             {"player": player, "mode": "entropy"})]
    return out


def cli_seconds(method: str, table: dict, params: dict, cap: float) -> float | None:
    """The CLI's whole command (interpreter start included) for one request; None past ``cap``.
    Entropy runs with --jobs 2, the phone pool's size."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(table, f)
    cmd = [sys.executable, "-m", "bombbuster_core", method, f.name]
    if method == "suggest":
        cmd += ["--player", str(params["player"]), "--top", "all"]  # the whole list, as the worker makes
        if params.get("mode") == "entropy":
            cmd += ["--mode", "entropy", "--jobs", str(PHONE_WORKERS)]
    try:
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, timeout=cap)
        return time.perf_counter() - t0
    except subprocess.TimeoutExpired:
        return None
    finally:
        os.unlink(f.name)


# Fresh: no kept result, and no plan or sweep kept in a worker from the run before.
PAGE_REQUEST = """async ([method, table, params, cap]) => {
    await window.bombbuster.stats({forget: true});
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), cap * 1000);
    const t0 = performance.now();
    try {
        await window.bombbuster[method](table, {...params, fresh: true, signal: abort.signal});
        return (performance.now() - t0) / 1000;
    } catch (error) {
        if (error.name === "CancelledError") return null;
        throw error;
    } finally {
        clearTimeout(timer);
    }
}"""


def measure_phone(browser, url: str, only: str = "", repeat: int = REPEAT) -> None:
    """The issue-12 table: page (2 workers) vs the CLI's whole command, and the phone estimate.
    ``only``: just the rows whose state and request contain it (then no engine table)."""
    context = browser.new_context()
    page = context.new_page()
    time_to_ready(page, f"{url}?nosw&workers={PHONE_WORKERS}")
    wait_until(page, f"window.bombbuster.stats().then(s => s.length === {PHONE_WORKERS})")
    load = os.getloadavg()[0]
    print(f"\nas a phone: {PHONE_WORKERS} workers; page s = best of {repeat} for analyses, one run for "
          f"suggestions; CPython s = the CLI's whole command (entropy with --jobs {PHONE_WORKERS}); "
          f"phone s = {PHONE_FACTOR} x page s; entropy capped at {ENTROPY_CAP_S:.0f} s; load average {load:.1f}")
    print(f"{'state':33} {'request':28} {'page s':>8} {'CPython s':>9} {'ratio':>6} {'phone s':>8}")
    for name, table in phone_states().items():
        for label, method, request_table, params in phone_requests(table):
            if only not in f"{name} {label}":
                continue
            entropy = params.get("mode") == "entropy"
            runs = repeat if method == "analyze" else 1
            cap = ENTROPY_CAP_S if entropy else 600.0
            js_method = "analyze" if method == "analyze" else "suggest"
            # Page and CLI runs alternate, so a drift of this shared machine's speed moves both.
            pages, cli = [], []
            for _ in range(runs):
                pages.append(page.evaluate(PAGE_REQUEST, [js_method, request_table, params, cap]))
                cli.append(cli_seconds(method, request_table, params, cap))
            page_s = None if None in pages else min(pages)
            cli_s = None if None in cli else min(cli)
            ratio = f"{page_s / cli_s:6.2f}" if page_s and cli_s else f"{'-':>6}"
            print(f"{name:33} {label:28} {_capped(page_s, cap):>8} {_capped(cli_s, cap):>9} {ratio} "
                  f"{_capped(None if page_s is None else PHONE_FACTOR * page_s, PHONE_FACTOR * cap):>8}")
    if not only:
        measure_engines(page)
    context.close()


ENGINE_REQUEST = """async ([table, engine]) => {
    await window.bombbuster.stats({forget: true});  // the signature cache stays: its second run shows it
    const t0 = performance.now();
    try {
        await window.bombbuster.analyze(table, {engine, fresh: true});
        return (performance.now() - t0) / 1000;
    } catch (error) {
        return error.message.split(" (")[0];
    }
}"""


def measure_engines(page) -> None:
    """Columns vs signatures in the page (2 workers) on bench_analyze's states: signatures'
    first run (its blocks fanned out to the pool) and a second (blocks cached in the worker)."""
    print("\nengines in the page (2 workers): columns s; signatures s first run (blocks made on the pool), "
          "second run (blocks in the worker's cache)")
    print(f"{'state':36} {'columns s':>9} {'sig. 1st':>9} {'sig. 2nd':>9}")
    for name, table in states().items():
        columns_s = page.evaluate(ENGINE_REQUEST, [table, "columns"])
        first, second = (page.evaluate(ENGINE_REQUEST, [table, "signatures"]) for _ in range(2))
        cells = [f"{x:9.3f}" if isinstance(x, float) else f"{'refused':>9}" for x in (columns_s, first, second)]
        print(f"{name:36} {' '.join(cells)}" + ("" if isinstance(first, float) else f"  ({first})"))
    stats = page.evaluate("window.bombbuster.stats()")
    print("signature cache per worker:", "; ".join(json.dumps(s.get("core", {}).get("signature_cache")) for s in stats))


def _capped(seconds: float | None, cap: float) -> str:
    return f"> {cap:.0f}" if seconds is None else f"{seconds:.2f}"


def measure_warm(page, url: str, loads: int, baselines: dict | None = None, installers=INSTALLERS) -> None:
    """Warm loads to ready (the service worker's cache) with each way of starting the engine,
    taking turns so that a drift of this shared machine's speed moves them alike; `baselines`:
    {name: (page, url)} of other builds' sites, whose default start takes its turn too."""
    ways = [(installer, page, f"{url}?installer={installer}") for installer in installers]
    ways[1:1] = [(f"baseline {name}", *where) for name, where in (baselines or {}).items()]
    warm: dict[str, list[dict]] = {name: [] for name, _, _ in ways}
    for _ in range(loads):
        for name, way_page, way_url in ways:
            warm[name].append(time_to_ready(way_page, way_url))
    for name, runs in warm.items():
        print(f"warm load to ready (service worker cache), {name}: {describe([w['ready_ms'] for w in runs])}")
        print(f"    worker phases (ms) of the last: {runs[-1]['startup']}")
    medians = {name: statistics.median(w["ready_ms"] for w in runs) for name, runs in warm.items()}
    for name in baselines or {}:
        print(f"{installers[0]} / baseline {name} (medians): {medians[installers[0]] / medians[f'baseline {name}']:.2f}")


def installed_page(browser, url: str):
    """A page that has visited `url` once and is controlled by its service worker (warm loads next)."""
    page = browser.new_context().new_page()
    time_to_ready(page, url)
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    return page


def warm_only(browser, url: str, loads: int, baseline_urls: dict, installers) -> None:
    """`--warm`: one visit (installs the service worker), then warm loads only."""
    page = installed_page(browser, url)
    baselines = {name: (installed_page(browser, where), where) for name, where in baseline_urls.items()}
    print(f"load average {os.getloadavg()[0]:.1f}; {loads} warm loads per way of starting, fresh navigations")
    measure_warm(page, url, loads, baselines, installers)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    for each in (page, *(where[0] for where in baselines.values())):
        each.context.close()


def measure_site(browser, url: str, plain_url: str) -> None:
    """Loads (cold, warm, installers, stdlib), analysis in a worker vs CPython, memory per worker."""
    measure_loads(browser, url, "memory snapshot + precompiled stdlib (default)", "?workers=1&installer=snapshot")
    measure_loads(browser, url, "unpackArchive + precompiled stdlib", "?workers=1&installer=unpack")
    measure_loads(browser, url, "micropip + precompiled stdlib", "?workers=1&installer=micropip")
    measure_loads(browser, plain_url, "unpackArchive + Pyodide's .py stdlib", "?workers=1&installer=unpack&nosw")

    page = installed_page(browser, url)
    context = page.context
    measure_warm(page, url, LOADS)

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
                    await window.bombbuster.analyze(table, {fresh: true});
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


def main() -> int:
    ap = argparse.ArgumentParser(description="web-app measurements (python build.py measure [--phone])")
    ap.add_argument("--phone", action="store_true", help="only the 'as a phone' table (issue 12)")
    ap.add_argument("--repeat", type=int, default=REPEAT, metavar="N", help=f"best of N for analyses (default {REPEAT})")
    ap.add_argument("--only", default="", metavar="TEXT",
                    help="with --phone: only the rows whose state and request contain TEXT, e.g. 'start (setup tokens) analysis, public'")
    ap.add_argument("--warm", type=int, default=0, metavar="N",
                    help="only the warm start: N warm loads to ready per way of starting the engine")
    ap.add_argument("--baseline", type=Path, metavar="DIR", action="append", default=[],
                    help="with --warm: another build's site (e.g. a copy of dist/ before a change) timed in turn; repeatable")
    ap.add_argument("--installers", default=",".join(INSTALLERS), metavar="LIST",
                    help=f"with --warm: the ways of starting to time (default {','.join(INSTALLERS)})")
    args = ap.parse_args()
    dist = Path(os.environ.get("BOMBBUSTER_DIST") or build.DIST)
    chromium = os.environ.get("BOMBBUSTER_CHROMIUM", build.find_chromium() or "")
    server, url = serve(dist)
    # The same site with Pyodide's shipped (not precompiled) stdlib, on another origin.
    plain_dir = Path(tempfile.mkdtemp(prefix="bombbuster-plain-"))
    shutil.copytree(dist, plain_dir, dirs_exist_ok=True)
    shutil.copy2(build.fetch_pyodide() / "python_stdlib.zip", plain_dir / "pyodide" / "python_stdlib.zip")
    plain_server, plain_url = serve(plain_dir)
    baselines = {str(directory): serve(directory) for directory in args.baseline}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium or None, args=CHROMIUM_FLAGS)
            print(f"Chromium {browser.version}, {os.cpu_count()} cores; Pyodide {build.PYODIDE_VERSION}")
            if args.warm:
                warm_only(browser, url, args.warm, {name: where for name, (_, where) in baselines.items()},
                          tuple(args.installers.split(",")))
            else:
                if not args.phone:
                    measure_site(browser, url, plain_url)
                measure_phone(browser, url, args.only, args.repeat)
            browser.close()
    finally:
        server.shutdown()
        plain_server.shutdown()
        for baseline_server, _ in baselines.values():
            baseline_server.shutdown()
        shutil.rmtree(plain_dir, ignore_errors=True)
    return 0


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


if __name__ == "__main__":
    sys.exit(main())
