"""Benchmark: self-play decisions per second per policy, and sampler deals per second (not a test).

    python bench/bench_sim.py [--deals N] [--policies random,greedy,...] [--states "NAME;NAME"]

On the 5-player benchmark states of bench/bench_analyze.py (the same legal
games, the real 53-wire set): seconds per decision of each policy for
player 0 from their own view (the observer states), and the exact sampler's
deals per second (``engines.sampling.sample_table``: one forward sweep of the
columns engine, then each deal by walking its tables back).
Timings are wall clock on whatever else the machine is running: quote the
load average with them.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from bench_analyze import states  # noqa: E402  (also puts the repository and tests/ on sys.path)

from bombbuster_core.sim.policies import POLICIES, View  # noqa: E402
from bombbuster_core.engines.sampling import sample_table as sample  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402

DECISION_STATES = ["5p observer, setup tokens", "5p observer, mid-game (15 turns)",
                   "5p observer, late game (35 turns)"]
SAMPLER_STATES = ["5p observer, no token", "5p observer, setup tokens", "5p public, setup tokens",
                  "5p observer, mid-game (15 turns)", "5p public, mid-game (15 turns)",
                  "5p observer, late game (35 turns)", "5p public, late game (35 turns)"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=8, help="deals drawn per sampler state")
    ap.add_argument("--policies", default=",".join(POLICIES))
    ap.add_argument("--states", help="';'-separated state names (default: the 5p states above)")
    args = ap.parse_args()
    tables = states()
    chosen = args.states.split(";") if args.states else None
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}, wall clock")
    print(f"{'decision state':36} {'policy':14} {'s/decision':>10} {'decisions/s':>11}")
    for name in chosen or DECISION_STATES:
        raw = tables[name]
        for policy in args.policies.split(","):
            player = POLICIES[policy](random.Random(0))
            t0 = time.perf_counter()
            player.move(View(raw, 0))
            dt = time.perf_counter() - t0
            print(f"{name:36} {policy:14} {dt:10.3f} {1 / dt:11.1f}", flush=True)
    print()
    print(f"{'sampler state':36} {'deals':>5} {'seconds':>8} {'deals/s':>8}")
    for name in chosen or SAMPLER_STATES:
        table = load_table(tables[name])
        t0 = time.perf_counter()
        sample(table, args.deals, random.Random(0))
        dt = time.perf_counter() - t0
        print(f"{name:36} {args.deals:5d} {dt:8.2f} {args.deals / dt:8.2f}", flush=True)


if __name__ == "__main__":
    main()
