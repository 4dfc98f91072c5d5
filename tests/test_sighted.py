"""The ``sighted`` policy (sim/sighted.py, FOR MEASUREMENT ONLY): greedy with perfect information.

* Over whole games of several missions (calls, M13's red special action,
  M41's tripwire, M38's own flipped wire, M56's costly flipped wires, M11's
  Number): whenever a legal dual cut succeeds on the true deal, the sighted
  player's move fails nothing (the game's own events say so).
* Its games pass every check of the simulator's games (tests/test_sim_missions.py).
* The tournament deals it greedy's deals, game by game, marks its settings,
  resumes its log and says in its table that it sees the deal.
* Without a game to watch it refuses to move (never a move from a view alone).
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from test_sim_missions import assert_game_checks, play_policy

from bombbuster_core.sim import POLICIES
from bombbuster_core.sim.actions import DualCutAction, MultiCutAction, TripwireAction
from bombbuster_core.sim.deal import new_game
from bombbuster_core.sim.view import View
from bombbuster_core.sim.sighted import SightedPolicy, succeeds, sure_cuts
from bombbuster_core.sim.tournament import read_log, run, summary, text

GAMES = [(4, 4), (8, 5), (13, 4), (41, 4), (38, 3), (56, 3), (11, 2)]


def _sure_call(game) -> bool:
    """Whether some legal dual cut succeeds on the true deal (the decision is a turn)."""
    return any(isinstance(a, DualCutAction) and succeeds(game, a) for a in game.legal_moves())


def test_sighted_never_fails_when_a_sure_call_exists() -> None:
    moves: Counter = Counter()
    for mission, players in GAMES:
        for seed in range(4):
            game = new_game(random.Random(f"sure-{mission}-{seed}"), mission=mission, players=players)
            policy = POLICIES["sighted"](random.Random(seed))
            policy.watch(game)
            for p in game.setup_token_players():
                game.place_token(policy.setup_token(View(game.table(p), p)))
            while not game.over:
                p = game.turn
                sure = game.queue[0]["kind"] == "turn" and _sure_call(game)
                action = policy.move(View(game.table(p), p))
                assert game.is_legal(action), (action, game.queue[0])
                before = len(game.events)
                game.play(action)
                if sure:
                    moves[type(action).__name__, getattr(action, "own", None) is not None] += 1
                    failed = [e for e in game.events[before:] if e.get("success") is False or e.get("exploded")]
                    assert not failed, (mission, seed, action, failed)
            # M4, M8: a sure cut every turn, so a win; elsewhere the mission may strand a wire (M56: greedy's
            # Disintegrator cut the last visible 8 beside an owner's flipped 8, nobody can call it: stuck)
            assert game.result == "win" or mission not in (4, 8), (mission, players, seed, game.result)
    # the games reached every kind of sure cut the policy plays
    assert moves["DualCutAction", False] and moves["DualCutAction", True] and moves["MultiCutAction", False]
    assert moves["TripwireAction", False] and moves["SoloCutAction", False]


def test_sure_cuts_are_true_and_in_the_documented_order() -> None:
    game = new_game(random.Random("order"), mission=41, players=4)
    policy = POLICIES["sighted"](random.Random(0))
    policy.watch(game)
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    cuts = sure_cuts(game, game.queue[0])
    kinds = [type(a).__name__ for a in cuts]
    assert kinds and all(succeeds(game, a) for a in cuts)
    assert kinds == sorted(kinds, key=["RevealRedAction", "SoloCutAction", "MultiCutAction", "TripwireAction", "DualCutAction"].index)
    calls = [a for a in cuts if isinstance(a, DualCutAction)]
    values = game.queue[0]["values"]
    assert [values.index(a.value) for a in calls] == sorted(values.index(a.value) for a in calls)
    assert any(isinstance(a, TripwireAction) for a in cuts) and not any(isinstance(a, MultiCutAction) for a in cuts)


@pytest.mark.parametrize("mission, players, seed", [(4, 4, 0), (8, 5, 1), (13, 3, 2), (41, 5, 3), (56, 4, 4)])
def test_sighted_games_pass_the_game_checks(mission: int, players: int, seed: int) -> None:
    game = play_policy(mission, players, "sighted", seed)
    assert_game_checks(game)


def test_tournament_deals_sighted_greedys_deals_and_marks_it(tmp_path) -> None:
    log = str(tmp_path / "ceiling.log")
    records = run(1, 2, 3, ["greedy", "sighted"], seed=5, save=str(tmp_path), log=log)
    for i in range(3):
        deals = [json.loads((tmp_path / f"{name}-{i:05d}.deal.json").read_text()) for name in ("greedy", "sighted")]
        assert deals[0]["stands"] == deals[1]["stands"]
    settings = {r["policy"]: r["settings"] for r in records}
    assert settings["sighted"] == {**settings["greedy"], "sees_the_deal": True}
    assert "sees_the_deal" not in settings["greedy"]
    again = run(1, 2, 3, ["greedy", "sighted"], seed=5, log=log, resume=True)  # every game from the log
    assert again == records == read_log(log, ["greedy", "sighted"])
    table = text(summary(records, ["sighted", "greedy"]))
    assert "sighted: sees the true deal, FOR MEASUREMENT ONLY" in table and "sighted - greedy" in table
    assert "FOR MEASUREMENT ONLY" not in text(summary(records[:3], ["greedy"]))


def test_sighted_refuses_a_view_without_its_game() -> None:
    game = new_game(random.Random(0), mission=4, players=4)
    for p in game.setup_token_players():
        game.place_token(POLICIES["greedy"](random.Random(0)).setup_token(View(game.table(p), p)))
    policy = SightedPolicy(random.Random(0))
    with pytest.raises(ValueError, match="only the game it watches"):
        policy.move(View(game.table(game.turn), game.turn))
    policy.watch(game)
    other = (game.turn + 1) % 4
    with pytest.raises(ValueError, match="only the game it watches"):
        policy.move(View(game.table(other), other))
