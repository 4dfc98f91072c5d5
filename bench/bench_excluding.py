"""Benchmark: "the player holds v" for every value, in one packed run vs one run per value (not a test).

    python bench/bench_excluding.py [--repeat N] [--player P]

In public view every call of player P is conditioned on P holding an uncut
wire of the called value.  ``columns.analyze_excluding`` runs the problem and
every "P holds no v" variant in one sweep; the alternative is one
``columns.analyze`` per variant.  Both are timed in process, best of N, on
bench/bench_analyze.py's public states, and the ratio printed.
"""
from __future__ import annotations

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench")]

from bench_analyze import best_of, states  # noqa: E402

from bombbuster_core.beliefs import Inconsistent  # noqa: E402
from bombbuster_core.engines import columns  # noqa: E402
from bombbuster_core.facts import Compiler, compile_table  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402
from bombbuster_core.wires import RED  # noqa: E402


def separately(problem, exclusions) -> None:
    columns.analyze(problem)
    for slots, keys in exclusions:
        variant = problem
        for pos in slots:
            variant = variant.restrict(pos, problem.domain(pos) - keys)
        try:
            columns.analyze(variant)
        except Inconsistent:
            pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--player", type=int, default=0)
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, best of {args.repeat}, seconds, player {args.player}")
    print(f"{'state':36} {'variants':>8} {'packed':>8} {'separate':>9} {'ratio':>6}")
    for name, raw in states().items():
        if "public" not in name:
            continue
        table = load_table(raw)
        problem, compiler = compile_table(table), Compiler(table)
        cut = table.cut_slots()
        mine = frozenset(compiler.pos(s) for s in table.slots() if s.player == args.player and s not in cut)
        exclusions = [(mine, table.deck.keys_of_value(v)) for v in table.deck.values() if v != RED]
        packed = best_of(args.repeat, lambda: columns.analyze_excluding(problem, [(e,) for e in exclusions]))
        apart = best_of(args.repeat, lambda: separately(problem, exclusions))
        print(f"{name:36} {len(exclusions):8d} {packed:8.3f} {apart:9.3f} {apart / packed:6.1f}", flush=True)


if __name__ == "__main__":
    main()
