"""What a search policy (lookahead, ismcts) gains over greedy on the same deals (issue 20 item 4).

    python bench/search_gain.py bench/tournaments/m8-greedy-ismcts-equipment.log ismcts

The log holds greedy's and the search policy's games of one mission, player
count and seed (greedy's may be copied in from its own log and the run
``--resume``d).  Their greedy choices share greedy's random stream
(tournament.py), so a search game is greedy's game move for move until the
search chooses another move.  Prints, over the games both played: each
side's win rate with its 95 % Wilson interval and losses by kind; the paired
difference search − greedy with Newcombe's interval; how many games were
greedy's very game (same result, failed cuts, turns and decisions: the search
kept greedy's move throughout, or its other moves changed nothing that shows);
the discordant pairs (won by one side only); and the median CPU seconds per
decision of the search's games (each game's mean, as the tournament's
"median game" column).  ``--deals-of OTHER`` keeps the deals OTHER's search
played (the same seed: e.g. the endgame search on the full search's deals).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from paired import by_policy, report, wins  # noqa: E402  (first: it puts the repository on sys.path)


def same_game(a: dict, b: dict) -> bool:
    return all(a[k] == b[k] for k in ("result", "failed_cuts", "turns", "decisions"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log", help="greedy's and the search policy's games of the same deals")
    parser.add_argument("policy", help="the search policy's name in the log (lookahead, ismcts)")
    parser.add_argument("--deals-of", metavar="LOG",
                        help="only the deals this other log's search played (two budgets on the same deals)")
    args = parser.parse_args(argv)
    by = by_policy(args.log, ("greedy", args.policy), "search_gain")
    if by is None:
        return 2
    games = sorted(set(by["greedy"]) & set(by[args.policy]))
    if args.deals_of:
        other = by_policy(args.deals_of, (args.policy,), "search_gain")
        if other is None:
            return 2
        games = [g for g in games if g in other[args.policy]]
    if not games:
        print(f"search_gain: {args.log}: no game both greedy and {args.policy} played", file=sys.stderr)
        return 2
    s = by[args.policy][games[0]]["settings"]
    print(f"M{s['mission']} {s['players']}p, seed {s['seed']}, equipment {s.get('equipment')}, simulator "
          f"v{s.get('sim', 1)}, {args.policy} budget {s.get('budget', {})}: {len(games)} paired games")
    search, greedy = [by[args.policy][g] for g in games], [by["greedy"][g] for g in games]
    report((args.policy, search), ("greedy", greedy))
    same = sum(same_game(by["greedy"][g], by[args.policy][g]) for g in games)
    print(f"  greedy's very game: {same} of {len(games)}")
    up = sum(a and not b for a, b in zip(wins(search), wins(greedy)))
    down = sum(b and not a for a, b in zip(wins(search), wins(greedy)))
    print(f"  won by {args.policy} only: {up}; by greedy only: {down}")
    per_game = [by[args.policy][g]["seconds"] / max(1, by[args.policy][g]["decisions"]) for g in games]
    print(f"  {args.policy}: median game's seconds per decision {statistics.median(per_game):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
