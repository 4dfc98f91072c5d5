"""How much better than greedy's move a root candidate is, and how many rollouts it takes to tell (issue 20).

    python bench/search_resolution.py [--mission 8] [--players 5] [--games 3] [--deals 100] [--horizon 6]

At the open decisions of bench_ismcts.py (greedy self-play, equipment dealt,
no certain move), every root candidate of the ismcts policy (greedy's move
first, then its other calls, its Double Detector use and one use of each
usable card) is played on the same ``deals`` determinizations drawn exactly
from the acting player's posterior, each followed by the same seeded rollout
(every player greedy from their own view, up to ``horizon`` turns; the value
is ismcts's: a win 1, a loss 0, an unfinished game its leaf value).  These are
common random numbers: per candidate, the mean of the paired differences
against greedy's move estimates its gain, with the standard error of that
mean.

Per decision it prints each candidate's gain ± standard error and the
standard deviation of one paired difference; then, over the decisions, the
best candidate's gain and how many rollouts per candidate a search would
need for that gain to clear one standard error of an unpaired estimate (as
UCT's are): ``2 sd_1^2 / gain^2`` with ``sd_1`` the standard deviation of one
rollout's value.  Quote the load average printed with it.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

import bench_analyze  # noqa: E402,F401  (puts the repository and tests/ on sys.path)
from bench_ismcts import open_views  # noqa: E402

from bombbuster_core.engines.sampling import Sampler  # noqa: E402
from bombbuster_core.facts import compile_table  # noqa: E402
from bombbuster_core.sim.replay import Replay  # noqa: E402
from bombbuster_core.sim.ismcts import IsmctsPolicy  # noqa: E402
from bombbuster_core.sim.greedy import choice, greedy_equipment, greedy_turn  # noqa: E402
from bombbuster_core.sim.rollout import exact_move, outcome_value  # noqa: E402


def rollout_values(view, moves, deals: int, horizon: int, rng: random.Random) -> list[list[float]]:
    """Per move, per determinization: the rollout's value (the same deal and rollout seed for every move)."""
    sampler = Sampler(compile_table(view.table))
    position = Replay(view.raw, view.table, view.player, view.tags())
    out: list[list[float]] = [[] for _ in moves]
    for _ in range(deals):
        deal, seed = sampler.draw(rng), rng.randrange(2**63)
        for i, move in enumerate(moves):
            game_rng = random.Random(seed)
            game = position.game(deal, game_rng)
            start = game.turns
            game.play(move)
            while not game.over and game.turns - start < horizon:
                game.play(exact_move(game, game_rng))
            out[i].append(outcome_value(game))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mission", type=int, default=8)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--horizon", type=int, default=6)
    args = ap.parse_args()
    views = open_views(args.mission, args.players, args.games)
    print(f"M{args.mission} {args.players}p, {len(views)} open decisions, {args.deals} common deals, horizon "
          f"{args.horizon}; load average before: {os.getloadavg()[0]:.2f}")
    needed, best_gains = [], []
    for k, view in enumerate(views):
        policy = IsmctsPolicy(random.Random(k))
        pending = view.pending()
        ranked = policy.legal_ranking(view, pending)
        use = greedy_equipment(view, pending, ranked, choice)
        plain = greedy_turn(view, pending, ranked, choice, random.Random(0))
        moves = policy.candidates(view, pending, ranked, use if use is not None else plain, plain)
        values = rollout_values(view, moves, args.deals, args.horizon, random.Random(100 + k))
        sd_one = statistics.pstdev(values[0])
        print(f"decision {k} (player {view.player}, {len(moves)} candidates; greedy's move {moves[0]}: "
              f"mean {statistics.fmean(values[0]):.3f}, one rollout's sd {sd_one:.3f})")
        gains = []
        for move, v in zip(moves[1:], values[1:]):
            diffs = [a - b for a, b in zip(v, values[0])]
            gain, sd = statistics.fmean(diffs), statistics.pstdev(diffs)
            gains.append(gain)
            print(f"   {str(move)[:70]:70} gain {gain:+.3f} ± {sd / math.sqrt(len(diffs)):.3f}  (sd of a pair {sd:.3f})")
        best = max(gains)
        best_gains.append(best)
        if best > 0:
            needed.append(2 * sd_one ** 2 / best ** 2)
    print(f"best candidate's gain over greedy's move: median {statistics.median(best_gains):+.3f}, "
          f"above 0 at {sum(g > 0 for g in best_gains)} of {len(best_gains)} decisions")
    if needed:
        print(f"rollouts per candidate for that gain to clear one unpaired standard error: median "
              f"{statistics.median(needed):.0f} (range {min(needed):.0f}-{max(needed):.0f})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
