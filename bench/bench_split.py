"""Benchmark: what splitting one request over two workers can save (not a test).

    python bench/bench_split.py [--repeat N]

Runs the page's split protocol (bombbuster_core/bridge.py, "split") in this
process, one step after the other, and reports CPU seconds (best of N), which
other work on a shared machine hardly moves: the whole request, then each
step: the first reply (the pending round), the tasks, the request again with
the answers.  The critical path on two free cores is first reply + the
longer half (or the tasks shared out evenly) + the last reply.  Transfer
costs inside the workers (pickling, base64, JSON) are included; the page's
postMessage and main-thread JSON are not.

States: the columns analysis of bench_analyze's public states (the two
sweeps on two workers), and the entropy ranking of a 5-player public game 6
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


def ask(method: str, params: dict[str, Any]) -> tuple[dict[str, Any], float]:
    t0 = time.process_time()
    reply = json.loads(bridge.handle(json.dumps({"id": 1, "method": method, "params": params})))
    return reply, time.process_time() - t0


def steps(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """CPU seconds of the whole request and of each step of its split form (one round)."""
    _, whole = ask(method, params)
    reply, first = ask(method, {**params, "split": True})
    pending = reply["pending"]
    answered = [ask("task", task) for task in pending["tasks"]]
    answers = [{"digest": pending["digest"], "results": [r["result"] for r, _ in answered]}]
    last_reply, last = ask(method, {**params, "split": True, "answers": answers})
    assert "result" in last_reply and "pending" not in last_reply
    return {"whole": whole, "first": first, "tasks": [s for _, s in answered], "last": last}


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"whole": min(r["whole"] for r in runs), "first": min(r["first"] for r in runs),
            "tasks": [min(ts) for ts in zip(*(r["tasks"] for r in runs))], "last": min(r["last"] for r in runs)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print("columns analysis, two sweeps on two workers (CPU s, best of", args.repeat, ")")
    for name, table in states().items():
        if "public" not in name or "game" in name:
            continue
        b = best([steps("analyze", {"table": table}) for _ in range(args.repeat)])
        mirrored, forward = b["tasks"]
        path = b["first"] + max(mirrored, forward) + b["last"]
        print(f"  {name:26} whole {b['whole']:.3f}  first reply {b['first']:.3f}  mirrored {mirrored:.3f}  "
              f"forward {forward:.3f}  join {b['last']:.3f}  critical path {path:.3f} = {path / b['whole']:.2f} x whole")
    six, _ = random_game(random.Random("1-5-6"), players=5, wires=WIRES, me=False, setup_tokens=True, turns=6,
                         move_weights={"success": 6, "failure": 2, "solo": 1, "reveal_red": 1})
    b = best([steps("suggest", {"table": six, "player": 0, "mode": "entropy"}) for _ in range(args.repeat)])
    path = b["first"] + sum(b["tasks"]) / 2 + b["last"]
    print(f"entropy ranking, 5p public after 6 events: whole {b['whole']:.2f}  first reply {b['first']:.2f}  "
          f"{len(b['tasks'])} tasks {sum(b['tasks']):.2f}  last reply {b['last']:.2f}  "
          f"critical path on 2 workers {path:.2f} = {path / b['whole']:.2f} x whole")
    return 0


if __name__ == "__main__":
    sys.exit(main())
