"""Seconds per decision of the ismcts policy at several budgets, against greedy's, on the same decisions.

    python bench/bench_ismcts.py [--mission 8] [--players 5] [--budgets 10,50,200] [--horizon 6] [--games 3]

The decisions: in game ``700 + i`` of the mission (equipment dealt), greedy
self-play up to the first turn from 4, 10 and 16 on where ismcts searches (no
certain move).  Each decision is timed for greedy and for ismcts at each
iteration budget (same seed), once; the figures are the mean seconds per
decision, wall clock and this process's CPU time (on a busy machine the wall
clock also counts the other processes' share of the cores), and the CPU
time's ratio to greedy's.  Quote the load average printed with them.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

import bench_analyze  # noqa: E402,F401  (puts the repository and tests/ on sys.path)

from bombbuster_core.sim.deal import new_game  # noqa: E402
from bombbuster_core.sim.ismcts import IsmctsPolicy  # noqa: E402
from bombbuster_core.sim.greedy import GreedyPolicy  # noqa: E402
from bombbuster_core.sim.view import View  # noqa: E402


def open_views(mission: int, players: int, games: int) -> list[View]:
    views = []
    for i in range(games):
        game = new_game(random.Random(700 + i), mission=mission, players=players)
        greedy = GreedyPolicy(random.Random(i))
        for p in game.setup_token_players():
            game.place_token(greedy.setup_token(View(game.table(p), p)))
        for first in (4, 10, 16):
            while not game.over:
                view = View(game.table(game.turn), game.turn)
                pending = view.pending()
                if game.turns >= first and pending["kind"] == "turn" and not any(
                        s["certain"] for s in greedy.legal_ranking(view, pending)):
                    views.append(view)
                    break
                game.play(greedy.move(view))
    return views


def timed(policy: GreedyPolicy, view: View) -> tuple[float, float]:
    """(wall clock, CPU) seconds of one decision."""
    t0, c0 = time.perf_counter(), time.process_time()
    policy.move(view)
    return time.perf_counter() - t0, time.process_time() - c0


def mean(times: list[tuple[float, float]]) -> tuple[float, float]:
    return sum(t for t, _ in times) / len(times), sum(c for _, c in times) / len(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mission", type=int, default=8)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--budgets", default="10,50,200")
    ap.add_argument("--horizon", type=int, default=6)
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    views = open_views(args.mission, args.players, args.games)
    print(f"M{args.mission} {args.players}p, {len(views)} open decisions, horizon {args.horizon}; "
          f"load average before: {os.getloadavg()[0]:.2f}")
    wall, cpu = mean([timed(GreedyPolicy(random.Random(0)), v) for v in views])
    print(f"{'policy':18} {'wall s/dec.':>11} {'CPU s/dec.':>10} {'CPU x greedy':>12}")
    print(f"{'greedy':18} {wall:11.3f} {cpu:10.3f} {1.0:12.1f}")
    for n in budgets:
        w, c = mean([timed(IsmctsPolicy(random.Random(0), iterations=n, horizon=args.horizon), v) for v in views])
        print(f"{f'ismcts {n} iter.':18} {w:11.3f} {c:10.3f} {c / cpu:12.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
