"""Benchmark: orbit sizes of interchangeable stands in the columns join (not a test).

    python bench/bench_orbits.py [--repeat N]

The join of the two sweeps divides each state's weight by its orbit size
(how many fill vectors permuting interchangeable stands give it).  Per
benchmark state with groups, best of N, milliseconds: the distinct group
configurations the join meets, the time to size them all from their fields
(``direct``: g! / prod m! over every group, per configuration: what the
engine did until issue 12) and from the per-group table
(``columns.join.orbit_of``, cold: its cache cleared first; sizes of one group's
sorted fields, shared by every configuration and analysis), and the whole
join (``Swept.beliefs``) for scale.
"""
from __future__ import annotations

import argparse
import os
import sys
from math import factorial

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench")]

from bench_analyze import best_of, states  # noqa: E402

from bombbuster_core.engines import columns  # noqa: E402
from bombbuster_core.engines.columns.join import orbit_of  # noqa: E402
from bombbuster_core.facts import compile_table  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402


def direct(code: int, groups: list[tuple[int, int, int]]) -> int:
    """An orbit size from the code's fields, group by group: the engine's code until issue 12."""
    size = 1
    for shift, g, width in groups:
        mask = (1 << width) - 1
        seen: dict[int, int] = {}
        for x in range(g):
            v = (code >> (shift + x * width)) & mask
            seen[v] = seen.get(v, 0) + 1
        size *= factorial(g)
        for m in seen.values():
            size //= factorial(m)
    return size


def best_ms(repeat: int, fn) -> float:
    return 1000 * best_of(repeat, fn)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, best of {args.repeat}, milliseconds")
    print(f"{'state':36} {'groups':>8} {'configs':>7} {'direct':>7} {'table':>7} {'join':>7}")
    for name, raw in states().items():
        swept = columns.Swept(compile_table(load_table(raw)))
        if not swept.group_fields:
            continue
        join = best_ms(args.repeat, swept.beliefs)
        configs = list(swept.orbits)

        def table() -> None:
            orbit_of.cache_clear()
            for code in configs:
                swept.orbit(code)

        old = best_ms(args.repeat, lambda: [direct(code, swept.group_fields) for code in configs])
        assert all(direct(code, swept.group_fields) == swept.orbit(code) for code in configs)
        sizes = "+".join(str(g) for _, g, _ in swept.group_fields)
        print(f"{name:36} {sizes:>8} {len(configs):7d} {old:7.1f} {best_ms(args.repeat, table):7.1f} {join:7.1f}",
              flush=True)


if __name__ == "__main__":
    main()
