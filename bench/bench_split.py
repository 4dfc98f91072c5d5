"""Benchmark: what splitting one request over two workers can save (not a test).

    python bench/bench_split.py [--repeat N]

Runs the page's split protocol (bombbuster_core/bridge.py, "split") in this
process, one step after the other, and reports CPU seconds (best of N), which
other work on a shared machine hardly moves: the whole request, then each
step: the first reply (the pending round), the tasks, the request again with
the answers, round after round.  The critical path on two free cores is
every reply + each round's longer half (or its tasks shared out evenly).  Transfer
costs inside the workers (pickling, base64, JSON) are included; the page's
postMessage and main-thread JSON are not.

States: the columns analysis of bench_analyze's public states (the two
sweeps on two workers), their public-view suggestion lists (the analysis's sweeps on
two workers, the rest at home), and the entropy ranking of a 5-player public game 6
events in (the branch batches shared out).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.dirname(os.path.abspath(__file__))]

from bench_analyze import WIRES, states  # noqa: E402
from gamegen import random_game  # noqa: E402

from bombbuster_core import bridge  # noqa: E402
from bombbuster_core.engines import columns  # noqa: E402


def ask(method: str, params: dict[str, Any]) -> tuple[dict[str, Any], float]:
    t0 = time.process_time()
    reply = json.loads(bridge.handle(json.dumps({"id": 1, "method": method, "params": params})))
    return reply, time.process_time() - t0


class Worker:
    """What one page worker keeps between requests (plans, kept sweeps), swapped
    into this process while it plays that worker: the home and the other worker of a split
    request each find only what they made themselves."""

    KEPT = ((columns, "_PLANS"), (bridge, "_KEPT"))

    def __init__(self) -> None:
        self.kept = [type(getattr(module, name))() for module, name in self.KEPT]

    def ask(self, method: str, params: dict[str, Any]) -> tuple[dict[str, Any], float]:
        saved = [getattr(module, name) for module, name in self.KEPT]
        for (module, name), mine in zip(self.KEPT, self.kept):
            setattr(module, name, mine)
        try:
            return ask(method, params)
        finally:
            for (module, name), theirs in zip(self.KEPT, saved):
                setattr(module, name, theirs)


def steps(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """CPU seconds of the whole request (on a new worker) and of each step of its split form
    (a new home worker and a new other one): per round, the reply that asked for it and its
    tasks; then the last reply."""
    _, whole = Worker().ask(method, params)
    home, other = Worker(), Worker()
    answers: list[dict[str, Any]] = []
    replies, tasks = [], []
    while True:
        reply, spent = home.ask(method, {**params, "split": True, **({"answers": answers} if answers else {})})
        replies.append(spent)
        if "pending" not in reply:
            assert "result" in reply, reply
            return {"whole": whole, "replies": replies, "tasks": tasks}
        pending = reply["pending"]
        answered = [(home if task.get("home") else other).ask("task", task) for task in pending["tasks"]]
        tasks.append([s for _, s in answered])
        answers.append({"digest": pending["digest"], "results": [r["result"] for r, _ in answered]})


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"whole": min(r["whole"] for r in runs), "replies": [min(x) for x in zip(*(r["replies"] for r in runs))],
            "tasks": [[min(x) for x in zip(*ts)] for ts in zip(*(r["tasks"] for r in runs))]}


def critical_path(b: dict[str, Any], workers: int = 2) -> float:
    """Replies one after the other; each round's tasks shared out over ``workers`` (a sweep pair:
    the longer of its two)."""
    return sum(b["replies"]) + sum(max(max(ts), sum(ts) / workers) for ts in b["tasks"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print("columns analysis, two sweeps on two workers (CPU s, best of", args.repeat, ")")
    public = {name: table for name, table in states().items() if "public" in name and "game" not in name}
    for name, table in public.items():
        b = best([steps("analyze", {"table": table}) for _ in range(args.repeat)])
        if not b["tasks"]:
            print(f"  {name:26} whole {b['whole']:.3f}  not split (under SPLIT_MIN_STATES)")
            continue
        path = critical_path(b)
        rounds = "  ".join(f"reply {r:.3f}  round {i + 1}: mirrored {ts[0]:.3f} forward {ts[1]:.3f}"
                           for i, (r, ts) in enumerate(zip(b["replies"], b["tasks"])))
        print(f"  {name:26} whole {b['whole']:.3f}  {rounds}  last reply {b['replies'][-1]:.3f}  "
              f"critical path {path:.3f} = {path / b['whole']:.2f} x whole")
    print("suggestion list, public view (player 0): the analysis's sweeps on two workers")
    for name, table in public.items():
        b = best([steps("suggest", {"table": table, "player": 0}) for _ in range(args.repeat)])
        path = critical_path(b)
        rounds = "  ".join(f"round {i + 1}: reply {r:.3f} tasks {'/'.join(f'{t:.3f}' for t in ts)}"
                           for i, (r, ts) in enumerate(zip(b["replies"], b["tasks"])))
        print(f"  {name:26} whole {b['whole']:.3f}  {rounds}  last reply {b['replies'][-1]:.3f}  "
              f"critical path {path:.3f} = {path / b['whole']:.2f} x whole")
    six, _ = random_game(random.Random("1-5-6"), players=5, wires=WIRES, me=False, setup_tokens=True, turns=6,
                         move_weights={"success": 6, "failure": 2, "solo": 1, "reveal_red": 1})
    b = best([steps("suggest", {"table": six, "player": 0, "mode": "entropy"}) for _ in range(args.repeat)])
    path = critical_path(b)
    n = sum(len(ts) for ts in b["tasks"])
    print(f"entropy ranking, 5p public after 6 events: whole {b['whole']:.2f}  {len(b['replies'])} replies "
          f"{sum(b['replies']):.2f}  {n} tasks {sum(map(sum, b['tasks'])):.2f}  "
          f"critical path on 2 workers {path:.2f} = {path / b['whole']:.2f} x whole")
    return 0


if __name__ == "__main__":
    sys.exit(main())
