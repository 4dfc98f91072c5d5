"""Benchmark: seconds for the full suggestion list on the benchmark states (not a test).

    python bench/bench_suggest.py [--repeat N] [--jobs J] [--no-entropy] [--states "a;b"] [--entropy-states "a;b"]

States are bench/bench_analyze.py's (53 real wires, legal random games).  For
each it prints, in-process, best of N:

* ``calls``: dual cuts, certain moves, solo cuts, reveal-red (one analysis);
* ``exact``: the default ``suggest`` (plus the equipment search), with the
  number of engine runs it made and any equipment search cut by its budget;
* ``entropy``: the entropy suggester once serially and once on a process
  pool of J workers (branch analyses run through ``pool.map``).

Targets (issue 4): exact mode <= 1 s on the hardest 5-player state, <= 0.1 s
in the late game, CPython.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench")]

from bench_analyze import states  # noqa: E402  (the lead's state builders)

from bombbuster_core.suggest import Policy, suggest  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402

DEFAULT_STATES = ("5p observer, setup tokens", "5p observer, no token", "5p public, setup tokens",
                  "5p observer, mid-game (15 turns)", "5p observer, late game (35 turns)")
# The public early game has ~550 calls whose branches each carry a "holds v" condition (two packed
# variants per branch): 77 s serially, so entropy mode is timed on the other states by default.
ENTROPY_STATES = tuple(n for n in DEFAULT_STATES if "public" not in n)
TARGETS = {"5p observer, setup tokens": 1.0, "5p observer, late game (35 turns)": 0.1}


def best_of(repeat: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-entropy", action="store_true")
    ap.add_argument("--entropy-states", default=";".join(ENTROPY_STATES), help="states timed in entropy mode")
    ap.add_argument("--states", default=";".join(DEFAULT_STATES), help="state names separated by ';'")
    args = ap.parse_args()
    tables = states()
    print(f"python {sys.version.split()[0]}, best of {args.repeat} (entropy: once), seconds, {args.jobs} pool workers")
    print(f"{'state':36} {'player':>6} {'cands':>5} {'calls':>6} {'exact':>6} {'runs':>4}  {'target':14}"
          f" {'entropy':>8} {'pool':>7} {'branches':>8}")
    for name in args.states.split(";"):
        raw = tables[name]
        table = load_table(raw)
        player = table.me if table.me is not None else 0
        calls, only_calls = best_of(args.repeat, lambda: suggest(table, player=player, policy=Policy(equipment=())))
        exact, full = best_of(args.repeat, lambda: suggest(table, player=player))
        target = TARGETS.get(name)
        verdict = "" if target is None else f"<= {target} {'met' if exact <= target else 'NOT met'}"
        incomplete = f" (budget: {','.join(full['incomplete'])})" if full["incomplete"] else ""
        line = (f"{name:36} {player:6d} {len(only_calls['suggestions']):5d} {calls:6.3f} {exact:6.3f}"
                f" {full['analyses']:4d}  {verdict:14}")
        if not args.no_entropy and name in args.entropy_states.split(";"):
            branches: list[int] = []
            serial, _ = best_of(1, lambda: suggest(table, player=player, mode="entropy", policy=Policy(equipment=()),
                                                   progress=lambda done, total: branches.append(total)))
            with ProcessPoolExecutor(args.jobs) as pool:
                pooled, _ = best_of(1, lambda: suggest(
                    table, player=player, mode="entropy", policy=Policy(equipment=()),
                    executor=lambda fn, jobs: pool.map(fn, jobs, chunksize=4)))
            line += f" {serial:8.2f} {pooled:7.2f} {branches[0]:8d}"
        print(line + incomplete, flush=True)


if __name__ == "__main__":
    main()
