"""Greedy with the stakes (issue 34) against greedy before them, paired on the same deals.

    nice python bench/stakes_gain.py --mission 8 --players 5 --seed 7 --games 400 --jobs 2 \\
        --log bench/tournaments/stakes-m8-p5-s7.log

Game ``i`` is dealt from ``Random(f"{seed}-{i}")`` with the mission's
equipment, as the tournament deals it (sim/tournament.py), and played twice:
by ``greedy`` (version 2: the ranking weighs a failure by the dial, the
futile moves come last, and a card avoids a call too red:
suggest.equipment.red_escape) and by ``greedy-v1`` (policies.FormerGreedyPolicy,
greedy as it was).  Both draw their tie-breaks from greedy's stream
``Random(f"{seed}-{i}-greedy")``, so a pair differs only from the first
decision where the two rules differ.  ``--new greedy-ranking`` plays,
instead of greedy, greedy whose ranking weighs the dial but whose cards
follow version 1's thresholds (no red_escape): what the ranking alone gains.  Each finished game is a JSON line of
``--log`` (``--resume`` keeps the games it holds); the report is
paired.report's: each side's win rate with its 95 % Wilson interval and
losses by kind, then greedy − greedy-v1 with Newcombe's paired interval, and
how many pairs were the very same game.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

from paired import report  # noqa: E402  (first: it puts the repository on sys.path)

from bombbuster_core.sim.deal import new_game  # noqa: E402
from bombbuster_core.sim.greedy import FormerGreedyPolicy, GreedyPolicy, greedy_equipment, greedy_turn  # noqa: E402
from bombbuster_core.sim.view import View  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from bombbuster_core.sim.actions import Action


class RankingOnlyPolicy(GreedyPolicy):
    """Greedy's version 2 ranking with version 1's cards (greedy_equipment without red_escape)."""

    def turn(self, view: View, pending: dict[str, Any] | None) -> Action:
        ranked = self.legal_ranking(view, pending)
        use = greedy_equipment(view, pending, ranked, self.pick, stakes=False)
        return use if use is not None else greedy_turn(view, pending, ranked, self.pick, self.rng)


SIDES = {"greedy": GreedyPolicy, "greedy-ranking": RankingOnlyPolicy, "greedy-v1": FormerGreedyPolicy}


def play(task: tuple[int, int, int, str, int]) -> dict:
    """One game of one side: its result, failed cuts, turns and decisions."""
    mission, players, seed, side, index = task
    game = new_game(random.Random(f"{seed}-{index}"), mission=mission, players=players, equipment=True)
    policy = SIDES[side](random.Random(f"{seed}-{index}-greedy"))
    decisions = 0
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
        decisions += 1
    while not game.over:
        game.play(policy.move(View(game.table(game.turn), game.turn)))
        decisions += 1
    return {"policy": side, "game": index, "result": game.result, "failed_cuts": game.strikes, "turns": game.turns,
            "decisions": decisions, "settings": {"mission": mission, "players": players, "seed": seed}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mission", type=int, default=8)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--seed", type=int, required=True, help="a fresh seed (the logs' 2026 is in-sample)")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", help="JSON lines of the finished games (read back with --resume)")
    parser.add_argument("--resume", action="store_true", help="keep the games --log already holds")
    parser.add_argument("--new", choices=("greedy", "greedy-ranking"), default="greedy",
                        help="the side played against greedy-v1 (greedy-ranking: the ranking's change alone)")
    args = parser.parse_args(argv)
    sides = (args.new, "greedy-v1")
    settings = {"mission": args.mission, "players": args.players, "seed": args.seed}
    records: dict[tuple[str, int], dict] = {}
    if args.resume and args.log and os.path.exists(args.log):
        with open(args.log, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                if r["settings"] != settings:
                    print(f"stakes_gain: {args.log} holds games of {r['settings']}, not {settings}", file=sys.stderr)
                    return 2
                records[r["policy"], r["game"]] = r
    tasks = [(args.mission, args.players, args.seed, side, i) for i in range(args.games) for side in sides
             if (side, i) not in records]
    out = open(args.log, "a" if args.resume else "w", encoding="utf-8") if args.log else None
    try:
        if args.jobs > 1:
            from multiprocessing import Pool

            with Pool(args.jobs) as pool:
                finished = pool.imap_unordered(play, tasks)
                for r in finished:
                    records[r["policy"], r["game"]] = r
                    if out:
                        out.write(json.dumps(r) + "\n")
                        out.flush()
        else:
            for task in tasks:
                r = play(task)
                records[r["policy"], r["game"]] = r
                if out:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
    finally:
        if out:
            out.close()
    games = [i for i in range(args.games) if all((side, i) in records for side in sides)]
    print(f"M{args.mission} {args.players}p, seed {args.seed}, equipment: {len(games)} paired deals")
    new, old = ([records[side, i] for i in games] for side in sides)
    report((args.new, new), ("greedy-v1", old))
    same = sum(all(a[k] == b[k] for k in ("result", "failed_cuts", "turns", "decisions")) for a, b in zip(new, old))
    print(f"  the very same game: {same} of {len(games)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
