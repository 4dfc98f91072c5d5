"""The bridge under Pyodide (Node) answers a fuzz sample exactly as under CPython.

The page's workers run the core in Pyodide's Python 3.14, which has its own
recursion limits and number formatting; a reply that differs, or a crash,
would reach a phone and not the CPython suite.  The sample: broken random
games (base and full rules), the hostile texts of tests/test_hardening.py, and
suggestions with the equipment advice (``"cards": true``) on a hand-made board.
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
from typing import Any

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
    table = advised_table()
    public = {k: v for k, v in table.items() if k != "me"}
    for i, params in enumerate(({"table": table}, {"table": public, "player": 2})):
        requests.append(json.dumps({"id": 2000 + i, "method": "suggest", "params": {**params, "cards": True}}))
    requests.append('{"id": NaN, "method": "ping"}')
    requests.append("[" * 100_000 + "]" * 100_000)
    return requests


def advised_table() -> dict[str, Any]:
    """Cards 1, 4 and 2 unlocked (two of each value cut), the General Radar and Walkie-Talkies
    characters: the radar's law, the marks and the gift are all advised."""
    def cut(mine: int, theirs: int, value: int) -> dict[str, Any]:
        return {"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": theirs},
                "value": value, "success": True, "actor_slot": {"stand": 0, "slot": mine}}
    return {"format": 1, "wires": {"blue": [1, 2, 3, 4]},
            "players": [{"name": "A", "stands": [6], "character": "general_radar"}, {"name": "B", "stands": [5]},
                        {"name": "C", "stands": [5], "character": "walkie_talkies"}],
            "me": {"player": 0, "stands": [[1, 1, 2, 3, 4, 4]]},
            "equipment": [{"card": "1"}, {"card": "4"}, {"card": "2"}, {"card": "12"}],
            "events": [cut(0, 0, 1), cut(4, 4, 4), cut(2, 2, 2)]}


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
