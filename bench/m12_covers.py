"""What M12's covering Number cards change in the simulator's games: greedy's M12 games by seed, each
summed up (result, card uses, a hash of its events), to compare the same seeds across two versions of
the code (the covers are drawn after the cards and characters, so the deal and the cards are the same).

    git archive 97aa05e bombbuster_core | (mkdir -p /tmp/m12-before && tar -x -C /tmp/m12-before)
    python bench/m12_covers.py --games 40 --code /tmp/m12-before > /tmp/before.json
    python bench/m12_covers.py --games 40 > /tmp/after.json
    python bench/m12_covers.py --compare /tmp/before.json /tmp/after.json

prints, per player count, the wins and card uses of each version, and how many games' events and
results differ.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = (2, 3, 4, 5)


def play(players: int, seed: int) -> dict[str, Any]:
    """One greedy game of M12, seeded by (seed, players): its result, card uses and events' hash."""
    from bombbuster_core.sim import POLICIES
    from bombbuster_core.sim.deal import new_game
    from bombbuster_core.sim.view import View

    game = new_game(random.Random(f"{seed}-12-{players}"), mission=12, players=players)
    policy = POLICIES["greedy"](random.Random(f"{seed}-greedy"))
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    while not game.over:
        game.play(policy.move(View(game.table(game.turn), game.turn)))
    events = json.dumps(game.events, sort_keys=True).encode()
    return {"result": game.result, "uses": sum(1 for e in game.events if "card" in e),
            "events": hashlib.sha1(events).hexdigest()[:12]}


def compare(before: dict[str, list[dict[str, Any]]], after: dict[str, list[dict[str, Any]]]) -> None:
    for players, games in after.items():
        old = before[players]
        wins = [sum(g["result"] == "win" for g in side) for side in (old, games)]
        uses = [sum(g["uses"] for g in side) for side in (old, games)]
        print(f"M12 {players}p, {len(games)} greedy games: wins {wins[0]} -> {wins[1]}, card uses {uses[0]} -> "
              f"{uses[1]}; events differ in {sum(a['events'] != b['events'] for a, b in zip(old, games))}, "
              f"results in {sum(a['result'] != b['result'] for a, b in zip(old, games))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="seeds 0..N-1 per player count")
    parser.add_argument("--code", type=Path, default=ROOT, help="the directory holding the bombbuster_core to play")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="two outputs to compare")
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        compare(before, after)
        return
    sys.path[:0] = [str(args.code)]
    print(json.dumps({str(n): [play(n, seed) for seed in range(args.games)] for n in PLAYERS}))


if __name__ == "__main__":
    main()
