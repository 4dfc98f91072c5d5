"""Diagnosis: how a policy's games lost to a red cut were lost (not a test).

    python bench/bench_red_losses.py [--log bench/tournaments/m4-greedy-random.log] [--policy greedy] [--games 30]

Replays the first ``--games`` games of ``--policy`` that its tournament log
records as lost to a red cut (the games are deterministic: the same settings
replay them exactly, checked against the log) and prints the fatal move's
exact P(red) and P(success), the lowest P(red) of any move in that turn's list
(Double Detector uses included while the player has one), and a count: fatal
moves within the red cap (a risk the policy took) against moves where every
listed move risked more than the cap (forced).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]

import bench_analyze  # noqa: E402,F401  (puts the repository and tests/ on sys.path)

from bombbuster_core.sim import greedy, tournament  # noqa: E402
from bombbuster_core.sim.view import RED_CAP  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", default="bench/tournaments/m4-greedy-random.log")
    parser.add_argument("--policy", default="greedy", choices=["greedy", "greedy-keep-detector"])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    with open(args.log, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    lost = [r for r in records if r["policy"] == args.policy and r["result"] == "red"]
    hook = {"greedy": "choice", "greedy-keep-detector": "keep_detector_choice"}[args.policy]  # its pick among the list
    choose = getattr(greedy, hook)
    fatal = []
    for record in lost[: args.games]:
        moves: list[tuple[float, float, float]] = []

        def spy(ranked, moves=moves):
            s = choose(ranked)
            moves.append((s["p_red"], s["p_success"], min(x["p_red"] for x in ranked)))
            return s

        setattr(greedy, hook, spy)
        settings = record["settings"]
        replay = tournament.play_game((settings["mission"], settings["players"], settings["seed"], args.policy,
                                       record["game"], None, settings.get("budget", {}),
                                       settings.get("equipment", False)))
        if any(replay[k] != record[k] for k in ("result", "turns", "failed_cuts")):
            setattr(greedy, hook, choose)
            raise SystemExit(f"game {record['game']} of {args.log} does not replay as logged: its games were played "
                             f"by another version of {args.policy!r} (greedy's ranking changed on 2026-11-28, "
                             "docs/results/issue34-stakes.md); pass a log played by the current code")
        fatal.append(moves[-1])
        print(f"game {record['game']:4d}, turn {record['turns']:2d}: fatal move P(red) {moves[-1][0]:.3f}, "
              f"P(success) {moves[-1][1]:.3f}; lowest P(red) in the list {moves[-1][2]:.3f}", flush=True)
    setattr(greedy, hook, choose)
    taken = sum(p_red <= RED_CAP for p_red, _, _ in fatal)
    print(f"{len(lost)} red losses in the log, {len(fatal)} replayed: within the {RED_CAP:.0%} cap {taken}, "
          f"every listed move above it {len(fatal) - taken}; mean P(red) of the fatal move "
          f"{sum(p for p, _, _ in fatal) / len(fatal):.3f}")


if __name__ == "__main__":
    main()
