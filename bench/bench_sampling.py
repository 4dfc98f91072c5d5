"""Benchmark: exact deal sampling on the 5-player benchmark states (not a test).

    python bench/bench_sampling.py [--deals N] [--repeat R] [--states all|5p]

For each state of bench/bench_analyze.py (the 5-player ones by default) it
prints: the columns engine's analysis time (for scale; best of R), the
backward sampler's one-off preparation (``TableSampler``: compile the table,
one forward sweep keeping every state and its predecessor edges; best of R),
its deals per second after that preparation (``N`` deals in the issue-11
JSON shape, stands at their current positions; the bare problem-level
``Sampler.draw`` in brackets).  Issue 11's target: >= 1,000 deals/s after
one analysis.  (The first sampler, sequential conditioning with one
re-analysis per drawn prefix, drew 0.4-5 deals/s on these states: docs/results/sampling-speed.md.)
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "bench")]

from bench_analyze import states  # noqa: E402  (the same tables as every other benchmark)

from bombbuster_core.engines import columns  # noqa: E402
from bombbuster_core.engines.sampling import TableSampler  # noqa: E402
from bombbuster_core.facts import compile_table  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402

TARGET = 1_000  # deals per second after one analysis (issue 11)


def best_of(repeat: int, fn):
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=5000, help="deals drawn by the backward sampler per state")
    ap.add_argument("--repeat", type=int, default=3, help="best of R for analysis and preparation")
    ap.add_argument("--states", choices=["5p", "all"], default="5p")
    args = ap.parse_args()
    print(f"CPython {sys.version.split()[0]}; backward sampler: {args.deals} deals per state")
    header = f"{'state':36s} {'analyze':>8s} {'prepare':>8s} {'deals/s':>9s} {'(draw)':>9s} {'edges':>8s}"
    print(header)
    print("-" * len(header))
    worst = float("inf")
    for name, raw in states().items():
        if args.states == "5p" and not name.startswith("5p"):
            continue
        table = load_table(raw)
        problem = compile_table(table)
        analyse, _ = best_of(args.repeat, lambda: columns.analyze(problem))
        prepare, ts = best_of(args.repeat, lambda: TableSampler(table))
        rng = random.Random(1)
        t0 = time.perf_counter()
        ts.sample(args.deals, rng)
        rate = args.deals / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        draw = ts.sampler.draw
        for _ in range(args.deals):
            draw(rng)
        draw_rate = args.deals / (time.perf_counter() - t0)
        worst = min(worst, rate)
        edges = sum(len(e) for step in ts.sampler.steps for _, e in step.values())
        print(f"{name:36s} {analyse:7.3f}s {prepare:7.3f}s {rate:9.0f} {draw_rate:9.0f} {edges:8d}", flush=True)
    print(f"\nslowest: {worst:,.0f} deals/s after preparation (target >= {TARGET:,}): "
          f"{'met' if worst >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
