"""Record greedy's fatal zero-chance decisions: tests/data/stakes_decisions.json.

    PYTHONPATH=<a checkout of the code to record> python tests/data/make_stakes_decisions.py

Made once, on commit b31a23a (greedy before the ranking weighed the dial:
issue 34), for tests/test_stakes.py.  Each game of ``GAMES`` (M8 5p, seed
2026, with equipment: bench/tournaments/m8-greedy-equipment.log, games greedy
lost) is replayed with ``play_game``'s deal and random streams; the decision
kept is the one where the dial was at its last space and greedy's move, the
first of the exact ranking, had P(success) 0 while a call that could succeed
existed.  Stored: the acting player's table file at that decision (the view
suggest ranks: ``suggest --player P``) and greedy's move.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT))  # appended: a PYTHONPATH naming another checkout comes first

from bombbuster_core.sim import POLICIES  # noqa: E402
from bombbuster_core.sim.deal import new_game  # noqa: E402
from bombbuster_core.sim.view import RED_CAP, View, action_of  # noqa: E402
from bombbuster_core.suggest import Policy, suggest  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402

OUT = ROOT / "tests" / "data" / "stakes_decisions.json"
MISSION, PLAYERS, SEED = 8, 5, 2026
GAMES = (34, 31, 293)  # the game 34 and the two others of the replayed losses found by this rule


def fatal_decision(index: int) -> dict[str, Any]:
    """The game's decision at the dial's last space where greedy's move could not succeed."""
    game = new_game(random.Random(f"{SEED}-{index}"), mission=MISSION, players=PLAYERS, equipment=True)
    policy = POLICIES["greedy"](random.Random(f"{SEED}-{index}-greedy"))
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    while not game.over:
        p = game.turn
        raw = game.table(p)
        action = policy.move(View(raw, p))
        if raw["meta"]["sim"]["dial"] == 1:
            listed = suggest(load_table(raw), player=p, policy=Policy(red_cap=RED_CAP), cards=False)["suggestions"]
            played = [s for s in listed if s["kind"] == "dual_cut" and action_of(s, p) == action]
            if played and played[0]["p_success"] == 0 and any(s["p_success"] > 0 for s in listed):
                return {"mission": MISSION, "players": PLAYERS, "seed": SEED, "game": index, "turn": game.turns,
                        "player": p, "played": played[0], "table": raw}
        game.play(action)
    raise LookupError(f"game {index}: no zero-chance move at the dial's last space")


def main() -> None:
    import bombbuster_core

    print(f"recording with {Path(bombbuster_core.__file__).parent}")
    rows = [fatal_decision(i) for i in GAMES]
    OUT.write_text(json.dumps(rows) + "\n", encoding="utf-8")
    print(f"{len(rows)} decisions -> {OUT}")


if __name__ == "__main__":
    main()
