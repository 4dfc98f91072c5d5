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

``--greedy-log OTHER`` takes greedy's games from OTHER instead, a log of the
same mission, player count, seed, equipment and simulator (e.g. a later
greedy's games on the same deals), over the deals both logs hold; the sides
are then named with their versions.  The search's games keep the greedy of
their date in their own choices and rollouts: such a pair measures the search
as it was played against greedy as it plays now.  The policy may be greedy
itself: ``search_gain.py NEW.log greedy --greedy-log OLD.log`` pairs two
versions of greedy.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from paired import by_policy, report, wins  # noqa: E402  (first: it puts the repository on sys.path)


# The settings that make two logs' game i the same deal under the same rules.
CELL = ("mission", "players", "seed", "equipment", "sim")


def same_game(a: dict, b: dict) -> bool:
    return all(a[k] == b[k] for k in ("result", "failed_cuts", "turns", "decisions"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log", help="greedy's and the search policy's games of the same deals")
    parser.add_argument("policy", help="the search policy's name in the log (lookahead, ismcts)")
    parser.add_argument("--deals-of", metavar="LOG",
                        help="only the deals this other log's search played (two budgets on the same deals)")
    parser.add_argument("--greedy-log", metavar="LOG",
                        help="greedy's games from this other log of the same cell (another version of greedy)")
    args = parser.parse_args(argv)
    by = by_policy(args.log, ("greedy", args.policy), "search_gain")
    if by is None:
        return 2
    searched, baseline = by[args.policy], by["greedy"]
    if args.greedy_log:
        other_greedy = by_policy(args.greedy_log, ("greedy",), "search_gain")
        if other_greedy is None:
            return 2
        baseline = other_greedy["greedy"]
    games = sorted(set(baseline) & set(searched))
    if args.deals_of:
        other = by_policy(args.deals_of, (args.policy,), "search_gain")
        if other is None:
            return 2
        games = [g for g in games if g in other[args.policy]]
    if not games:
        print(f"search_gain: {args.log}: no game both greedy and {args.policy} played", file=sys.stderr)
        return 2
    s = searched[games[0]]["settings"]
    names = (args.policy, "greedy")
    if args.greedy_log:
        for game in games:
            mine, theirs = searched[game]["settings"], baseline[game]["settings"]
            differ = [k for k in CELL if mine.get(k) != theirs.get(k)]
            if differ:
                print(f"search_gain: game {game}: {args.greedy_log} holds it with other {', '.join(differ)} "
                      f"than {args.log}", file=sys.stderr)
                return 2
        names = (f"{args.policy} v{s.get('version', 1)}",
                 f"greedy v{baseline[games[0]]['settings'].get('version', 1)}")
    print(f"M{s['mission']} {s['players']}p, seed {s['seed']}, equipment {s.get('equipment')}, simulator "
          f"v{s.get('sim', 1)}, {args.policy} budget {s.get('budget', {})}: {len(games)} paired games")
    search, greedy = [searched[g] for g in games], [baseline[g] for g in games]
    report((names[0], search), (names[1], greedy))
    same = sum(same_game(a, b) for a, b in zip(search, greedy))
    print(f"  greedy's very game: {same} of {len(games)}")
    up = sum(a and not b for a, b in zip(wins(search), wins(greedy)))
    down = sum(b and not a for a, b in zip(wins(search), wins(greedy)))
    print(f"  won by {names[0]} only: {up}; by {names[1]} only: {down}")
    per_game = [r["seconds"] / max(1, r["decisions"]) for r in search]
    print(f"  {names[0]}: median game's seconds per decision {statistics.median(per_game):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
