"""A coded engine limit that comes from one task of a split request (issue 32 item 4): the page
words it from its code and fields like any other error reply, instead of showing the core's
English (web/js/engine.js once dropped a task error's code and fields).

Which task of a split analysis goes past its share of the budget depends on the estimate being
too low, which no small table does reliably; so the pool's workers here answer every ``task``
request with the core's own reply for a real sweep limit (``columns.Work`` past its share, put
into a reply by ``bridge``'s own error form), and every other request as always."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from e2e_helpers import open_app, wait_until, words
from test_languages import language, localized  # noqa: F401 (fixtures)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the random game generator
from gamegen import random_game  # noqa: E402

from bombbuster_core.beliefs import EngineLimit  # noqa: E402
from bombbuster_core.engines.columns.sweep import Work  # noqa: E402

WIRES = {"blue": list(range(1, 13)), "yellow": [3.1, 7.1], "red": [5.5],
         "uncertain": [{"candidates": [2.5, 8.5, 10.5], "count": 2}]}
BIG = random_game(random.Random("1-5-0"), players=5, wires=WIRES, me=False, setup_tokens=True, turns=0)[0]  # splits

# Every `task` request gets the error a sweep past its share gives; the others reach the worker.
TASKS_FAIL = """(error) => {
  const Real = window.Worker;
  window.tasksFailed = 0;
  window.Worker = class extends Real {
    postMessage(data, ...rest) {
      const request = data && typeof data.message === "string" ? JSON.parse(data.message) : null;
      if (!request || request.method !== "task") return super.postMessage(data, ...rest);
      window.tasksFailed += 1;
      const reply = JSON.stringify({ id: request.id, error });
      queueMicrotask(() => this.onmessage({ data: { type: "reply", id: data.id, reply } }));
    }
  };
}"""


def a_sweep_limit() -> dict:
    """A real sweep limit as bridge.handle puts it in an error reply: its English, code and fields."""
    try:
        Work(limit=40, budget=80).add(41)
    except EngineLimit as limit:
        return {"message": str(limit), **limit.json()}
    raise AssertionError("41 states are past a share of 40")


def test_a_task_error_keeps_its_code_and_is_worded(localized, server, language):  # noqa: F811
    page = localized
    error = a_sweep_limit()
    page.add_init_script(f"({TASKS_FAIL})({json.dumps(error)})")
    open_app(page, server.url + "?workers=2")
    wait_until(page, "window.bombbuster.stats().then(s => s.length === 2)")
    got = page.evaluate("""async (table) => {
      const { engineErrorWords } = await import(new URL("js/ui.js", location.href));
      try {
        await window.bombbuster.analyze(table, { fresh: true });
        return { answered: true };
      } catch (e) {
        return { code: e.code, fields: e.fields, shown: engineErrorWords(e, table) };
      }
    }""", BIG)
    assert page.evaluate("window.tasksFailed") >= 1  # the request split, and a task's reply was the limit
    assert (got.get("code"), got.get("fields")) == ("sweep_budget", {"states": 40, "budget": 80}), got
    assert got["shown"] == words(language, "limit.sweep_budget", states=40, budget=80), got
    if language != "en":
        assert error["message"] not in got["shown"]
