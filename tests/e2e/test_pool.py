"""One request over the page's two workers (issue 12) in real Chromium: every split path
answers exactly what the serial bridge (the CLI) prints, cancelling a split request
stops both halves, kept results answer repeated requests, and the engine setting works.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from e2e_helpers import cli_analyze, cli_suggest, engine_ready, open_app, wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the random game generator
from gamegen import random_game  # noqa: E402

from bombbuster_core import bridge  # noqa: E402

WIRES = {"blue": list(range(1, 13)), "yellow": [3.1, 7.1], "red": [5.5],
         "uncertain": [{"candidates": [2.5, 8.5, 10.5], "count": 2}]}


def _table(seed: str, players: int, me: bool, turns: int) -> dict:
    table, _ = random_game(random.Random(seed), players=players, wires=WIRES, me=0 if me else False,
                           setup_tokens=True, turns=turns)
    return table


BIG = _table("1-5-0", 5, False, 0)  # 5-player public start: its two sweeps go to the two workers


def serial(method: str, params: dict) -> dict:
    return json.loads(bridge.handle(json.dumps({"id": 1, "method": method, "params": params})))["result"]


def two_workers(page, url: str) -> None:
    open_app(page, url + "?workers=2")
    wait_until(page, "window.bombbuster.stats().then(s => s.length === 2)")


def core_stats(page) -> list[dict]:
    return [s["core"] for s in page.evaluate("window.bombbuster.stats()")]


def test_an_analysis_after_a_split_one_starts_its_mirrored_sweep_at_once(page, server):
    """Speculative (web/js/engine.js): once an analysis has split, the next one queues its mirrored
    sweep with its first request. The round adopts it when it asks for it; a table too small to
    split, or refused, drops it; every answer is the CLI's."""
    two_workers(page, server.url)
    speculations = "window.bombbuster.cacheStats().speculations"
    other = _table("1-5-1", 5, False, 0)  # another 5-player public start: splits too
    small = _table("small", 3, True, 4)
    assert page.evaluate("t => window.bombbuster.analyze(t)", BIG) == cli_analyze(BIG)
    assert page.evaluate(speculations) == {"adopted": 0, "dropped": 0}  # the first one cannot know
    assert page.evaluate("t => window.bombbuster.analyze(t)", other) == cli_analyze(other)
    assert page.evaluate(speculations) == {"adopted": 1, "dropped": 0}
    assert sorted(s["tasks_run"].get("columns.sweep", 0) for s in core_stats(page)) == [2, 2]
    assert page.evaluate("t => window.bombbuster.analyze(t)", small) == cli_analyze(small)
    assert page.evaluate(speculations) == {"adopted": 1, "dropped": 1}
    assert page.evaluate("t => window.bombbuster.analyze(t)", _table("small-2", 3, True, 4)) is not None
    assert page.evaluate(speculations) == {"adopted": 1, "dropped": 1}  # no longer after a table that did not split
    assert page.evaluate("t => window.bombbuster.analyze(t)", BIG) == cli_analyze(BIG)  # kept: no request
    third = _table("1-5-2", 5, False, 0)
    assert page.evaluate("t => window.bombbuster.analyze(t)", third) == cli_analyze(third)  # splits: not speculated
    refused = page.evaluate("""t => window.bombbuster.analyze(t, {budget: 1000}).then(
        () => "answered", (error) => error.message)""", other)
    assert refused.startswith("too large")
    assert page.evaluate(speculations) == {"adopted": 1, "dropped": 2}
    assert page.evaluate("t => window.bombbuster.analyze(t)", other) == cli_analyze(other)  # the pool still works


def test_split_analysis_equals_the_cli_and_repeats_from_the_kept_results(page, server):
    two_workers(page, server.url)
    assert page.evaluate("t => window.bombbuster.analyze(t)", BIG) == cli_analyze(BIG)
    assert sum(s["kept_sweeps"] for s in core_stats(page)) == 1  # the forward sweep, kept at home
    assert sum(s["kept_plans"] for s in core_stats(page)) >= 2  # each worker planned the table
    page.evaluate("window.bombbuster.stats({forget: true})")  # measure.py times a repeated request so
    assert [(s["kept_sweeps"], s["kept_plans"]) for s in core_stats(page)] == [(0, 0), (0, 0)]
    # one sweep on each worker, at once: the asking worker, free when the round came, once took
    # the mirrored task too and ran its own after it
    assert sorted(s["tasks_run"].get("columns.sweep", 0) for s in core_stats(page)) == [1, 1]
    before = page.evaluate("window.bombbuster.cacheStats()")
    again = page.evaluate("""async t => {
        const t0 = performance.now();
        const result = await window.bombbuster.analyze(t);
        return [result.worlds.toString(), performance.now() - t0];
    }""", BIG)
    assert again[0] == str(cli_analyze(BIG)["worlds"]) and again[1] < 100
    assert page.evaluate("window.bombbuster.cacheStats()")["hits"] == before["hits"] + 1


def test_entropy_branches_over_the_pool_equal_the_cli(page, server):
    table = _table("entropy-1", 4, True, 6)
    two_workers(page, server.url)
    outcome = page.evaluate("""async t => {
        const works = [];
        const result = await window.bombbuster.suggest(t, {mode: "entropy", onProgress: (ms, work) => {
            if (work) works.push([work.done, work.total]);
        }});
        return {result, works};
    }""", table)
    assert outcome["result"] == cli_suggest(table, "--mode", "entropy")
    total = outcome["result"]["branch_analyses"]
    assert outcome["works"][-1] == [total, total]
    assert [d for d, _ in outcome["works"]] == sorted(d for d, _ in outcome["works"])


def test_signatures_engine_fans_out_and_keeps_its_blocks(page, server):
    table = _table("sig-3-8", 3, True, 8)
    two_workers(page, server.url)
    expected = serial("analyze", {"table": table, "engine": "signatures"})
    assert expected == cli_analyze(table)  # both engines exact
    assert page.evaluate("t => window.bombbuster.analyze(t, {engine: 'signatures'})", table) == expected
    stats = core_stats(page)
    assert sum(s["fanned_out_blocks"] for s in stats) >= 1
    assert page.evaluate("t => window.bombbuster.analyze(t, {engine: 'signatures', fresh: true})", table) == expected
    assert sum(s["signature_cache"]["hits"] for s in core_stats(page) if "signature_cache" in s) >= 1


# A column sweep reports no work (bridge.py), so the signal that both halves run is the page handing
# a sweep task to each of its two workers; a cancel must then terminate both of those workers.
WATCH_SWEEPS = """(() => {
  const ids = new WeakMap();
  let next = 0;
  const idOf = (worker) => { if (!ids.has(worker)) ids.set(worker, next++); return ids.get(worker); };
  let both;
  const watched = window.sweepsWatched = {sweeping: [], terminated: [], both: new Promise((r) => { both = r; })};
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (data, ...rest) {
    const sent = post.call(this, data, ...rest);
    const message = data && typeof data.message === "string" ? JSON.parse(data.message) : null;
    if (message && message.method === "task" && message.params.task === "columns.sweep") {
      watched.sweeping.push(idOf(this));
      if (new Set(watched.sweeping).size === 2) both();
    }
    return sent;
  };
  const terminate = Worker.prototype.terminate;
  Worker.prototype.terminate = function () {
    watched.terminated.push(idOf(this));
    return terminate.call(this);
  };
})();"""


def test_cancelling_a_split_request_stops_both_halves(page, server):
    page.add_init_script(WATCH_SWEEPS)
    two_workers(page, server.url)
    outcome = page.evaluate("""async t => {
        const abort = new AbortController();
        const cancelled = window.bombbuster.analyze(t, {signal: abort.signal}).then(() => "finished", e => e.name);
        await window.sweepsWatched.both;  // each worker has its half
        abort.abort();
        return cancelled;
    }""", BIG)
    assert outcome == "CancelledError"
    watched = page.evaluate("({sweeping: window.sweepsWatched.sweeping, terminated: window.sweepsWatched.terminated})")
    assert len(watched["sweeping"]) == 2 and set(watched["sweeping"]) <= set(watched["terminated"])
    wait_until(page, "window.bombbuster.stats().then(s => s.length === 2)")
    assert page.evaluate("t => window.bombbuster.analyze(t, {fresh: true})", BIG) == cli_analyze(BIG)


def test_the_engine_setting_in_the_menu(page, server):
    two_workers(page, server.url)
    page.click("#menu-button")
    page.click("[data-action='engine']")
    page.click("[data-engine='signatures']")
    assert page.evaluate("window.bombbuster.engine()") == "signatures"
    assert page.evaluate("localStorage.getItem('bombbuster.engine')") == "signatures"
    table = _table("sig-3-8", 3, True, 8)
    assert page.evaluate("t => window.bombbuster.analyze(t)", table) == cli_analyze(table)
    # A table the signatures engine refuses is answered by columns.
    assert page.evaluate("t => window.bombbuster.analyze(t)", BIG) == cli_analyze(BIG)
    page.reload()
    engine_ready(page)
    assert page.evaluate("window.bombbuster.engine()") == "signatures"
