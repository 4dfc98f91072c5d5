"""Benchmark: CPU seconds of the entropy ranking, this checkout against another (not a test).

    python bench/bench_entropy.py [--against DIR] [--repeat N] [--states "a;b"]

For each of bench_analyze's states, ``suggest(mode="entropy")`` for player 0
(the public states: player 0 seen from the public view) in a fresh
interpreter per run, best of N CPU seconds (``time.process_time``: a shared
machine moves it far less than wall time), this checkout and, with
``--against`` (e.g. ``git worktree add /tmp/before REV``), the other one,
alternately, with the ratio this / other and whether both answers are the
same JSON (or which one refused the request past the state budget: its time is the
time to refuse).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATES = ("5p public, setup tokens", "5p public, mid-game (15 turns)", "5p observer, setup tokens",
          "5p observer, mid-game (15 turns)")
# Run inside the checkout under test: its own bench_analyze states and suggest.
CHILD = """
import json, sys, time
root, name = sys.argv[1], sys.argv[2]
sys.path[:0] = [root, root + "/bench"]
from bench_analyze import states
from bombbuster_core.beliefs import EngineLimit
from bombbuster_core.suggest import suggest
from bombbuster_core.table import load_table
table = load_table(states()[name])
t = time.process_time()
try:
    out = suggest(table, mode="entropy", player=0)
except EngineLimit as refused:  # past the state budget: the time to refuse is the figure
    out = {"refused": str(refused)}
print(json.dumps({"cpu": time.process_time() - t, "out": out}, default=str))
"""


def run(root: str, name: str) -> tuple[float, str]:
    done = subprocess.run([sys.executable, "-c", CHILD, root, name], capture_output=True, text=True, check=True)
    reply = json.loads(done.stdout)
    return reply["cpu"], json.dumps(reply["out"], sort_keys=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", help="another checkout to compare with")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--states", default=";".join(STATES))
    args = ap.parse_args()
    roots = [ROOT] + ([os.path.abspath(args.against)] if args.against else [])
    print(f"load average: {os.getloadavg()[0]:.2f}")
    for name in args.states.split(";"):
        best = {root: float("inf") for root in roots}
        answers = {}
        for _ in range(args.repeat):
            for root in roots:
                cpu, answers[root] = run(root, name)
                best[root] = min(best[root], cpu)
        line = f"{name:34} this {best[ROOT]:7.2f} s"
        if args.against:
            other = roots[1]
            refused = [r for r in roots if '"refused"' in answers[r][:12]]
            same = ("same answer" if answers[ROOT] == answers[other] else
                    "refused by " + " and ".join("this" if r == ROOT else "other" for r in refused) if refused
                    else "ANSWERS DIFFER")
            line += f"   other {best[other]:7.2f} s   ratio {best[ROOT] / best[other]:.2f}   {same}"
        print(line, flush=True)
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
