"""Benchmark: seconds per analysis on the hardest real states (not a test).

    python bench/bench_analyze.py [--repeat N] [--engines columns,...] [--no-cli]

States are legal games from the tests' random game generator with the real
wire set: blue 1-12 x4, yellow 3.1 and 7.1, red 5.5 and a 2-of-3 pool of
reds (2.5, 8.5, 10.5): 53 wires.  For each state it prints the in-process
analysis time per engine (best of N) and the whole CLI command
(``python -m bombbuster_core analyze FILE``, interpreter start included),
then the columns-engine targets of issue 2.  ``--engines columns,signatures``
puts both exact engines side by side ("too large": past the signatures
engine's budget; bench/bench_signatures.py says more).  Other benchmarks
import :func:`states` so every engine is measured on the same tables.
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

from gamegen import random_game  # noqa: E402  (the tests' legal-game generator)

from bombbuster_core import analysis  # noqa: E402
from bombbuster_core.engines.signatures import EngineLimit  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402

WIRES = {"blue": list(range(1, 13)), "yellow": [3.1, 7.1], "red": [5.5],
         "uncertain": [{"candidates": [2.5, 8.5, 10.5], "count": 2}]}

# name -> (players, observer?, setup tokens?, turns played)
STATES: dict[str, tuple[int, bool, bool, int]] = {
    "5p observer, no token": (5, True, False, 0),
    "5p observer, setup tokens": (5, True, True, 0),
    "5p public, setup tokens": (5, False, True, 0),
    "5p public, no token": (5, False, False, 0),
    "4p observer, no token": (4, True, False, 0),
    "4p observer, setup tokens": (4, True, True, 0),
    "4p public, setup tokens": (4, False, True, 0),
    "5p observer, mid-game (15 turns)": (5, True, True, 15),
    "5p public, mid-game (15 turns)": (5, False, True, 15),
    "5p observer, late game (35 turns)": (5, True, True, 35),
    "5p public, late game (35 turns)": (5, False, True, 35),
}

TARGETS = {  # issue 2, whole command, CPython on the 2-core machine
    "5p observer, no token": 0.3,
    "5p public, setup tokens": 0.5,
    "5p observer, late game (35 turns)": 0.05,
    "5p public, late game (35 turns)": 0.05,
}


def states(seed: int = 1) -> dict[str, dict[str, Any]]:
    """The benchmark tables (format-1 dicts), the same for every seed-equal run."""
    out = {}
    for name, (players, observer, tokens, turns) in STATES.items():
        table, _ = random_game(random.Random(f"{seed}-{players}-{turns}"), players=players, wires=WIRES,
                               me=0 if observer else False, setup_tokens=tokens, turns=turns,
                               move_weights={"success": 6, "failure": 2, "solo": 1, "reveal_red": 1})
        out[name] = table
    return out


def hidden_slots(table: dict[str, Any]) -> int:
    t = load_table(table)
    known = {(t.me, s, j) for s, row in enumerate(t.my_stands) for j in range(len(row))}
    cut = {(c.player, c.stand, c.slot) for c in t.cut_slots()}
    return sum(1 for s in t.slots() if (s.player, s.stand, s.slot) not in known | cut)


def best_of(repeat: int, fn) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def engine_cell(repeat: int, table, engine: str) -> str:
    """Best time of one engine, or "too large" where it stops at its budget (signatures)."""
    try:
        return f"{best_of(repeat, lambda: analysis.analyze(table, engine)):10.3f}"
    except EngineLimit:
        return f"{'too large':>10}"


def cli_seconds(table: dict[str, Any], repeat: int) -> float:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(table, f)
    env = dict(os.environ, PYTHONPATH=ROOT)
    try:
        return best_of(repeat, lambda: subprocess.run([sys.executable, "-m", "bombbuster_core", "analyze", f.name],
                                                      stdout=subprocess.DEVNULL, env=env, check=False))
    finally:
        os.unlink(f.name)


def interpreter_floor(repeat: int) -> float:
    """Seconds for ``python -c pass`` here: no CLI can start faster than this."""
    return best_of(repeat, lambda: subprocess.run([sys.executable, "-c", "pass"], check=False))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--engines", default="columns")
    ap.add_argument("--no-cli", action="store_true")
    args = ap.parse_args()
    engines = args.engines.split(",")
    print(f"python {sys.version.split()[0]}, best of {args.repeat}, seconds")
    if not args.no_cli:
        # An installed wheel has its bytecode compiled; match that even where
        # PYTHONDONTWRITEBYTECODE is set, so the CLI column is not compile time.
        compileall.compile_dir(os.path.join(ROOT, "bombbuster_core"), quiet=1)
        print(f"interpreter start (python -c pass): {interpreter_floor(args.repeat):.3f}")
    header = f"{'state':36} {'hidden':>6} " + " ".join(f"{e:>10}" for e in engines) + ("" if args.no_cli else f" {'CLI':>7}  target")
    print(header)
    for name, raw in states().items():
        table = load_table(raw)
        cells = [engine_cell(args.repeat, table, e) for e in engines]
        line = f"{name:36} {hidden_slots(raw):6d} " + " ".join(cells)
        if not args.no_cli:
            cli = cli_seconds(raw, args.repeat)
            target = TARGETS.get(name)
            verdict = "" if target is None else f"<= {target}  {'met' if cli <= target else 'NOT met'}"
            line += f" {cli:7.3f}  {verdict}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
