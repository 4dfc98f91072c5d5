"""Record the final tables of a few logged greedy games: tests/data/greedy_logged.json.

    PYTHONPATH=<a checkout of the code to record> python tests/data/make_greedy_logged.py

Made once, on commit 53e1ebc (before greedy's decisions were made cheaper),
for tests/test_greedy_logged.py.  For each game of ``GAMES`` (mission, index
of the 4-player difficulty logs, bench/tournaments/difficulty/) it stores the
SHA-256 of the game's final public table as ``play_game`` saves it (every
event, every card used, the mission's state), without ``meta.simulated``
(which holds the decision times).  The logs hold only each game's result,
failed cuts, turns and decisions; the digest pins every move.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT))  # appended: a PYTHONPATH naming another checkout comes first

from bombbuster_core.sim.tournament import play_game  # noqa: E402

OUT = ROOT / "tests" / "data" / "greedy_logged.json"
SEED, PLAYERS = 2026, 4  # the difficulty logs' settings
# detectors, labels, radars, equipment cards, M11 (counts as red), M13 (special action), a loss
GAMES = [(3, 0), (4, 1), (5, 2), (6, 3), (11, 4), (13, 0), (19, 6), (20, 0)]


def replay(mission: int, index: int) -> tuple[dict, str]:
    """The game's record and the digest of its final public table."""
    with tempfile.TemporaryDirectory() as save:
        record = play_game((mission, PLAYERS, SEED, "greedy", index, save, {}, True))
        with open(os.path.join(save, f"greedy-{index:05d}.json"), encoding="utf-8") as f:
            table = json.load(f)
    del table["meta"]["simulated"]
    return record, hashlib.sha256(json.dumps(table, sort_keys=True).encode()).hexdigest()


def main() -> None:
    import bombbuster_core

    print(f"recording with {Path(bombbuster_core.__file__).parent}")
    rows = [{"mission": m, "game": i, "table_sha256": replay(m, i)[1]} for m, i in GAMES]
    OUT.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rows)} games -> {OUT}")


if __name__ == "__main__":
    main()
