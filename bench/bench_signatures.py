"""Benchmark of the "signatures" engine against "columns" (not a test).

    python bench/bench_signatures.py [--repeat N] [--quick]

Four sections, on the legal games of ``bench_analyze`` (its states and wire
set: 53 wires, 4/5 players).  Sections 1-3 report CPU seconds, which other
work on a shared machine hardly moves; section 4 wall seconds.

1. side by side: seconds per analysis for columns and signatures (cold
   cache, and warm: the same table again, as when the app re-analyses) on
   the same states, or where signatures stops at its budget and why;
2. boundary: every prefix of long games, by hidden-slot count: where the
   signature engine finishes and where it hits its budget;
3. phase 2 kernels: packed ints vs tuples, key-by-key join vs all pairs;
4. parallel: the serial executor vs a 2-process pool (cold cache).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any, Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_analyze import WIRES, hidden_slots, states  # noqa: E402  (also puts the repo on sys.path)

from gamegen import random_game  # noqa: E402

from bombbuster_core.engines import columns, signatures  # noqa: E402
from bombbuster_core.engines.signatures import EngineLimit, Packing, SignatureCache  # noqa: E402
from bombbuster_core.executor import ProcessExecutor, SerialExecutor, process_pool_available  # noqa: E402
from bombbuster_core.facts import Problem, compile_table  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402


def problem_of(raw: dict[str, Any]) -> Problem:
    return compile_table(load_table(raw))


def signatures_cold(problem: Problem, **kw: Any) -> None:
    signatures.analyze(problem, cache=SignatureCache(), **kw)


def best_of(repeat: int, fn: Callable[[], Any], clock: Callable[[], float] = time.process_time) -> float:
    """Best time of ``repeat`` runs; CPU time by default, which other load on a shared machine hardly moves."""
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        fn()
        best = min(best, clock() - t0)
    return best


def timed(repeat: int, fn: Callable[[], None], clock: Callable[[], float] = time.process_time) -> str:
    """Best time as text, or the budget error (with how long it took to refuse)."""
    t0 = clock()
    try:
        return f"{best_of(repeat, fn, clock):8.3f}"
    except EngineLimit as e:
        return f"too large after {clock() - t0:.2f} s: {str(e).split('(')[1].split(')')[0]}"


def side_by_side(repeat: int) -> None:
    print(f"\n1. CPU seconds per analysis (best of {repeat}); signatures cold = empty cache, warm = cached")
    print(f"{'state':36} {'hidden':>6} {'columns':>8} {'sig cold':>8} {'sig warm':>8}")
    for name, raw in states().items():
        problem = problem_of(raw)
        col = timed(repeat, lambda: columns.analyze(problem))
        cold = timed(repeat, lambda: signatures_cold(problem))
        cache = SignatureCache()
        warm = timed(repeat, lambda: signatures.analyze(problem, cache=cache)) if "too large" not in cold else ""
        print(f"{name:36} {hidden_slots(raw):6d} {col} {cold} {warm}", flush=True)


def long_game(players: int, observer: bool, seed: int) -> dict[str, Any]:
    raw, _ = random_game(random.Random(f"boundary-{players}-{observer}-{seed}"), players=players, wires=WIRES,
                         me=0 if observer else False, setup_tokens=True, turns=45,
                         move_weights={"success": 6, "failure": 2, "solo": 1, "reveal_red": 1})
    return raw


def boundary(games: int, stride: int) -> None:
    print(f"\n2. boundary: every event prefix (step {stride}) of {games} long games per layout "
          "(default budget, warm cache)")
    outcome: dict[int, list[float | None]] = {}  # hidden slots -> seconds (None: too large)
    for players in (4, 5):
        for observer in (True, False):
            for seed in range(games):
                raw = long_game(players, observer, seed)
                cache = SignatureCache()
                for n in range(len(raw["events"]), -1, -stride):
                    prefix = {**raw, "events": raw["events"][:n]}
                    problem = problem_of(prefix)
                    t0 = time.process_time()
                    try:
                        signatures.analyze(problem, cache=cache)
                        seconds: float | None = time.process_time() - t0
                    except EngineLimit:
                        seconds = None
                    outcome.setdefault(hidden_slots(prefix), []).append(seconds)
    print(f"{'hidden':>6} {'states':>6} {'finished':>8} {'median s':>8} {'max s':>8}  (CPU)")
    for hidden in sorted(outcome):
        done = [s for s in outcome[hidden] if s is not None]
        print(f"{hidden:6d} {len(outcome[hidden]):6d} {len(done):8d} "
              f"{statistics.median(done) if done else float('nan'):8.3f} {max(done, default=float('nan')):8.3f}")
    ok = [h for h, v in outcome.items() if all(s is not None for s in v)]
    failing = [h for h, v in outcome.items() if any(s is None for s in v)]
    print(f"every state finished up to {min(failing, default=max(outcome)) - 1} hidden slots; "
          f"largest finished {max((h for h, v in outcome.items() if any(s is not None for s in v)), default=0)}, "
          f"smallest refused {min(failing, default='none')}; all of {sorted(ok)[-3:]} finished")


def packing(repeat: int) -> None:
    print(f"\n3. phase 2 on a 24-hidden-slot state (5p observer, 19 events; best of {repeat})")
    raw = long_game(5, True, 0)
    problem = problem_of({**raw, "events": raw["events"][:19]})
    copies = tuple(sorted(problem.copies.items()))
    pk = Packing(copies)
    tables = []
    for block in signatures._blocks(problem):
        table: dict[int, int] = {}
        for rows, w in signatures.block_signatures(signatures._spec(problem, block, copies), 10**7):
            table[sum(rows)] = table.get(sum(rows), 0) + w
        tables.append(table)
    tables.sort(key=len)
    forward: dict[int, int] = {0: 1}
    for table in tables[:-2]:
        forward = signatures._join(forward, table, pk, signatures._Steps(10**12), room=(0, pk.deck))[0]
    left, right, keep = forward, tables[-2], tables[-1]
    deck, deck_guarded, guard = pk.deck, pk.deck_guarded, pk.guard

    # Packed ints vs tuples: all sums <= deck of two tables, pair by pair.
    small, large = tables[-3], tables[-2]
    unpack = lambda code: tuple((code >> s) & m for s, m in zip(pk.shifts, pk.masks))  # noqa: E731
    small_t = {unpack(a): w for a, w in small.items()}
    large_t = {unpack(r): w for r, w in large.items()}
    deck_t = unpack(deck)

    def with_tuples() -> dict[tuple[int, ...], int]:
        out: dict[tuple[int, ...], int] = {}
        for a, wa in small_t.items():
            for r, wr in large_t.items():
                s = tuple(x + y for x, y in zip(a, r))
                if all(x <= d for x, d in zip(s, deck_t)):
                    out[s] = out.get(s, 0) + wa * wr
        return out

    def with_ints() -> dict[int, int]:
        out: dict[int, int] = {}
        for a, wa in small.items():
            for r, wr in large.items():
                s = a + r
                if (deck_guarded - s) & guard == guard:
                    out[s] = out.get(s, 0) + wa * wr
        return out

    packed = best_of(repeat, with_ints)
    tuples = best_of(repeat, with_tuples)
    print(f"sums <= deck, {len(small)} x {len(large)} pairs, {len(copies)} keys: packed ints {packed:.3f} s, "
          f"tuples {tuples:.3f} s ({tuples / packed:.0f}x)")

    def all_pairs() -> dict[int, int]:
        out: dict[int, int] = {}
        for a, wa in left.items():
            for r, wr in right.items():
                s = a + r
                if (deck_guarded - s) & guard == guard and deck - s in keep:
                    out[s] = out.get(s, 0) + wa * wr
        return out

    def key_by_key() -> dict[int, int]:
        return signatures._join(left, right, pk, signatures._Steps(10**12), keep=keep)[0]

    joined = best_of(repeat, key_by_key)
    assert key_by_key() == all_pairs()
    plain = best_of(1, all_pairs)
    print(f"3-table join {len(left)} x {len(right)} (third table {len(keep)}): all pairs {plain:.3f} s, "
          f"key-by-key join {joined:.3f} s ({plain / joined:.0f}x)")


# The heaviest prefixes of the boundary games that finish within the default budget:
# (players, observer, game seed, events).
HEAVY = [(5, True, 2, 15), (5, False, 0, 16), (5, True, 2, 17), (4, False, 1, 18)]


def parallel(repeat: int) -> None:
    if not process_pool_available():
        print("\n4. parallel: no process pool in this interpreter")
        return
    print(f"\n4. serial vs 2-process pool, cold cache (wall seconds, best of {repeat}; pool already started)")
    print(f"{'state':36} {'hidden':>6} {'serial':>8} {'pool':>8}")
    cases = [(name, raw) for name, raw in states().items()]
    for players, observer, seed, events in HEAVY:
        raw = long_game(players, observer, seed)
        cases.append((f"{players}p {'observer' if observer else 'public'} game {seed}, {events} events",
                      {**raw, "events": raw["events"][:events]}))
    with ProcessExecutor(2) as pool:
        for name, raw in cases:
            problem = problem_of(raw)
            serial = timed(repeat, lambda: signatures_cold(problem, executor=SerialExecutor()), time.perf_counter)
            if "too large" in serial:
                continue
            signatures_cold(problem, executor=pool)  # start the workers outside the timing
            pooled = timed(repeat, lambda: signatures_cold(problem, executor=pool), time.perf_counter)
            print(f"{name:36} {hidden_slots(raw):6d} {serial} {pooled}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="fewer boundary games")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    side_by_side(args.repeat)
    boundary(1 if args.quick else 3, 3 if args.quick else 2)
    packing(args.repeat)
    parallel(args.repeat)


if __name__ == "__main__":
    main()
