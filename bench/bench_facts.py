"""Benchmark: the cost of order and value facts in the columns engine (not a test).

    python bench/bench_facts.py [--repeat N] [--states "PART;PART..."] [--missions on|off|only]

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

Then mission setups with x-count tokens (``--missions``, default on): missions 24
and 40 (every player puts an x1/x2/x3 token on one of their blue wires at
setup), 4 and 5 players, observer and public view, one deal each (seed 1):
``analysis.analyze(load_table(...))`` with and without the tokens, best of N,
wall and CPU (process) time, so a loaded machine shows in the wall column only.
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

from bombbuster_core.analysis import analyze  # noqa: E402
from bombbuster_core.engines import columns  # noqa: E402
from bombbuster_core.missions import new_table  # noqa: E402
from bombbuster_core.facts import Order, Pos, Problem, SameValue, SameValueCount, compile_table  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402
from bombbuster_core.wires import RED, parse_key, value_of  # noqa: E402


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


def mission_tables(mission: int, players: int, seed: int = 1) -> dict[str, dict]:
    """A mission's table after setup tokens: an x-count token on a random blue wire of each
    player's first stand, true of one random deal; "observer" (player 0's view) and "public"."""
    rng = random.Random(seed)
    table = new_table(mission, players)
    wires = table["wires"]
    keys = [v for v in wires["blue"] for _ in range(4)] + list(wires.get("yellow", [])) + list(wires.get("red", []))
    for pool in wires.get("uncertain", []):
        keys += rng.sample(pool["candidates"], pool["count"])
    rng.shuffle(keys)
    hands, i = [], 0
    for p in table["players"]:
        row = []
        for n in p["stands"]:
            n = n if isinstance(n, int) else n["size"]
            row.append(sorted(keys[i:i + n], key=parse_key))
            i += n
        hands.append(row)
    events = []
    for p, row in enumerate(hands):
        stand = row[0]
        j = rng.choice([j for j, k in enumerate(stand) if isinstance(k, int)])
        events.append({"type": "info_token", "at": {"player": p, "stand": 0, "slot": j}, "count": stand.count(stand[j])})
    out = {}
    for view in ("observer", "public"):
        t = dict(table, events=events)
        if view == "observer":
            t["me"] = {"player": 0, "stands": hands[0]}
        out[view] = t
    return out


def best_wall_cpu(repeat: int, raw: dict) -> tuple[float, float]:
    wall = cpu = float("inf")
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        analyze(load_table(raw))
        wall, cpu = min(wall, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
    return wall, cpu


def missions(repeat: int) -> None:
    print(f"\nmission setups, analysis.analyze(load_table(t)), best of {repeat}, seconds; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cpus")
    print(f"{'table':24} {'no tokens wall':>14} {'cpu':>6} {'tokens wall':>12} {'cpu':>6} {'cpu x':>6}")
    for mission, players in ((24, 4), (24, 5), (40, 4), (40, 5)):
        for view, raw in mission_tables(mission, players).items():
            base = best_wall_cpu(repeat, dict(raw, events=[]))
            got = best_wall_cpu(repeat, raw)
            print(f"{f'M{mission} {players}p {view}':24} {base[0]:14.3f} {base[1]:6.3f} {got[0]:12.3f} {got[1]:6.3f} "
                  f"{got[1] / base[1]:6.1f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--states", default="", help="';'-separated parts of state names (default: all)")
    ap.add_argument("--missions", choices=("on", "off", "only"), default="on",
                    help="mission setups with x-count tokens (M24, M40)")
    args = ap.parse_args()
    if args.missions == "only":
        missions(args.repeat)
        return
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
    if args.missions == "on":
        missions(args.repeat)


if __name__ == "__main__":
    main()
