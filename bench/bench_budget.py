"""Benchmark: the columns engine's work estimate against the work its sweeps count (not a test).

    python bench/bench_budget.py [--tables N] [--cap STATES]

Random legal full-rules games of 4-5 players with the real wire set (the tests'
generator), each with one event kind made frequent, a token mode and a special
stand: for each, the estimate both sweeps start from (``columns.estimated_states``,
the early refusal) and the work they count as they go (``columns.Work``, the
bound), per fact kind as min-max of work / estimate.  A sweep past ``--cap`` is
stopped there (its ratio then reads as a lower bound, marked ``>=``).
tests/test_engines.py holds small tables of every kind to within 4x.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from gamegen import FULL_KINDS, SPECIALS, TOKEN_MODES, random_full_game  # noqa: E402

from bombbuster_core.beliefs import EngineLimit  # noqa: E402
from bombbuster_core.engines import columns  # noqa: E402
from bombbuster_core.facts import compile_table  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402

WIRES = {"blue": list(range(1, 13)), "yellow": [3.1, 7.1], "red": [5.5],
         "uncertain": [{"candidates": [2.5, 8.5, 10.5], "count": 2}]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--cap", type=float, default=5e6, help="work at which a sweep is stopped")
    args = ap.parse_args()
    ratios: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for i in range(args.tables):
        rng = random.Random(f"budget-{i}")
        kind, mode = FULL_KINDS[i % len(FULL_KINDS)], TOKEN_MODES[i % len(TOKEN_MODES)]
        special = ([None] + list(SPECIALS))[i % (len(SPECIALS) + 1)]
        table, _ = random_full_game(rng, players=rng.randint(4, 5), wires=WIRES, token_mode=mode, special=special,
                                    kinds=dict.fromkeys(FULL_KINDS, 1.0) | {kind: 10.0}, setup_tokens=True,
                                    explode=0, me=rng.random() < 0.3)
        try:
            prep = columns.Prepared(compile_table(load_table(table)))
        except columns.Zero:
            continue
        estimate = work = 0
        stopped = False
        for mirrored in (False, True):
            plan = columns.Plan(prep, mirrored)
            estimate += columns.estimated_states(plan)
            counted = columns.Work(args.cap, args.cap)
            try:
                plan.sweep(counted)
            except EngineLimit:
                stopped = True
            work += counted.visited
        for name in (f"token {mode}", f"stand {special or 'plain'}", f"event {kind}"):
            ratios[name].append((work / estimate, stopped))
        print(f"{i:4d} {mode:6s} {str(special):8s} {kind:13s} estimate {estimate:>12,} work {'>=' if stopped else '  '}"
              f"{work:>12,} ratio {work / estimate:.2f}", flush=True)
    print("\nwork / estimate by fact kind (min - max; >=: a sweep stopped at --cap)")
    for name, rs in sorted(ratios.items()):
        lo, hi = min(rs), max(rs)
        print(f"  {name:22s} n={len(rs):3d}  {'>=' if lo[1] else ''}{lo[0]:.2f} - {'>=' if hi[1] else ''}{hi[0]:.2f}")


if __name__ == "__main__":
    main()
