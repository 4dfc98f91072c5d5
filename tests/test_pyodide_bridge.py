"""The bridge under Pyodide (Node) answers a fuzz sample exactly as under CPython.

The page's workers run the core in Pyodide's Python 3.14, which has its own
recursion limits and number formatting; a reply that differs, or a crash,
would reach a phone and not the CPython suite.  The sample: broken random
games (base and full rules) and the hostile texts of tests/test_hardening.py.
Runs on the wheel that ``python build.py test`` just built (BOMBBUSTER_DIST; run
directly, on dist/, built when missing).  Without Node it fails, as the e2e tests do
without a browser (tests/conftest.py).
"""
from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

from gamegen import random_full_game, random_game
from test_fuzz import break_table
from test_hardening import HOSTILE

from bombbuster_core import bridge

ROOT = Path(__file__).resolve().parent.parent


def sample() -> list[str]:
    requests = []
    for seed in range(120):
        rng = random.Random(50_000 + seed)
        table, _ = (random_full_game if seed % 2 else random_game)(rng)
        broken = break_table(table, rng) if seed % 3 else table
        requests.append(json.dumps({"id": seed, "method": "analyze", "params": {"table": broken}}))
    for i, text in enumerate(sorted(HOSTILE.values())):
        requests.append('{"id": %d, "method": "analyze", "params": {"table": %s}}' % (1000 + i, text))
    requests.append('{"id": NaN, "method": "ping"}')
    requests.append("[" * 100_000 + "]" * 100_000)
    return requests


def test_pyodide_bridge_answers_like_cpython(tmp_path: Path, site_dir: Path, missing_piece) -> None:
    if not shutil.which("node"):
        missing_piece("Node is not installed: it runs Pyodide here")
    info = json.loads((site_dir / "build-info.json").read_text())
    requests = sample()
    (tmp_path / "requests.json").write_text(json.dumps(requests))
    subprocess.run(["node", str(ROOT / "tests" / "pyodide_bridge.mjs"), str(site_dir / "pyodide"),
                    str(site_dir / info["wheel"]), str(tmp_path / "requests.json"), str(tmp_path / "replies.json")],
                   check=True, timeout=600)
    replies = json.loads((tmp_path / "replies.json").read_text())
    assert len(replies) == len(requests)
    for request, reply in zip(requests, replies):
        assert json.loads(reply) == json.loads(bridge.handle(request)), request[:200]
        assert "internal error" not in reply
