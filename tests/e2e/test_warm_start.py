"""The engine's start from the build's memory snapshot (issue 31, item 3): a worker restores a
Pyodide that had already imported bombbuster_core (web/tools/make_snapshot.mjs) instead of
starting Python. Its answers are the CLI's and the ordinary start's, modules first imported
after the restore load, and a snapshot that cannot be restored costs only the time: the
worker starts Python instead and says why. The page records and shows its log while the engine
starts."""
from __future__ import annotations

import base64
import json
import shutil

from conftest import SiteServer
from e2e_helpers import cli_analyze, engine_ready, export_table, open_app, sample_table, wait_until

SUGGEST = "table => window.bombbuster.suggest(table, {player: table.me.player, fresh: true})"


def startup(page) -> dict:
    return page.evaluate("window.bombbuster.stats()")[0]["startup"]


def test_the_default_start_restores_the_snapshot_and_answers_as_python_started_afresh(new_context, server, site_dir):
    assert json.loads((site_dir / "build-info.json").read_text())["snapshot"] == "pyodide/snapshot.bin.gz"
    restored, started = (new_context().new_page() for _ in range(2))
    open_app(restored, f"{server.url}?workers=1&nosw")
    open_app(started, f"{server.url}?workers=1&nosw&installer=unpack")
    assert startup(restored)["installer"] == "snapshot" and "snapshotError" not in startup(restored)
    assert startup(started)["installer"] == "unpack"
    table = sample_table()
    analysis = restored.evaluate("table => window.bombbuster.analyze(table)", table)
    assert analysis["worlds"] == cli_analyze(table)["worlds"]
    assert analysis == started.evaluate("table => window.bombbuster.analyze(table)", table)
    # suggestions and the card advice import modules the snapshot did not hold
    assert restored.evaluate(SUGGEST, table) == started.evaluate(SUGGEST, table)


def test_a_snapshot_that_cannot_be_restored_falls_back_to_starting_python(new_context, site_dir, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(site_dir, site)
    (site / "pyodide" / "snapshot.bin.gz").write_bytes(b"not a memory snapshot")
    server = SiteServer(site)
    try:
        page = new_context().new_page()
        open_app(page, f"{server.url}?workers=1&nosw")
        phases = startup(page)
        assert phases["installer"] == "unpack" and phases["snapshotError"]
        table = sample_table()
        assert page.evaluate("table => window.bombbuster.analyze(table)", table)["worlds"] == cli_analyze(table)["worlds"]
    finally:
        server.stop()


def test_the_page_records_and_shows_the_log_while_the_engine_starts(new_context, server):
    """Issue 31 item 3: the page is usable before the engine is ready. The worker's runtime is held
    back (its wasm request is not answered) while an event is recorded on a saved game: the event
    is in the log at once, and checked by the engine once it has started."""
    table = sample_table()
    page = new_context().new_page()
    open_app(page, f"{server.url}?workers=1&nosw#game=" + base64.urlsafe_b64encode(json.dumps(table).encode()).decode())
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 3")
    wait_until(page, "import('./js/storage.js').then((s) => s.storedGame(s.currentGameId())).then((g) => g && g.table.events.length === 3)")
    held = []
    page.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    try:
        with page.expect_request("**/pyodide/pyodide.asm.wasm"):
            page.reload()
        page.wait_for_function("document.querySelectorAll('.log .events li').length === 3")
        assert page.get_attribute("#engine-status", "data-state") == "loading"
        page.click(".recorder [data-action='info_token']")
        page.click(".table .slot[data-player='3'][data-stand='0'][data-slot='11']")
        page.click(".recorder .option[data-value='12']")
        page.wait_for_function("document.querySelectorAll('.log .events li').length === 4")
        assert page.get_attribute("#engine-status", "data-state") == "loading"
        assert held, "the engine started before its wasm was answered"
    finally:
        for route in held:
            route.continue_()
    engine_ready(page)
    page.wait_for_selector(".analysis-status.ok #worlds")
    recorded = {**table, "events": [*table["events"], {"type": "info_token", "at": {"player": 3, "stand": 0, "slot": 11},
                                                         "value": 12}]}
    assert page.evaluate("table => window.bombbuster.analyze(table)", recorded)["consistent"]
    assert export_table(page)["events"] == recorded["events"]


def test_the_first_worker_starts_before_the_page_script_and_is_the_pools(new_context, server):
    """The page's first script (inline in index.html) starts the engine's worker before the page's
    modules load: the worker asks for the runtime while js/app.js is held back, and the pool then
    takes that worker rather than starting another."""
    page = new_context().new_page()
    worker_scripts = []
    page.on("request", lambda request: request.url.endswith("/js/worker.js") and worker_scripts.append(request.url))
    held = []
    page.route("**/js/app.js", lambda route: held.append(route))
    try:
        with page.expect_request("**/pyodide/pyodide.asm.wasm"):
            page.goto(f"{server.url}?workers=1&nosw", wait_until="commit")
        assert held and page.evaluate("window.bombbuster === undefined")
    finally:
        for route in held:
            route.continue_()
    engine_ready(page)
    assert len(page.evaluate("window.bombbuster.stats()")) == 1
    assert worker_scripts == [f"{server.url}js/worker.js"]
    assert page.evaluate("window.bombbusterEarlyWorker === undefined")


KEPT_SNAPSHOT = """async () => {
  const info = await (await fetch('build-info.json')).json();
  const cache = await caches.open('bombbuster-' + info.version);
  const kept = await cache.match(new URL(info.snapshot.replace(/\\.gz$/, '') + '.inflated', location.href).href);
  return kept ? (await kept.arrayBuffer()).byteLength : 0;
}"""

DAMAGE_KEPT_SNAPSHOT = """async () => {
  const info = await (await fetch('build-info.json')).json();
  const cache = await caches.open('bombbuster-' + info.version);
  await cache.put(new URL(info.snapshot.replace(/\\.gz$/, '') + '.inflated', location.href).href, new Response('damaged'));
}"""


def test_a_warm_start_reads_the_snapshot_inflated_by_the_last_one(new_context, server):
    """The first start under the service worker keeps the inflated snapshot in the site's cache;
    the next start reads it (no inflating) and answers as the CLI; a damaged kept copy is inflated
    again from the shipped snapshot and replaced."""
    page = new_context().new_page()
    open_app(page, f"{server.url}?workers=1")
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()
    engine_ready(page)
    wait_until(page, KEPT_SNAPSHOT)
    table = sample_table()
    for damaged in (False, True):
        if damaged:
            page.evaluate(DAMAGE_KEPT_SNAPSHOT)
        page.reload()
        engine_ready(page)
        phases = startup(page)
        assert phases["installer"] == "snapshot" and "snapshotError" not in phases
        assert phases["snapshotKept"] is not damaged
        assert page.evaluate("table => window.bombbuster.analyze(table)", table)["worlds"] == cli_analyze(table)["worlds"]
    wait_until(page, f"({KEPT_SNAPSHOT})().then((size) => size > 1000)")
