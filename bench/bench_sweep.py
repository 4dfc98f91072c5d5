"""Benchmark: CPU seconds of the columns engine's sweeps, this checkout against another (not a test).

    python bench/bench_sweep.py [--against DIR] [--repeat N]

For each of bench_analyze's public states (the sweeps an analysis runs, and the
page's two workers run one each), the forward and the mirrored sweep of its
problem, each in a fresh interpreter per run, best of N CPU seconds
(``time.process_time``), this checkout and, with ``--against`` (e.g.
``git worktree add /tmp/before REV``), the other one, alternately, with the
ratio this / other and whether both sweeps are the same states.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATES = ("5p public, setup tokens", "5p public, no token", "4p public, setup tokens")
# Run inside the checkout under test: its own bench_analyze states and engine.
CHILD = """
import hashlib, json, sys, time
root, name, mirrored = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
sys.path[:0] = [root, root + "/bench"]
from bench_analyze import states
from bombbuster_core.engines import columns
from bombbuster_core.facts import compile_table
from bombbuster_core.table import load_table
plan = columns.plans(compile_table(load_table(states()[name])))[mirrored]
t = time.process_time()
swept = columns.sweep_one(plan)
cpu = time.process_time() - t
digest = hashlib.sha256(json.dumps([sorted(s.items()) for s in swept]).encode()).hexdigest()
print(json.dumps({"cpu": cpu, "states": digest}))
"""


def run(root: str, name: str, mirrored: bool) -> tuple[float, str]:
    done = subprocess.run([sys.executable, "-c", CHILD, root, name, str(int(mirrored))], capture_output=True,
                          text=True, check=True)
    reply = json.loads(done.stdout)
    return reply["cpu"], reply["states"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", help="another checkout to compare with")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    roots = [ROOT] + ([os.path.abspath(args.against)] if args.against else [])
    print(f"load average: {os.getloadavg()[0]:.2f}")
    for name in STATES:
        for mirrored in (False, True):
            best = {root: float("inf") for root in roots}
            swept = {}
            for _ in range(args.repeat):
                for root in roots:
                    cpu, swept[root] = run(root, name, mirrored)
                    best[root] = min(best[root], cpu)
            line = f"{name:26} {'mirrored' if mirrored else 'forward':8} this {best[ROOT]:6.3f} s"
            if args.against:
                other = roots[1]
                same = "same states" if swept[ROOT] == swept[other] else "STATES DIFFER"
                line += f"   other {best[other]:6.3f} s   ratio {best[ROOT] / best[other]:.2f}   {same}"
            print(line, flush=True)
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
