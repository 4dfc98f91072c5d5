"""Benchmark: what a per-key cache of the columns sweeps could reuse after one more event (not a test).

    python bench/bench_incremental.py [--games N] [--events N]

Issue 12 item 3 asks for the forward tables to be reused up to the first key
a new fact touches.  The states after key t are a function of the plan's
code layout and the inputs of keys 0..t (per stand: the fills it may have,
the slots that may take the key, what must be filled, counters, exclusions,
run rules; per key: order, value and count checks).  For random 5-player
games (bench_analyze.py's wire set, setup tokens, public and observer views,
alternately), each table with one more event is compared with the one
before: how many keys of each sweep (forward, mirrored) have the same
layout and the same inputs, and the share of sweep time those keys take
(timed per key on the new table).  That share bounds what an exact per-key
cache keyed by those inputs could save on a typical event.  A looser bound
follows: the share of the keys whose states (codes and weights) come out
the same as before, however their inputs changed, which no cache could
know without sweeping.  Nothing is cached here.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "bench"), os.path.join(ROOT, "tests")]

from bench_analyze import WIRES  # noqa: E402
from gamegen import random_game  # noqa: E402

from bombbuster_core.engines.columns.plan import Plan  # noqa: E402
from bombbuster_core.engines.columns.prepare import Prepared, Zero  # noqa: E402
from bombbuster_core.engines.columns.sweep import Tracker, step  # noqa: E402
from bombbuster_core.facts import compile_table  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402

_stands: dict[int, list[dict]] = {}  # id(plan) -> per key, the stand layers Plan._layer was given
_layer = Plan._layer


def _recording_layer(self: Plan, copies: int, stands: dict, trackers: set[int]) -> Any:
    _stands.setdefault(id(self), []).append(stands)
    return _layer(self, copies, stands, trackers)


def _tracker(t: Tracker) -> tuple:
    return (t.shift, t.mask, t.cap, t.lo, t.hi, t.bounded)


def layout(plan: Plan) -> tuple:
    prep = plan.prep
    return (plan.mirrored, prep.width, len(prep.exclusions), tuple(prep.free), tuple(map(tuple, prep.groups)),
            tuple(sorted(plan.shift.items())), tuple(sorted(plan.flag.items())),
            tuple(_tracker(t) for t, _ in plan.trackers))


def inputs(plan: Plan) -> list[tuple]:
    """Per key in sweep order: everything its step reads, as plain values."""
    out = []
    for layer, stands in zip(plan.layers, _stands[id(plan)]):
        rows = tuple((s, st.shift, st.mask, st.fills.start, st.fills.stop, st.put, st.need,
                      tuple(tuple(_tracker(x) for x in c) for c in st.counts), st.moving, st.keeps, st.flag, st.top,
                      None if st.runs is None else tuple(None if e is None else tuple(e) for e in st.runs))
                     for s, st in sorted(stands.items()))
        out.append((layer.copies, rows, tuple(sorted(layer.trackers)), tuple(_tracker(t) for t in layer.closes),
                    tuple(layer.orders), tuple(layer.resolves), tuple((c.shift, c.mask, c.packed) for c in layer.checks)))
    return out


def same_keys(old: Plan, new: Plan) -> int:
    """Keys at the start of the sweep whose states would be the same: same layout, same inputs."""
    if layout(old) != layout(new):
        return 0
    n = 0
    for a, b in zip(inputs(old), inputs(new)):
        if a != b:
            break
        n += 1
    return n


def same_states(old: list, new: list) -> int:
    """Keys at the start of the sweep after which the states are equal (codes and weights)."""
    n = 0
    while n < len(new) - 1 and n < len(old) - 1 and old[n + 1] == new[n + 1]:
        n += 1
    return n


def key_seconds(plan: Plan) -> list[float]:
    cur = {0: plan.prep.one}
    out = []
    for layer in plan.layers:
        t0 = time.perf_counter()
        cur = step(layer, cur)
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--events", type=int, default=20, help="events per game compared (from the start)")
    args = ap.parse_args()
    Plan._layer = _recording_layer  # type: ignore[method-assign]
    shares: list[float] = []
    saved = total = states_saved = 0.0
    kinds: dict[str, list[float]] = {}
    for seed in range(args.games):
        rng = random.Random(seed)
        table, _ = random_game(rng, players=5, wires=WIRES, me=False if seed % 2 == 0 else 0, setup_tokens=True,
                               turns=30, move_weights={"success": 6, "failure": 2, "solo": 1, "reveal_red": 1})
        events = table["events"][:args.events + 1]
        before = None
        for n in range(len(events) + 1):
            try:
                prep = Prepared(compile_table(load_table(dict(table, events=events[:n]))))
                plans = (Plan(prep, False), Plan(prep, True))
            except Zero:
                before = None
                continue
            sweeps = [p.sweep() for p in plans]
            if before is not None:
                seconds = [key_seconds(p) for p in plans]
                reusable = sum(sum(s[:same_keys(b, p)]) for (b, _), p, s in zip(before, plans, seconds))
                states_saved += sum(sum(s[:same_states(bs, w) if layout(b) == layout(p) else 0])
                                    for (b, bs), p, w, s in zip(before, plans, sweeps, seconds))
                whole = sum(map(sum, seconds))
                shares.append(reusable / whole)
                saved, total = saved + reusable, total + whole
                e = events[n - 1]
                kind = e["type"] + ({True: " success", False: " failure"}.get(e.get("success"), ""))
                kinds.setdefault(kind, []).append(reusable / whole)
            before = list(zip(plans, sweeps))
    print(f"{len(shares)} events; sweep time on keys with unchanged inputs: {saved / total:.1%} overall, "
          f"median {statistics.median(shares):.1%} per event, {sum(s == 0 for s in shares)} events with none; "
          f"on keys whose states came out unchanged: {states_saved / total:.1%}")
    for kind, values in sorted(kinds.items()):
        print(f"  {kind:22} {len(values):4d} events  mean {statistics.mean(values):6.1%}")


if __name__ == "__main__":
    main()
