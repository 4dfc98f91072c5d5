"""The lookahead policy (sim/lookahead.py) and its page door (sim/lookahead_advice.py).

* Common random numbers: every candidate meets the same deals and rollout
  seeds, so two copies of one move get identical rollouts.
* Honesty: the rollout policy decides from the mover's own view only — the
  same view over a different hidden deal gives the same move.
* The estimator: stratified values and the paired standard error by hand;
  with an infinite threshold the policy is greedy.
* The page's ``lookahead`` (advice.py and the bridge method): same table and
  seed, same answer; a legal move with its deal count; clear refusals for what
  the simulator does not play.
* The tournament's lookahead budget and its log give the same records for
  any ``--jobs``.
"""
from __future__ import annotations

import json
import math
import random

import pytest

from bombbuster_core.bridge import handle
from bombbuster_core.sim import lookahead as lookahead_policy
from bombbuster_core.sim.actions import SimError
from bombbuster_core.sim.deal import new_game
from bombbuster_core.sim.game import Game
from bombbuster_core.sim.greedy import GreedyPolicy
from bombbuster_core.sim.lookahead import LookaheadPolicy, paired_se, stratified
from bombbuster_core.sim.lookahead_advice import lookahead
from bombbuster_core.sim.rollout import exact_move
from bombbuster_core.sim.view import View, action_of
from bombbuster_core.sim import tournament
from bombbuster_core.sim.tournament import read_log, run
from bombbuster_core.engines.sampling import sample_table
from bombbuster_core.wires import parse_key, value_of


def greedy_game(mission: int, players: int, turns: int, seed: int) -> Game:
    """A mission game after its setup tokens and ``turns`` greedy turns."""
    # without equipment: the rollouts replay the base game (Game.restore plays no card)
    game = new_game(random.Random(seed), mission=mission, players=players, equipment=False)
    greedy = GreedyPolicy(random.Random(seed))
    for p in game.setup_token_players():
        game.place_token(greedy.setup_token(View(game.table(p), p)))
    for _ in range(turns):
        if game.over:
            break
        game.play(greedy.move(View(game.table(game.turn), game.turn)))
    return game


def open_game(seed: int, mission: int = 4, players: int = 4, first: int = 4) -> Game:
    """A game at the first turn from ``first`` on where greedy has no certain move and more than two calls."""
    for turns in range(first, 40):
        game = greedy_game(mission, players, turns, seed)
        if game.over:
            break
        ranked = GreedyPolicy(random.Random(0)).ranking(View(game.table(game.turn), game.turn), ())
        if not ranked[0]["certain"] and len(ranked) > 2:
            return game
    raise AssertionError("no open decision")


def open_view(seed: int) -> View:
    game = open_game(seed)
    return View(game.table(game.turn), game.turn)


def test_candidates_meet_the_same_deals_and_rollout_seeds(monkeypatch) -> None:
    view = open_view(3)
    ranked = GreedyPolicy(random.Random(0)).ranking(view, ())
    a, b = (action_of(s, view.player) for s in ranked[:2])
    # A rollout worth its rollout's next random number: equal worths mean equal rollout seeds.
    monkeypatch.setattr(lookahead_policy, "outcome_value", lambda game: game.rng.random())
    out = LookaheadPolicy(random.Random(5), deals=6, depth=3).rollouts(view, [a, b, a])
    assert out[0] == out[2] and len(out[0]) == 6
    # The deals are the sampler's, in its order: each outcome is the deal's truth at the target.
    deals = sample_table(view.table, 6, random.Random(5))
    for deal, (outcome, _) in zip(deals, out[0]):
        stands = [[parse_key(k) for k in row] for row in deal["stands"]]
        truth = Game.restore(view.raw, stands, view.player, random.Random(0)).key(a.target)
        assert (outcome == "success") == (value_of(truth) == a.value)


def test_the_rollout_policy_sees_only_its_own_view() -> None:
    moves = set()
    for seed in range(3):
        game = open_game(10 + seed)
        p = game.turn
        raw = game.table(p)
        for deal in sample_table(View(raw, p).table, 4, random.Random(seed)):
            stands = [[parse_key(k) for k in row] for row in deal["stands"]]
            other = Game.restore(raw, stands, p, random.Random(0))
            assert other.table(p) == raw  # the same view over another deal
            assert exact_move(other, random.Random(1)) == exact_move(game, random.Random(1))
        moves.add(exact_move(game, random.Random(1)))
    assert len(moves) == 3


def test_stratified_value_and_paired_error_by_hand() -> None:
    s = {"p_success": 0.5, "p_red": 0.1}
    values = [("success", 1.0), ("success", 0.5), ("failure", 0.2), ("red", 0.0)]
    score, means = stratified(s, values)
    assert means == {"success": 0.75, "failure": 0.2, "red": 0.0}
    assert score == pytest.approx(0.5 * 0.75 + 0.4 * 0.2)
    # No failure among the deals: that outcome takes the mean of all rollouts.
    assert stratified(s, [("success", 1.0), ("success", 0.0)])[0] == pytest.approx(0.5 * 0.5 + 0.4 * 0.5)
    # Contributions 0.5 (v - mean) / 2 per success deal and 0.4 (v - 0.2) per failure deal.
    other = [("success", 0.5), ("success", 0.5), ("failure", 0.2), ("red", 0.0)]
    expected = math.sqrt(2 * (0.5 * 0.25 / 2) ** 2)
    assert paired_se(s, values, s, other) == pytest.approx(expected)
    assert paired_se(s, values, s, values) == 0.0


def test_an_infinite_threshold_is_greedy() -> None:
    for seed in (3, 4):
        view = open_view(seed)
        greedy = GreedyPolicy(random.Random(7)).move(view)
        assert LookaheadPolicy(random.Random(7), deals=4, depth=2, z=math.inf).move(view) == greedy


def test_page_lookahead_same_seed_same_answer_and_a_legal_move() -> None:
    game = greedy_game(8, 5, 6, 21)
    raw = game.table(game.turn)
    params = {"table": raw, "deals": 5, "depth": 3, "seed": 4}
    first = lookahead(params)
    assert lookahead(dict(params)) == first
    assert first["consistent"] and first["mode"] == "lookahead" and first["player"] == game.turn
    assert first["deals"] in (0, 5) and first["suggestions"]
    move = action_of(first["suggestions"][0], game.turn)
    assert move in game.legal_moves()
    if first["deals"]:
        assert all({"worth", "gain", "se"} <= set(s) for s in first["suggestions"])


def test_page_lookahead_refusals() -> None:
    raw = greedy_game(4, 4, 2, 5).table(0)
    with pytest.raises(SimError, match="'me'"):
        lookahead({"table": {k: v for k, v in raw.items() if k != "me"}})
    for field, bad in (("deals", 0), ("deals", 65), ("depth", "3"), ("width", True), ("seed", 1.5)):
        with pytest.raises(SimError, match=f"field '{field}'"):
            lookahead({"table": raw, field: bad})
    with pytest.raises(SimError, match="unknown field 'budget'"):
        lookahead({"table": raw, "budget": 3})
    absent = {**raw, "events": raw["events"] + [{"type": "absent", "player": 1, "values": [5]}]}
    with pytest.raises(SimError, match=r"event \d+ \(absent\) is beyond the base game"):
        lookahead({"table": absent})
    impossible = {**raw, "events": raw["events"] + [
        {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 12},
        {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 1}, "value": 1}]}
    answer = lookahead({"table": impossible})
    assert answer["consistent"] is False and "event" in answer


def test_tournament_lookahead_budget_and_log_for_any_jobs(tmp_path) -> None:
    budget = {"deals": 2, "depth": 2, "width": 2}
    serial = run(1, 2, 2, ["greedy", "lookahead"], seed=6, jobs=1, lookahead=budget, log=str(tmp_path / "a.log"))
    parallel = run(1, 2, 2, ["greedy", "lookahead"], seed=6, jobs=2, lookahead=budget)

    def strip(records: list[dict]) -> list[dict]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in records]

    assert strip(serial) == strip(parallel)
    assert read_log(str(tmp_path / "a.log"), ["greedy", "lookahead"]) == serial
    # A log missing one side of a game leaves that game out.
    lines = (tmp_path / "a.log").read_text().splitlines()
    (tmp_path / "b.log").write_text("\n".join(line for line in lines if not ('"lookahead"' in line and '"game": 1' in line)))
    assert [r["game"] for r in read_log(str(tmp_path / "b.log"), ["greedy", "lookahead"])] == [0, 0]


def test_tournament_resume_plays_only_the_missing_games(tmp_path, monkeypatch) -> None:
    budget = {"deals": 2, "depth": 2, "width": 2}
    whole = run(1, 2, 3, ["greedy", "lookahead"], seed=8, lookahead=budget)
    log = tmp_path / "r.log"
    first = run(1, 2, 2, ["greedy", "lookahead"], seed=8, lookahead=budget, log=str(log))
    played = []
    real = tournament.play_game
    monkeypatch.setattr(tournament, "play_game", lambda task: played.append((task[3], task[4])) or real(task))
    resumed = run(1, 2, 3, ["greedy", "lookahead"], seed=8, lookahead=budget, log=str(log), resume=True)
    assert sorted(played) == [("greedy", 2), ("lookahead", 2)]  # games 0 and 1 came from the log
    assert resumed == sorted(first + [r for r in resumed if r["game"] == 2],
                             key=lambda r: (r["policy"] != "greedy", r["game"]))

    def strip(records: list[dict]) -> list[dict]:
        return [{k: v for k, v in r.items() if k != "seconds"} for r in records]

    assert strip(resumed) == strip(whole)
    assert len(log.read_text().splitlines()) == 6
    # A log of another run is refused, not mixed in.
    with pytest.raises(tournament.LogError, match="seed"):
        run(1, 2, 3, ["greedy"], seed=9, log=str(log), resume=True)
    with pytest.raises(tournament.LogError, match="budget"):
        run(1, 2, 3, ["lookahead"], seed=8, lookahead={**budget, "deals": 3}, log=str(log), resume=True)
    with pytest.raises(tournament.LogError, match="with other settings"):  # games without the equipment
        run(1, 2, 3, ["greedy"], seed=8, log=str(log), resume=True, equipment=False)
    # A log of an older simulator (version 1: no "sim" in its settings) is refused, not mixed in.
    old = tmp_path / "old.log"
    old.write_text("".join(json.dumps({**r, "settings": {"mission": 1, "players": 2, "seed": 8}}) + "\n"
                           for r in first if r["policy"] == "greedy"))
    with pytest.raises(tournament.LogError, match="by simulator version 1, whose games differ"):
        run(1, 2, 3, ["greedy"], seed=8, log=str(old), resume=True)
    (tmp_path / "junk.log").write_text("[1, 2]\n")
    with pytest.raises(tournament.LogError, match="not a tournament log"):
        run(1, 2, 3, ["greedy"], seed=8, log=str(tmp_path / "junk.log"), resume=True)


def test_bridge_lookahead_same_seed_same_answer() -> None:
    game = open_game(8)
    raw = game.table(game.turn)
    request = json.dumps({"id": 1, "method": "lookahead", "params": {"table": raw, "deals": 4, "depth": 2, "seed": 3}})
    first = json.loads(handle(request))
    assert json.loads(handle(request)) == first
    result = first["result"]
    assert result["deals"] == 4 and result["player"] == game.turn
    assert action_of(result["suggestions"][0], game.turn) in game.legal_moves()
    for params, message in (({"table": raw, "deals": 0}, "field 'deals'"), ({"table": {**raw, "me": None}}, "'me'"),
                            ([], "expected an object")):
        reply = json.loads(handle(json.dumps({"id": 2, "method": "lookahead", "params": params})))
        assert message in reply["error"]["message"]


def test_page_work_bound_draws_fewer_deals_where_analyses_cost_more() -> None:
    start = open_game(2, 8, 5, 0)
    late = open_game(2)
    drawn = {}
    for name, game in (("start", start), ("late", late)):
        params = {"table": game.table(game.turn), "deals": 8, "depth": 3, "work": 100, "seed": 1}
        answer = lookahead(params)
        assert lookahead(dict(params)) == answer
        drawn[name] = answer["deals"]
    assert 1 <= drawn["start"] < drawn["late"] == 8
    with pytest.raises(SimError, match="field 'work'"):
        lookahead({"table": late.table(late.turn), "work": 0})


def test_page_lookahead_with_every_wire_of_mine_cut_has_no_move() -> None:
    game = greedy_game(1, 2, 60, 3)
    assert game.result == "win"
    answer = lookahead({"table": game.table(0)})
    assert answer["consistent"] and answer["suggestions"] == [] and answer["deals"] == 0


def test_restore_spends_the_character_only_by_the_characters_own_detector() -> None:
    """rules.md: the Double Detector is each player's character, used once; the Triple and Super
    Detectors (and the X or Y Ray) are equipment cards and leave it.  At every turn of greedy games
    with equipment, the game Game.restore rebuilds from the table file offers the Double Detector
    exactly when the true game does."""
    telling = 0  # turns of a player who used a detector card and still has the character
    for seed in range(8):  # seed 6 has such a turn (greedy spends its character early)
        game = new_game(random.Random(seed), mission=8, players=5)
        greedy = GreedyPolicy(random.Random(seed))
        for p in game.setup_token_players():
            game.place_token(greedy.setup_token(View(game.table(p), p)))
        while not game.over:
            p = game.turn
            raw = game.table(p)
            d = game.queue[0] if game.queue else None
            if d is not None and d["kind"] == "turn":
                stands = [row for rows in game.hands for row in rows]
                restored = Game.restore(raw, stands, p, random.Random(0))
                assert restored.queue[0]["detector"] == d["detector"], (seed, len(raw["events"]))
                telling += d["detector"] and any(e["type"] == "detector" and e["actor"] == p
                                                 and e.get("card") != "character" for e in raw["events"])
            game.play(greedy.move(View(raw, p)))
    assert telling  # the case the rule is about was met


def test_lookahead_plays_whole_games_with_the_equipment() -> None:
    """With the cards dealt: Triple and Super Detector uses, Labels, the Rewinder... in the view's
    past, every rollout starts from the view's whole state (game.Replay), so every move is legal."""
    records = run(8, 5, 1, ["lookahead"], seed=2026, lookahead={"deals": 2, "depth": 2, "width": 2})
    assert records[0]["result"] in ("win", "red", "detonator")
