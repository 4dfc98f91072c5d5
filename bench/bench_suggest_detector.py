"""Benchmark: the full suggestion list with the Double Detector's one-pass joints vs per-pair analyses (not a test).

    python bench/bench_suggest_detector.py [--repeat N] [--states "a;b"]

States are bench/bench_analyze.py's.  For each, in one process and
interleaved (so both see the same machine load), best of N:

* ``one-pass``: ``suggest`` as shipped: with the columns engine the detector
  search reads every slot set of a (stand, value) from one pass over key v
  of the run that conditioned on "the player holds v";
* ``per-pair``: the same code with that pass switched off, so each pair of
  neighbouring slots costs one conditioned analysis (what other engines do,
  and what the columns engine did before);

with the engine runs each made, whether the detector search was cut by the
default budget, and whether the two lists agree (they must where neither
search was cut).  ``analysis`` is one plain analysis of the table in the
same loop, and ``x an.`` the one-pass list in analyses: a yardstick that
survives machine load (docs/results/suggestion-speed.md has the analysis on a quiet machine).  Target (issue 12): the full public-view list <= 1 s CPython
on the hardest 5-player public state.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench")]

from bench_analyze import states  # noqa: E402  (the shared benchmark tables)

from bombbuster_core.suggest import suggest  # noqa: E402
from bombbuster_core.suggest.detectors import Detectors  # noqa: E402
from bombbuster_core.engines import columns  # noqa: E402
from bombbuster_core.facts import compile_table  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402

DEFAULT_STATES = ("5p public, setup tokens", "5p public, no token", "4p public, setup tokens",
                  "5p public, mid-game (15 turns)", "5p observer, setup tokens", "5p observer, no token")


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


def per_pair() -> Callable[[], None]:
    """Switch the one-pass joints off; returns the function that switches them back on."""
    saved = Detectors.run_joint
    Detectors.run_joint = lambda self, family: None  # type: ignore[method-assign]

    def restore() -> None:
        Detectors.run_joint = saved  # type: ignore[method-assign]

    return restore


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--states", default=";".join(DEFAULT_STATES), help="state names separated by ';'")
    args = ap.parse_args()
    tables = states()
    print(f"python {sys.version.split()[0]}, best of {args.repeat}, seconds, full list (default policy)")
    print(f"{'state':34} {'one-pass':>8} {'runs':>4} {'per-pair':>8} {'runs':>4} {'ratio':>6} {'analysis':>8}"
          f" {'x an.':>5}  same  cut")
    for name in args.states.split(";"):
        table = load_table(tables[name])
        player = table.me if table.me is not None else 0
        problem = compile_table(table)
        best = {"one": float("inf"), "pair": float("inf"), "analysis": float("inf")}
        results: dict[str, Any] = {}
        for _ in range(args.repeat):
            best["analysis"] = min(best["analysis"], timed(lambda: columns.analyze(problem))[0])
            for how in ("one", "pair"):
                restore = per_pair() if how == "pair" else (lambda: None)
                try:
                    seconds, results[how] = timed(lambda: suggest(table, player=player))
                finally:
                    restore()
                best[how] = min(best[how], seconds)
        one, pair = results["one"], results["pair"]
        cut = ",".join(f"{how}:{'+'.join(r['incomplete'])}" for how, r in results.items() if r["incomplete"]) or "-"
        same = one["suggestions"] == pair["suggestions"]
        print(f"{name:34} {best['one']:8.3f} {one['analyses']:4d} {best['pair']:8.3f} {pair['analyses']:4d}"
              f" {best['pair'] / best['one']:6.1f} {best['analysis']:8.3f} {best['one'] / best['analysis']:5.1f}"
              f"  {'yes' if same else 'no ':4} {cut}", flush=True)


if __name__ == "__main__":
    main()
