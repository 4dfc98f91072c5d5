"""Self-play (bombbuster_core/sim): the game engine, policies, the tournament and the CLI's sampler.

* The CLI's `sample` prints exact posterior deals (the sampler's own proof is
  tests/test_sampling.py): shape, cut slots in place, same seed same lines.
* Every simulated game is a valid table file from every view: the core finds
  it consistent and the true deal in the support.
* The tournament is reproducible (the same numbers for --jobs 1 and 2) and its
  Wilson interval matches a hand computation.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from bombbuster_core.analysis import beliefs
from bombbuster_core.engines.sampling import sample_table as sample
from bombbuster_core.sim import POLICIES
from bombbuster_core.sim.actions import DoubleDetector, DualCutAction, SimError, SoloCutAction
from bombbuster_core.sim.deal import new_game
from bombbuster_core.sim.game import Game
from bombbuster_core.sim.greedy import keep_detector_choice
from bombbuster_core.sim.rollout import exact_move
from bombbuster_core.sim.view import View
from bombbuster_core.sim.tournament import paired_difference, run, summary, wilson
from bombbuster_core.table import load_table
from bombbuster_core.wires import parse_key

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_sample_shape_seed_and_cli(tmp_path) -> None:
    raw = {"players": [{"stands": [3]}, {"stands": [2, 1]}],
           "wires": {"blue": [1], "red": [1.5], "uncertain": [{"candidates": [2.1, 3.1], "count": 1}]},
           "me": {"player": 0, "stands": [[1, 1, 1]]},
           "events": [{"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 0}, "value": 1,
                       "success": True, "actor_slot": {"stand": 0, "slot": 0}}]}
    table = load_table(raw)
    deals = sample(table, 50, random.Random(3))
    for d in deals:
        assert d["stands"][0] == [1, 1, 1] and d["stands"][1][0] == 1  # cut slots at their place
        assert sorted(d["stands"][1][1:] + d["stands"][2], key=float) in ([1.5, 2.1], [1.5, 3.1])
        assert len(d["set_aside"]) == 1 and d["set_aside"][0] in (2.1, 3.1)
    assert {d["set_aside"][0] for d in deals} == {2.1, 3.1}
    assert sample(table, 50, random.Random(3)) == deals
    path = tmp_path / "t.json"
    path.write_text(json.dumps(raw))

    def cli(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "bombbuster_core", "sample", str(path), *extra],
                              capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))

    first, again = cli("--n", "5", "--seed", "9"), cli("--n", "5", "--seed", "9")
    assert first.returncode == 0 and first.stdout == again.stdout
    lines = [json.loads(line) for line in first.stdout.splitlines()]
    assert len(lines) == 5 and all(set(d) == {"stands", "set_aside"} for d in lines)
    raw["events"].append({"type": "info_token", "at": {"player": 1, "stand": 1, "slot": 0}, "value": 1})
    path.write_text(json.dumps(raw))
    bad = cli("--n", "2")
    assert bad.returncode == 1 and json.loads(bad.stdout)["consistent"] is False


# ---------------------------------------------------------------- the game engine


SMALL_WIRES = [
    {"blue": [1, 2, 3], "yellow": [1.1], "red": [2.5]},
    {"blue": [1, 2, 3, 4], "red": [1.5], "uncertain": [{"candidates": [2.1, 3.1, 4.1], "count": 2}]},
    {"blue": [1, 2], "uncertain": [{"candidates": [1.5, 2.5], "count": 1}]},
    {"deck": {"1": 4, "2": 3, "3": 2, "2.1": 1, "3.5": 1}},
]


def random_small_game(rng: random.Random) -> Game:
    """A dealt game on a small wire set: 2-5 players, 1-2 stands each, sometimes uneven stands."""
    wires = rng.choice(SMALL_WIRES)
    players = rng.randint(2, 4)
    n_stands = [rng.choice([1, 2]) for _ in range(players)]
    game0 = new_game(random.Random(0), wires=wires, players=2)
    wires_in_play = sum(len(row) for rows in game0.hands for row in rows)
    stands = sum(n_stands)
    cuts = sorted(rng.sample(range(1, wires_in_play), stands - 1))
    sizes = iter(b - a for a, b in zip([0] + cuts, cuts + [wires_in_play]))
    return new_game(rng, wires=wires, stands=[[next(sizes) for _ in range(n)] for n in n_stands])


def play_random(game: Game, rng: random.Random, tokens: bool = True) -> list[int]:
    """Random legal play (every action kind); the event counts at which to check the views."""
    if tokens:
        for p in game.setup_token_players():
            blue = [x for x in game.slots(p) if game.key(x) % 10 == 0]
            if blue:
                game.place_token(rng.choice(blue))
    marks = [len(game.events)]
    while not game.over:
        moves = game.legal_moves()
        if rng.random() < 0.5:
            move = exact_move(game, rng)
        else:
            move = rng.choice(moves)
        assert move in moves or isinstance(move, DualCutAction)
        game.play(move)
        if rng.random() < 0.3:
            marks.append(len(game.events))
    return marks + [len(game.events)]


def assert_views_consistent(game: Game, n_events: int) -> None:
    for view in [None] + list(range(game.players)):
        raw = game.table(view)
        raw["events"] = raw["events"][:n_events]
        table = load_table(raw)
        result = beliefs(table)
        board = table.board()
        for p, rows in enumerate(board.stands):
            for s, row in enumerate(rows):
                for j, wire in enumerate(row):
                    assert game.hands[p][s][j] in result.weights[wire], (view, p, s, j)


def test_simulated_small_games_are_valid_tables_from_every_view() -> None:
    rng = random.Random(7)
    kinds: set[str] = set()
    results: set[str] = set()
    for i in range(200):
        game = random_small_game(rng)
        marks = play_random(game, rng)
        kinds |= {e["type"] for e in game.events}
        results.add(game.result)
        # A red cut is the table's last event, as a player records it (the whole table is checked below).
        assert (game.result == "red") == bool(game.events and game.events[-1].get("exploded")), game.events[-1:]
        for n in sorted(set(marks))[-2 if i % 4 == 0 else -1:]:
            assert_views_consistent(game, n)
    assert kinds == {"info_token", "dual_cut", "detector", "solo_cut", "reveal_red"}
    assert results == {"win", "red", "detonator"}


@pytest.mark.parametrize("mission, players", [(4, 4), (8, 5), (8, 2), (5, 3), (1, 2)])
def test_simulated_mission_games_are_valid_tables(mission: int, players: int) -> None:
    rng = random.Random(mission * 10 + players)
    for _ in range(4):
        game = new_game(rng, mission=mission, players=players)
        sizes = [len(row) for rows in game.hands for row in rows]
        assert max(sizes) - min(sizes) <= 1
        marks = play_random(game, rng)
        assert_views_consistent(game, marks[-1])


def test_game_rules() -> None:
    setup = {"players": [{"stands": [2]}, {"stands": [2]}], "wires": {"deck": {"1": 2, "1.5": 1, "2.5": 1}}}
    from bombbuster_core.sim.deal import deal
    game = deal(setup, random.Random(0))
    game.hands = [[[10, 15]], [[10, 25]]]
    with pytest.raises(SimError):
        game.play(DualCutAction((1, 0, 0), 2))  # player 0 holds no 2
    game.play(DualCutAction((1, 0, 0), 1))
    assert game.cut == {(0, 0, 0), (1, 0, 0)} and game.turn == 1 and game.result is None
    with pytest.raises(SimError):
        game.play(SoloCutAction(1))  # every 1 is cut
    # Player 1 holds only a red: the only legal move is to reveal it.
    assert [type(m).__name__ for m in game.legal_moves()] == ["RevealRedAction"]
    game.play(game.legal_moves()[0])
    assert game.turn == 0 and [type(m).__name__ for m in game.legal_moves()] == ["RevealRedAction"]
    game.play(game.legal_moves()[0])
    assert game.result == "win"

    game = deal(setup, random.Random(0))
    game.hands = [[[10, 15]], [[10, 25]]]
    game.play(DoubleDetector(((1, 0, 0), (1, 0, 1)), 1))
    assert game.events[-1]["success"] and game.cut == {(0, 0, 0), (1, 0, 0)}
    with pytest.raises(SimError):
        game.turn = 0
        game.play(DoubleDetector(((1, 0, 0), (1, 0, 1)), 1))  # once per player

    detonator = deal({"players": [{"stands": [4]}, {"stands": [4]}], "wires": {"blue": [1, 2]}}, random.Random(0))
    detonator.hands = [[[10, 10, 20, 20]], [[10, 10, 20, 20]]]
    detonator.play(DualCutAction((1, 0, 2), 1))
    assert detonator.strikes == 1 and detonator.result is None
    detonator.play(DualCutAction((0, 0, 0), 2))
    assert detonator.result == "detonator"  # 2 players: the 2nd failure explodes


def test_policies_decide_from_the_view_and_play_legally() -> None:
    rng = random.Random(5)
    game = new_game(rng, wires=SMALL_WIRES[0], players=3)
    for p in game.setup_token_players():
        game.place_token(POLICIES["greedy"](rng).setup_token(View(game.table(p), p)))
    small = {"lookahead": {"deals": 3, "depth": 3, "width": 2}, "ismcts": {"iterations": 3, "horizon": 3}}
    policies = [POLICIES[name](random.Random(i), **small.get(name, {})) for i, name in enumerate(POLICIES)]
    for policy in policies:
        if policy.sees_the_deal:  # sighted: the measure that sees the deal (tests/test_sighted.py)
            policy.watch(game)
    turn = 0
    while not game.over:
        policy = policies[turn % len(policies)]
        move = policy.move(View(game.table(game.turn), game.turn))
        assert move in game.legal_moves()
        game.play(move)
        turn += 1


def test_restore_replays_the_public_state() -> None:
    endings = set()
    for seed in range(40):
        rng = random.Random(seed)
        game = random_small_game(rng)
        marks = play_random(game, rng)
        stands = [row for rows in game.hands for row in rows]
        again = Game.restore(game.table(0), stands, game.turn, random.Random(0))
        assert again.cut == game.cut and again.strikes == game.strikes and again.detectors_used == game.detectors_used
        assert again.result == game.result  # a finished table is a finished game
        endings.add(game.result)
        assert [[parse_key(k) for k in row] for row in game.deal_json()["stands"]] == stands
        midway = game.table(0)
        midway["events"] = midway["events"][:marks[len(marks) // 2]]
        assert Game.restore(midway, stands, 0, random.Random(0)).over == (midway["events"] == game.events)
    assert endings == {"win", "red", "detonator"}


def _sug(kind: str, p_success: float, p_red: float, certain: bool = False) -> dict:
    return {"kind": kind, "p_success": p_success, "p_red": p_red, "certain": certain}


def test_keep_detector_uses_it_only_when_the_best_call_risks_red() -> None:
    dd_sure, dd_risky = _sug("double_detector", 1.0, 0.0), _sug("double_detector", 0.9, 0.1)
    safe_call = _sug("dual_cut", 0.6, 0.0)
    # The best call is red-free: the detector is kept, even when it would succeed surely.
    assert keep_detector_choice([dd_sure, safe_call]) is safe_call
    assert keep_detector_choice([_sug("solo_cut", 1.0, 0.0, True), dd_sure])["kind"] == "solo_cut"
    # Every call risks red (an endgame call at 1/3): the detector least likely to explode.
    risky_call = _sug("dual_cut", 2 / 3, 1 / 3)
    assert keep_detector_choice([risky_call, dd_risky, dd_sure]) is dd_sure
    assert keep_detector_choice([risky_call, dd_risky]) is dd_risky
    # On a tie of red risk, the likelier success; a detector no safer than the call is not used.
    dd_low = _sug("double_detector", 0.5, 0.0)
    assert keep_detector_choice([risky_call, dd_low, dd_sure]) is dd_sure
    assert keep_detector_choice([_sug("dual_cut", 0.9, 0.1), dd_risky])["kind"] == "dual_cut"


def test_keep_detector_plays_whole_games_from_its_view() -> None:
    for index in range(3):
        game = new_game(random.Random(f"keep-{index}"), mission=4, players=4)
        policy = POLICIES["greedy-keep-detector"](random.Random(index))
        for p in game.setup_token_players():
            game.place_token(policy.setup_token(View(game.table(p), p)))
        while not game.over:
            game.play(policy.move(View(game.table(game.turn), game.turn)))
        assert game.result in ("win", "red", "detonator")
        assert load_table(game.table()).events  # every event it emitted is a valid table file


# ---------------------------------------------------------------- the tournament


def test_wilson_interval_by_hand() -> None:
    # 8 wins in 10: p = 0.8, z = 1.96: centre (0.8 + 0.19208) / 1.38416, half 1.41602 * sqrt(0.016 + 0.009604).
    lo, hi = wilson(8, 10, z=1.96)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0
    mean, lo, hi = paired_difference([1, 1, 0, 1], [0, 1, 0, 0])
    assert mean == 0.5 and lo < 0.5 < hi


def test_tiny_tournament_is_the_same_for_any_jobs(tmp_path) -> None:
    policies = ["random", "greedy"]
    serial = run(1, 2, 3, policies, seed=4, jobs=1, save=str(tmp_path))
    parallel = run(1, 2, 3, policies, seed=4, jobs=2)
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in serial]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in parallel]
    result = summary(serial, policies)
    assert [r["games"] for r in result["policies"]] == [3, 3]
    assert result["pairs"][0]["a"] == "random"
    saved = sorted(os.listdir(tmp_path))
    assert len(saved) == 12
    for name in saved:
        if not name.endswith(".deal.json"):
            table = load_table(json.loads((tmp_path / name).read_text()))
            deal = json.loads((tmp_path / name.replace(".json", ".deal.json")).read_text())
            assert deal["result"] in ("win", "red", "detonator")
            assert beliefs(table).worlds > 0
    out = subprocess.run([sys.executable, "-m", "bombbuster_core", "tournament", "--mission", "1", "--players", "2",
                          "--games", "2", "--policy", "random", "--seed", "4", "--json"],
                         capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    assert out.returncode == 0
    cli = json.loads(out.stdout)
    assert cli["policies"][0]["wins"] == sum(r["result"] == "win" for r in serial[:2])
    refused = subprocess.run([sys.executable, "-m", "bombbuster_core", "tournament", "--mission", "54", "--players",
                              "4", "--games", "1", "--policy", "random"],
                             capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    error = json.loads(refused.stdout)["error"]
    assert refused.returncode == 2 and "cannot play it" in error and "audio track" in error
    base = [sys.executable, "-m", "bombbuster_core", "tournament", "--mission", "1", "--players", "2", "--games", "1",
            "--policy", "random"]
    for extra, message in ((["--resume"], "give --log"),
                           (["--resume", "--log", str(tmp_path / "random-00000.json")], "not a tournament log"),
                           (["--from-log", str(tmp_path / "random-00000.json")], "--from-log: "),
                           (["--from-log", str(tmp_path / "missing.log")], "not a tournament log")):
        bad = subprocess.run(base + extra, capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
        assert bad.returncode == 2 and message in json.loads(bad.stdout)["error"], bad
