"""A simulated game is the same in every process: its record and every move depend on (settings, game, policy).

Python salts the hash of a string per process (PYTHONHASHSEED), so a set or
dict holding the values "red" or "yellow" beside the numbers iterates in an
order that changes from one process to the next.  Greedy's M38 rule for the
Captain's own flipped wire took the first likeliest value of such a set: on a
tie (P = 1/2 for the called value and red) the process decided whether the
flipped wire was cut.  That is why the two committed logs of M38 4p seed 2026
record greedy's game 28 as an explosion (the difficulty log) and as a win (the
ceiling's and the search's logs): docs/results/determinism.md.

Each case plays one game with ``play_game`` in two processes whose string
hashing orders ``{11, "red"}`` oppositely, and compares the records (but the
decision time), every decision of the policy, and the saved final tables and
deals.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Two hash seeds under which CPython iterates {11, "red"} in opposite orders (checked by each case).
HASH_SEEDS = ("0", "2")
TIMINGS = ("seconds",)  # play_game's only field that is not a function of (settings, game, policy)

PLAY = r"""
import json, sys
from bombbuster_core.sim import POLICIES
from bombbuster_core.sim.greedy import FormerGreedyPolicy
from bombbuster_core.sim.tournament import play_game
mission, players, seed, policy, index, former, save = json.loads(sys.argv[1])
if former:
    POLICIES["greedy"] = FormerGreedyPolicy  # greedy's version 1, under its name: the committed logs' greedy
moves = []

class Recorded(POLICIES[policy]):  # every decision, also those the table cannot show (a failed call's own wire)
    def move(self, view):
        action = super().move(view)
        moves.append(repr(action))
        return action

POLICIES[policy] = Recorded
record = play_game((mission, players, seed, policy, index, save, {}, True))
print(json.dumps({"order": [str(v) for v in {11, "red"}], "record": record, "moves": moves}))
"""

# (mission, players, seed, policy, game, greedy's version 1): games that reach the tie
CASES = [
    # the committed logs' game: version 1 exploded or won by the process
    pytest.param((38, 4, 2026, "greedy", 28, True), id="M38-4p-game28-greedy1"),
    # greedy 3 named its flipped wire or not as its own 11 by the process (the call failed: the same table)
    pytest.param((38, 3, 2026, "greedy", 35, False), id="M38-3p-game35-greedy3"),
]


def play(hash_seed: str, case: tuple[Any, ...], save: Path | None) -> dict[str, Any]:
    """PLAY's answer from a new process with this string hashing."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED=hash_seed)
    proc = subprocess.run([sys.executable, "-c", PLAY, json.dumps([*case, save and str(save)])], cwd=ROOT,
                          env=env, capture_output=True, text=True)  # waits for the process's exit
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def play_in_a_process(hash_seed: str, case: tuple[Any, ...], save: Path) -> tuple[list[str], dict[str, Any]]:
    """The set order of this process and the game's record, its final table and deal saved in ``save``."""
    save.mkdir()
    out = play(hash_seed, case, save)
    record = {k: v for k, v in out["record"].items() if k not in TIMINGS}
    stem = save / f"{case[3]}-{case[4]:05d}"
    table = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    del table["meta"]["simulated"]  # the record again, with its decision time
    deal = json.loads(stem.with_suffix(".deal.json").read_text(encoding="utf-8"))
    return out["order"], {"record": record, "moves": out["moves"], "table": table, "deal": deal}


@pytest.mark.parametrize("case", CASES)
def test_a_game_is_the_same_whatever_the_string_hashing(case: tuple[Any, ...], tmp_path: Path) -> None:
    (order_a, game_a), (order_b, game_b) = (play_in_a_process(h, case, tmp_path / f"hash{h}") for h in HASH_SEEDS)
    assert order_a != order_b, "the two processes must order a set of values differently for this test to bite"
    assert game_a["record"] == game_b["record"]
    assert game_a["moves"] == game_b["moves"]
    assert game_a["table"] == game_b["table"]  # every event: the same moves
    assert game_a["deal"] == game_b["deal"]


def test_greedy1_game28_of_m38_is_the_win_the_ceiling_logs_record() -> None:
    """On the tie the visible wire is cut (strictly the likeliest value, greedy.py): the win of
    bench/tournaments/m38-greedy-sighted.log, not the explosion of difficulty/m38-p4.log."""
    logged = {}
    for name in ("m38-greedy-sighted.log", "difficulty/m38-p4.log"):
        with open(ROOT / "bench" / "tournaments" / name, encoding="utf-8") as f:
            logged[name] = next(r for r in map(json.loads, f) if r["policy"] == "greedy" and r["game"] == 28)
    played = play("2", (38, 4, 2026, "greedy", 28, True), None)["record"]  # hash seed 2 took the flipped wire
    fields = ("result", "failed_cuts", "turns", "decisions", "settings")
    assert {k: played[k] for k in fields} == {k: logged["m38-greedy-sighted.log"][k] for k in fields}
    assert logged["difficulty/m38-p4.log"]["result"] == "explosion"  # that process took the flipped wire
