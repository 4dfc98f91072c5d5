"""Benchmark: the cost of order and value facts in the columns engine (not a test).

    python bench/bench_facts.py [--repeat N] [--states "PART;PART..."]

On the states of bench/bench_analyze.py (the real 53-wire set), it times
``columns.analyze`` on the compiled problem as is, then with facts added
that are true of the game's deal (so the problem stays consistent), chosen
among hidden slots so that no preprocessing decides them away:

* orders: a simulated Grappling Hook: a hidden wire moved between two
  hidden wires of another stand (2 Order facts), and a second one moved to
  the end of a stand next to a hidden wire (1 more);
* counts: 2 SameValueCount facts, "the value of this hidden wire occurs c
  times on its stand" (an x-count token), on two stands; as the compiler
  does, the token's wire is not red (its domain loses the red keys);
* values: 2 SameValue facts on adjacent hidden wires (equal/different labels);
* all: the seven together.

Each column is the best of N runs in seconds, with its ratio to the base problem.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench")]

import bench_analyze  # noqa: E402  (its states; it puts tests/ on the path for gamegen)
from gamegen import random_game  # noqa: E402

from bombbuster_core.engines import columns  # noqa: E402
from bombbuster_core.facts import Order, Pos, Problem, SameValue, SameValueCount, compile_table  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402
from bombbuster_core.wires import RED, value_of  # noqa: E402


def deals(seed: int = 1) -> dict[str, list[list[int]]]:
    """The true deal of each benchmark state, as rows of keys (tenths) per stand id."""
    out = {}
    for name, (players, observer, tokens, turns) in bench_analyze.STATES.items():
        _, deal = random_game(random.Random(f"{seed}-{players}-{turns}"), players=players, wires=bench_analyze.WIRES,
                              me=0 if observer else False, setup_tokens=tokens, turns=turns,
                              move_weights={"success": 6, "failure": 2, "solo": 1, "reveal_red": 1})
        out[name] = [[round(k * 10) for k in stand] for player in deal for stand in player]
    return out


def added_facts(problem: Problem, deal: list[list[int]], rng: random.Random) -> dict[str, dict]:
    """Problem.replace keyword arguments for each fact kind (empty where the state has too few hidden wires)."""
    hidden = {(s, j) for s, row in enumerate(deal) for j in range(len(row)) if len(problem.domain((s, j))) > 1}
    key = lambda p: deal[p[0]][p[1]]  # noqa: E731
    stands = sorted({s for s, _ in hidden})
    orders: list[Order] = []
    for ends in (False, True):  # a move between two wires, then one to the end of a stand
        for _ in range(200):
            p = rng.choice(sorted(hidden))
            t = rng.choice([s for s in stands if s != p[0]] or [p[0]])
            row = deal[t]
            spots = [i for i in range(1, len(row)) if row[i - 1] <= key(p) <= row[i]
                     and (t, i - 1) in hidden and (t, i) in hidden]
            if ends:
                spots = [len(row)] if row[-1] <= key(p) and (t, len(row) - 1) in hidden else \
                        [0] if key(p) <= row[0] and (t, 0) in hidden else []
            if spots:
                i = rng.choice(spots)
                orders += [Order((t, i - 1), p)] if i > 0 else []
                orders += [Order(p, (t, i))] if i < len(row) else []
                break
    counts = []
    domains = dict(problem.domains)
    holders = sorted({s for s, j in hidden if value_of(deal[s][j]) != RED})
    for s in rng.sample(holders, min(2, len(holders))):
        at = rng.choice(sorted(p for p in hidden if p[0] == s and value_of(key(p)) != RED))
        slots = frozenset((s, j) for j in range(len(deal[s])))
        counts.append(SameValueCount(at, slots, sum(value_of(key(q)) == value_of(key(at)) for q in slots)))
        domains[at] = frozenset(k for k in problem.domain(at) if value_of(k) != RED)
    pairs = [(p, (p[0], p[1] + 1)) for p in sorted(hidden) if (p[0], p[1] + 1) in hidden]
    values = [SameValue(a, b, value_of(key(a)) == value_of(key(b))) for a, b in rng.sample(pairs, min(2, len(pairs)))]
    return {"orders": {"orders": tuple(orders)}, "counts": {"values": tuple(counts), "domains": domains},
            "values": {"values": tuple(values)},
            "all": {"orders": tuple(orders), "values": tuple(counts + values), "domains": domains}}


def best_of(repeat: int, problem: Problem) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        columns.analyze(problem)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--states", default="", help="';'-separated parts of state names (default: all)")
    args = ap.parse_args()
    wanted = [s for s in args.states.split(";") if s]
    print(f"python {sys.version.split()[0]}, columns engine, best of {args.repeat}, seconds (x base)")
    kinds = ["orders", "counts", "values", "all"]
    print(f"{'state':36} {'base':>7} " + " ".join(f"{k:>15}" for k in kinds))
    true_deals = deals()
    for name, raw in bench_analyze.states().items():
        if wanted and not any(part in name for part in wanted):
            continue
        problem = compile_table(load_table(raw))
        facts = added_facts(problem, true_deals[name], random.Random(name))
        base = best_of(args.repeat, problem)
        cells = []
        for kind in kinds:
            with_facts = problem.replace(**facts[kind])
            n = len(with_facts.orders) + len(with_facts.values)  # facts added
            t = best_of(args.repeat, with_facts)
            cells.append(f"{t:7.3f} {t / base:5.1f}x{n:1d}")
        print(f"{name:36} {base:7.3f} " + " ".join(f"{c:>15}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
