"""Record a Mission 4 game with one deliberate bad call: tests/data/review_m4.json.

    python tests/data/make_review_m4.py

A 4-player Mission 4 game (no equipment) dealt by the simulator and played by
greedy for the first ``TURNS`` turns, except once: at the Captain's first turn
with a certain cut in their own view, the Captain instead calls, on a teammate's
wire, a value it is not (the true deal says so) with the least chance of success
that is still above 0 -- a deliberate bad call, recorded as the failure the game
makes of it.  Stored: the table file from the Captain's view (``me``), the index
of the bad call, its certain alternative's P(success) and the call's own, for
tests/test_review.py and tests/e2e/test_review.py.
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
from bombbuster_core.sim.actions import DualCutAction  # noqa: E402
from bombbuster_core.sim.deal import new_game  # noqa: E402
from bombbuster_core.sim.view import View  # noqa: E402
from bombbuster_core.suggest import suggest  # noqa: E402
from bombbuster_core.table import load_table  # noqa: E402

OUT = ROOT / "tests" / "data" / "review_m4.json"
SEED, TURNS = 4, 10


def record() -> dict[str, Any]:
    game = new_game(random.Random(SEED), mission=4, players=4, equipment=False)
    policy = POLICIES["greedy"](random.Random(f"{SEED}-greedy"))
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    bad: dict[str, Any] | None = None
    for _ in range(TURNS):
        if game.over:
            break
        player = game.turn
        raw = game.table(player)
        if bad is None and player == 0:
            listing = suggest(load_table(raw), top=None, cards=False, explain=False)["suggestions"]
            if listing[0]["p_success"] == 1:
                wrong = [s for s in listing if s["kind"] == "dual_cut" and 0 < s["p_success"] < 0.5
                         and game.gameplay(game.key(_slot(s["target"]))) != s["value"]
                         and not game.is_red(game.key(_slot(s["target"])))]
                if wrong:
                    call = min(wrong, key=lambda s: s["p_success"])
                    bad = {"event": len(raw["events"]), "p_success": call["p_success"],
                           "best_p_success": listing[0]["p_success"]}
                    game.play(DualCutAction(_slot(call["target"]), call["value"]))
                    continue
        game.play(policy.move(View(raw, player)))
    assert bad is not None, "no certain cut at the Captain's turns: choose another SEED"
    table = game.table(0)
    table.get("meta", {}).pop("sim", None)  # the simulator's own state: not part of a recorded game
    return {"table": table, "bad_call": bad}


def _slot(ref: dict[str, int]) -> tuple[int, int, int]:
    return ref["player"], ref["stand"], ref["slot"]


if __name__ == "__main__":
    OUT.write_text(json.dumps(record(), indent=1) + "\n", encoding="utf-8")
    print(OUT)
