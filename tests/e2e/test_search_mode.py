"""The suggestions panel's Search mode (web/js/suggestions.js, engine.js's searchOnPool) on a touch phone.

Tapping "Search" sends the bridge's `search` (bombbuster_core/sim/search_advice.py)
to each worker of the phone's pool (2) with seeds 0 and 1 and half the page's
iterations and work each; the panel shows the pick of their summed root statistics —
the very move CPython's merge of the same two searches gives for the exported
table — and the iterations done. Cancel stops it; "Run again" runs it again;
tapping the pick pre-fills the recorder. A second test prints the page's time
for a 5-player M8 early decision at the page's budget, fresh (the phone
budget: web/README-web.md, "Search").
"""
from __future__ import annotations

import base64
import json
import sys
import time
from pathlib import Path

from e2e_helpers import export_table, open_app, sample_table, screenshot, tap, touch_phone

from bombbuster_core.sim.search_advice import merged, search

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_lookahead import open_game  # noqa: E402

PAGE_ITERATIONS, PAGE_WORK = 20, 500  # web/js/suggestions.js: SEARCH
PHONE_POOL = 2  # engine.js: PHONE_WORKERS


def share_link(url: str, table: dict) -> str:
    return url + "#game=" + base64.urlsafe_b64encode(json.dumps(table).encode()).decode().rstrip("=")


def open_table() -> dict:
    table = sample_table()
    # No certain move for Ann (a token of a value she does not hold), so the search runs.
    table["events"] = [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 12}, "value": 11}]
    return table


def test_search_mode_shows_the_merged_pick_cancels_and_prefills(new_context, server):
    page, errors = touch_phone(new_context)
    open_app(page, share_link(server.url, open_table()))
    page.wait_for_selector(".suggestions[data-state='ok'][data-mode='exact'] .suggestion")
    assert page.evaluate("window.bombbuster.poolSize") == PHONE_POOL
    # Cancel while the workers search: every worker stops, the panel says so and offers to run again.
    tap(page, ".sug-modes button[data-mode='search']")
    page.wait_for_function("/iterations/.test(document.querySelector('.sug-elapsed')?.textContent || '')")
    tap(page, "[data-action='cancel-suggestions']")
    page.wait_for_selector(".suggestions[data-state='cancelled'][data-mode='search']", timeout=10_000)
    started = time.perf_counter()
    tap(page, "[data-action='run-suggestions']")
    page.wait_for_selector(".suggestions[data-state='ok'][data-mode='search'] .suggestion")
    print(f"search in the page (Chromium, phone size, {PHONE_POOL} workers): {time.perf_counter() - started:.2f} s")
    screenshot(page, "phone-search")
    body = ".suggestions .sug-body"
    assert page.get_attribute(body, "data-searched") == "true"
    assert int(page.get_attribute(body, "data-iterations")) == PAGE_ITERATIONS
    assert f"{PAGE_ITERATIONS} iterations on {PHONE_POOL} workers" in page.inner_text(".suggestions .sug-iterations")
    table = export_table(page)
    share = PAGE_ITERATIONS // PHONE_POOL
    expected = merged([search({"table": table, "iterations": share, "seed": seed, "work": PAGE_WORK // PHONE_POOL})
                       for seed in range(PHONE_POOL)])
    first = expected["suggestions"][expected["pick"]]
    pick = page.eval_on_selector(".suggestions [data-group='pick'] .suggestion", """b => ({
        kind: b.dataset.kind, targets: JSON.parse(b.dataset.targets), value: JSON.parse(b.dataset.value),
        visits: Number(b.dataset.visits)})""")
    assert pick == {"kind": first["kind"], "targets": [first["target"]] if "target" in first else first["targets"],
                    "value": first.get("value"), "visits": first["visits"]}
    shown = page.eval_on_selector_all(".suggestions .suggestion", "bs => bs.map(b => Number(b.dataset.visits))")
    assert sorted(shown) == sorted(s["visits"] for s in expected["suggestions"]) and sum(shown) == PAGE_ITERATIONS
    # Tapping the pick pre-fills the recorder with the move: only the outcome is left to record.
    tap(page, ".suggestions [data-group='pick'] .suggestion")
    page.wait_for_selector(".recorder.active")
    assert page.locator(".recorder .prompt").inner_text() == "Did the cut succeed?"
    if first["kind"] == "dual_cut":
        target = first["target"]
        name = ["Ann", "Bob", "Cy", "Di"][target["player"]]
        assert page.locator(".recorder .draft-summary").inner_text() == \
            f"Ann · → {name} slot {target['slot'] + 1} · value {first['value']}"
    else:
        assert page.locator(".recorder .recorder-head b").inner_text() == "Double Detector"
    assert page.locator(".suggestions [data-group='pick'] .suggestion.chosen").count() == 1
    page.click(".recorder [data-action='cancel']")
    # For another player: a clear refusal, not a guess.
    tap(page, ".sug-players button[data-player='1']")
    page.wait_for_selector(".suggestions[data-state='error'][data-mode='search']")
    assert "decides for you only" in page.inner_text(".suggestions .sug-status")
    assert not errors


def test_the_page_budget_on_a_five_player_m8_early_decision(new_context, server):
    """The page's time for the slowest decisions the page searches (5 players, the first open turn
    of M8), fresh requests: the phone estimate is 4x (web/README-web.md)."""
    page, errors = touch_phone(new_context)
    game = open_game(2, 8, 5, 0)
    raw = game.table(game.turn)
    table = {**raw, "meta": {k: v for k, v in raw["meta"].items() if k != "sim"}}
    open_app(page, server.url)
    page.wait_for_function("window.bombbuster && window.bombbuster.poolSize")
    page.evaluate("window.bombbuster.ready")
    page.evaluate("t => window.bombbuster.search(t, {iterations: 2, fresh: true})", table)  # both workers warm
    seconds = {}
    for iterations in (PHONE_POOL, PAGE_ITERATIONS):  # one iteration a worker: the fixed cost
        times = []
        for _ in range(3):
            began = time.perf_counter()
            result = page.evaluate("([t, n]) => window.bombbuster.search(t, {iterations: n, fresh: true})",
                                   [table, iterations])
            times.append(time.perf_counter() - began)
            assert result["searched"] and result["iterations"] == iterations
        seconds[iterations] = min(times)
        print(f"5p M8 early decision, {iterations} iterations on {PHONE_POOL} workers: page "
              f"{', '.join(f'{t:.2f}' for t in times)} s; phone estimate (4x the best) {4 * min(times):.1f} s")
    with open("/proc/loadavg") as f:
        print("load average:", " ".join(f.read().split()[:3]))
    assert not errors
