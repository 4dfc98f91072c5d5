"""The engine's start from the build's memory snapshot (issue 31, item 3): a worker restores a
Pyodide that had already imported bombbuster_core (web/tools/make_snapshot.mjs) instead of
starting Python. Its answers are the CLI's and the ordinary start's, modules first imported
after the restore load, and a snapshot that cannot be restored costs only the time: the
worker starts Python instead and says why."""
from __future__ import annotations

import json
import shutil

from conftest import SiteServer
from e2e_helpers import cli_analyze, open_app, sample_table

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
