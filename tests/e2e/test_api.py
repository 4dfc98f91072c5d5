"""The page's scripting API (window.bombbuster) in real Chromium: it answers
exactly what the CLI prints, computed in the workers, and rejects bad input
with a clear message."""
from __future__ import annotations

import copy

import pytest

import bombbuster_core

from e2e_helpers import cli_analyze, cli_suggest, open_app, sample_table


@pytest.mark.parametrize("installer", ["unpack", "micropip"])
def test_both_wheel_installers_work(page, server, installer):
    table = sample_table()
    # Twice: the second load is answered by the service worker's cache.
    for _ in range(2):
        open_app(page, f"{server.url}?workers=1&installer={installer}")
        assert page.evaluate("window.bombbuster.ping()") == {"version": bombbuster_core.__version__}
        assert page.evaluate("table => window.bombbuster.analyze(table)", table) == cli_analyze(table)
        assert page.evaluate("window.bombbuster.stats()")[0]["startup"]["installer"] == installer
        page.evaluate("navigator.serviceWorker.ready")


@pytest.mark.parametrize("view_public", [False, True], ids=["my-view", "public-view"])
def test_analyze_equals_cli(page, server, view_public):
    table = sample_table()
    if view_public:
        del table["me"]
    open_app(page, server.url)
    in_browser = page.evaluate("table => window.bombbuster.analyze(table)", table)
    assert in_browser == cli_analyze(table)


def test_inconsistent_table_is_a_result_not_an_error(page, server):
    table = sample_table()
    # Ann holds no 11, so she cannot announce it.
    table["events"].append({"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 5},
                            "value": 11, "success": False, "token": 4})
    open_app(page, server.url)
    result = page.evaluate("table => window.bombbuster.analyze(table)", table)
    assert result == cli_analyze(table)
    assert result["consistent"] is False


def test_malformed_table_rejects_with_the_engines_message(page, server):
    table = copy.deepcopy(sample_table())
    table["events"][1]["at"]["slot"] = 40
    open_app(page, server.url)
    message = page.evaluate(
        "table => window.bombbuster.analyze(table).then(() => 'resolved', error => error.message)", table)
    assert "event" in message and message != "resolved"


def test_suggest_equals_cli_and_reports_work(page, server):
    table = sample_table()
    public = {k: v for k, v in table.items() if k != "me"}
    open_app(page, server.url)
    assert page.evaluate("table => window.bombbuster.suggest(table)", table) == cli_suggest(table)
    assert page.evaluate("table => window.bombbuster.suggest(table, {player: 1})", public) == \
        cli_suggest(public, "--player", "1")
    small = {"players": [{"name": "Ann", "stands": [3]}, {"name": "Bob", "stands": [3]}],
             "wires": {"deck": {"1": 2, "2": 2, "3": 1, "3.1": 1}}, "events": []}
    outcome = page.evaluate("""async table => {
        const works = [];
        const result = await window.bombbuster.suggest(table, {player: 0, mode: "entropy", onProgress: (ms, work) => {
            if (work) works.push([work.done, work.total]);
        }});
        return {result, works};
    }""", small)
    assert outcome["result"] == cli_suggest(small, "--player", "0", "--mode", "entropy")
    # The entropy branches, each reported as it finishes.
    total = outcome["result"]["branch_analyses"]
    assert total > 1 and outcome["works"][-1] == [total, total]
    assert [done for done, _ in outcome["works"]] == sorted(done for done, _ in outcome["works"])


def test_cancel_terminates_and_the_pool_keeps_serving(page, server):
    open_app(page, server.url + "?workers=1")
    outcome = page.evaluate("""async table => {
        const abort = new AbortController();
        const cancelled = window.bombbuster.analyze(table, {signal: abort.signal}).then(() => 'finished', e => e.name);
        abort.abort();
        const name = await cancelled;
        const after = await window.bombbuster.analyze(table);  // served by the respawned worker
        return [name, after.consistent];
    }""", sample_table())
    assert outcome == ["CancelledError", True]


def test_a_crashed_worker_is_replaced_and_the_request_retried(page, server):
    open_app(page, server.url + "?workers=1")
    assert len(page.workers) == 1
    # Break the worker: its next message throws an uncaught error, as a broken runtime would.
    page.workers[0].evaluate("() => { self.onmessage = () => { throw new Error('simulated crash'); }; }")
    table = sample_table()
    assert page.evaluate("table => window.bombbuster.analyze(table)", table) == cli_analyze(table)
    assert len(page.workers) == 1  # the replacement
