"""Diagnosis: what the lookahead sees — its estimated gains over greedy's move at two budgets (not a test).

    python bench/bench_sim_gains.py [--mission 4] [--players 4] [--small 16] [--big 128] [--games 6]

On open decisions of greedy self-play (game ``500 + i`` of the mission, after
2, 8 and 14 greedy turns, skipped when the move is certain), the lookahead's
candidates (greedy's move first) with their exact P(success), and each
alternative's estimated gain in worth over greedy's move ± its paired
standard error, once with ``--small`` deals (the tournament's budget) and once
with ``--big`` deals and other random numbers (a sharper estimate of the same
thing).  A small-budget gain beyond z = 1 standard error that the big budget
does not confirm is a switch made on noise.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

import bench_analyze  # noqa: E402,F401  (puts the repository and tests/ on sys.path)
from test_lookahead import greedy_game  # noqa: E402

from bombbuster_core.sim.lookahead import LookaheadPolicy  # noqa: E402
from bombbuster_core.sim.view import View  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mission", type=int, default=4)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--small", type=int, default=16)
    ap.add_argument("--big", type=int, default=128)
    ap.add_argument("--games", type=int, default=6)
    args = ap.parse_args()
    t0 = time.time()
    print("turns  P(success) of the candidates  | gain ± se, small budget | gain ± se, big budget")
    for i in range(args.games):
        for turns in (2, 8, 14):
            game = greedy_game(args.mission, args.players, turns, 500 + i)
            if game.over:
                continue
            view = View(game.table(game.turn), game.turn)
            rows = []
            for deals, seed in ((args.small, i), (args.big, i + 99)):
                decision = LookaheadPolicy(random.Random(seed), deals=deals, depth=args.players, z=0).decide(view)
                rows.append(decision.candidates)
            if not rows[0]:
                continue
            p = " ".join(f"{c['p_success']:.2f}" for c in rows[0])
            est = [" ".join(f"{c['gain']:+.3f}±{c['se']:.3f}" for c in r[1:]) for r in rows]
            print(f"{turns:5d}  {p:28} | {est[0]:23} | {est[1]}", flush=True)
    print(f"wall {time.time() - t0:.0f} s, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
