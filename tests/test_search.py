"""The page's Search mode in the core: sim/search_advice.py and the bridge's ``search``.

* The pick is the ismcts policy's move for the same seed and budget; one
  iteration plays greedy's move; a page's table (no meta.sim) is searched as
  the simulator's own view of it.
* Root parallelism: two seeds' candidates are the same moves, and their merge
  adds their statistics up; the pick rule (ismcts.pick) by hand.
* Refusals and bad params name the field, event or rule, as the lookahead's.
"""
from __future__ import annotations

import json
import random
import pickle

import pytest

from bombbuster_core.bridge import handle
from bombbuster_core.sim.actions import SimError, action_from_json
from bombbuster_core.sim.ismcts import IsmctsPolicy, pick
from bombbuster_core.sim.greedy import GreedyPolicy
from bombbuster_core.sim.replay import replay_refusal
from bombbuster_core.sim.view import View
from bombbuster_core.sim.search_advice import MAX_ITERATIONS, merged, search
from tests.test_lookahead import greedy_game, open_game


def page_table(raw: dict) -> dict:
    """A simulator's view as the page has it: no meta.sim."""
    return {**raw, "meta": {k: v for k, v in raw["meta"].items() if k != "sim"}}


def picked(result: dict, player: int):
    return action_from_json(result["suggestions"][result["pick"]]["move"], player)


@pytest.fixture(scope="module")
def decision():
    game = open_game(8)
    return game, game.table(game.turn)


def test_the_pick_is_the_policys_move_for_the_seed_and_budget(decision) -> None:
    game, raw = decision
    view = View(raw, game.turn)
    for seed in (3, 1):
        result = search({"table": raw, "iterations": 6, "horizon": 3, "seed": seed})
        assert result["searched"] and result["iterations"] == 6 and len(result["suggestions"]) > 1
        assert sum(s["visits"] for s in result["suggestions"]) == 6
        policy = IsmctsPolicy(random.Random(seed), iterations=6, horizon=3)
        assert picked(result, game.turn) == policy.move(view)
        assert all(s["mean"] == s["value_sum"] / s["visits"] for s in result["suggestions"] if s["visits"])
        # the page's table, without meta.sim: the same search
        assert search({"table": page_table(raw), "iterations": 6, "horizon": 3, "seed": seed}) == result


def test_the_pick_keeps_greedys_move_unless_another_clears_a_standard_error() -> None:
    """ismcts.pick by hand (visits, value sum; greedy's first).  Plus-two means: (20, 10) has
    m = 11/22, variance 0.25/20; (20, 16) m = 17/22, variance 0.00878; the difference's standard error
    sqrt(0.0125 + 0.00878) = 0.146."""
    assert pick([(1, 1.0)]) == 0 and pick([(0, 0.0), (3, 3.0)]) == 0
    assert pick([(3, 2.0), (1, 1.0)]) == 0  # one lucky visit (the best mean, not the most visits)
    assert pick([(2, 1.0), (6, 4.0)]) == 0  # the most visited, a gain of 0.17 within its 0.41 error
    assert pick([(20, 10.0), (20, 16.0)]) == 1  # a gain of 0.30 > 0.146
    assert pick([(20, 10.0), (20, 16.0)], z=3.0) == 0  # 0.30 < 3 x 0.146
    assert pick([(20, 10.0), (20, 12.0)]) == 0  # 0.10 < 0.157
    assert pick([(20, 10.0), (20, 16.0), (20, 18.0)]) == 2  # of two that clear it, the larger gain
    assert pick([(20, 10.0), (20, 18.0), (20, 16.0)]) == 1


def test_one_iteration_plays_greedys_move(decision) -> None:
    game, raw = decision
    greedy = GreedyPolicy(random.Random(4)).move(View(raw, game.turn))
    for table in (raw, page_table(raw)):
        result = search({"table": table, "iterations": 1, "seed": 4})
        assert result["pick"] == 0 and picked(result, game.turn) == greedy
        assert [s["visits"] for s in result["suggestions"]][:1] == [1]


def test_two_seeds_have_the_same_candidates_and_their_merge_adds_up(decision) -> None:
    _, raw = decision
    a, b = (search({"table": raw, "iterations": 6, "horizon": 3, "seed": seed}) for seed in (2, 3))
    assert [s["move"] for s in a["suggestions"]] == [s["move"] for s in b["suggestions"]]
    both = merged([a, b])
    assert both["iterations"] == 12 and both["seeds"] == [2, 3]
    for s, x, y in zip(both["suggestions"], a["suggestions"], b["suggestions"]):
        assert s["visits"] == x["visits"] + y["visits"] and s["value_sum"] == x["value_sum"] + y["value_sum"]
    assert both["pick"] == pick([(s["visits"], s["value_sum"]) for s in both["suggestions"]])
    with pytest.raises(SimError, match="different candidates"):
        merged([a, {**b, "suggestions": b["suggestions"][::-1]}])


def test_the_bridge_merges_the_pages_searches_and_names_a_bad_field(decision) -> None:
    """The page adds up its workers' searches through the bridge (``merge_searches``): the same merge,
    and a result that is not a search's is refused by its field, never merged."""
    _, raw = decision
    a, b = (search({"table": raw, "iterations": 4, "horizon": 2, "seed": seed}) for seed in (5, 6))

    def merge(params):
        return json.loads(handle(json.dumps({"id": 9, "method": "merge_searches", "params": params})))

    assert merge({"results": [a, b]}) == {"id": 9, "result": json.loads(json.dumps(merged([a, b])))}
    row = a["suggestions"][0]
    bad = {
        "results": "every",
        "results[0].visits": {**a, "suggestions": [{**row, "visits": -1}, *a["suggestions"][1:]]},
        "value_sum": {**a, "suggestions": [{**row, "value_sum": row["visits"] + 1}, *a["suggestions"][1:]]},
        "results[0].pick": {**a, "pick": len(a["suggestions"])},
        "searched": {**a, "searched": "yes"},
        "'move'": {**a, "suggestions": [{k: v for k, v in row.items() if k != "move"}, *a["suggestions"][1:]]},
        "seed": {**a, "seed": True},
    }
    for field, result in bad.items():
        params = {"results": result} if field == "results" else {"results": [result, b]}
        error = merge(params)["error"]["message"]
        assert field.split(".")[-1] in error and "internal" not in error, (field, error)
    assert "exactly" in merge({"results": [a], "code": "x"})["error"]["message"]
    # what a search answers without candidates passes through: no deal fits, or no wire left to cut
    impossible = {"consistent": False, "error": "no deal fits", "event": 3}
    assert merge({"results": [impossible, impossible]})["result"] == impossible
    done = {**a, "searched": False, "iterations": 0, "pick": 0, "suggestions": [], "reason": "every wire of yours is cut"}
    merged_done = merge({"results": [done, {**done, "seed": 6}]})["result"]
    assert merged_done["suggestions"] == [] and merged_done["pick"] == 0 and merged_done["seeds"] == [5, 6]
    assert "different candidates" in merge({"results": [a, {**b, "suggestions": b["suggestions"][::-1]}]})[
        "error"]["message"]


def test_a_certain_move_is_greedys_without_a_search() -> None:
    for turns in range(0, 40):
        game = greedy_game(4, 4, turns, 5)
        view = View(game.table(game.turn), game.turn)
        if any(s["certain"] for s in GreedyPolicy(random.Random(0)).legal_ranking(view, view.pending())):
            break
    result = search({"table": page_table(view.raw), "iterations": 20})
    assert result["searched"] is False and result["reason"] == "a certain move" and result["iterations"] == 0
    assert result["reason_why"] == {"code": "certain_move", "fields": {}}  # the page words it (search.refused.CODE)
    assert len(result["suggestions"]) == 1 and result["suggestions"][0]["certain"]
    assert picked(result, game.turn) == GreedyPolicy(random.Random(0)).move(view)


def test_refusals_as_the_lookaheads() -> None:
    raw = page_table(greedy_game(4, 4, 2, 5).table(0))
    with pytest.raises(SimError, match="search decides for the table's 'me'"):
        search({"table": {k: v for k, v in raw.items() if k != "me"}})
    for field, bad in (("iterations", 0), ("iterations", MAX_ITERATIONS + 1), ("horizon", "3"), ("horizon", 21),
                       ("iterations", True), ("seed", 1.5)):
        with pytest.raises(SimError, match=f"field '{field}'"):
            search({"table": raw, field: bad})
    with pytest.raises(SimError, match="unknown field 'deals'"):
        search({"table": raw, "deals": 3})
    absent = {**raw, "events": raw["events"] + [{"type": "absent", "player": 1, "values": [5]}]}
    with pytest.raises(SimError, match=r"search: event \d+ \(absent\) is beyond the base game"):
        search({"table": absent})
    with pytest.raises(SimError, match="search: the simulator does not play the rule"):
        search({"table": {**raw, "meta": {**raw["meta"], "rules": ["parity_tokens"]}}})
    # the bridge's error reply carries the refusal's code and fields, which the page words
    reply = json.loads(handle(json.dumps({"id": 1, "method": "search", "params": {"table": absent}})))
    assert (reply["error"]["code"], reply["error"]["fields"]) == (
        "event_not_played", {"mode": "search", "event": len(absent["events"]) - 1, "type": "absent"})
    assert reply["error"]["message"].startswith("search: event")


def test_a_mission_with_rules_of_its_own_is_not_searched() -> None:
    game = greedy_game(4, 4, 3, 5)
    raw = page_table(game.table(0))
    result = search({"table": {**raw, "meta": {**raw["meta"], "mission": 9}}, "iterations": 5})
    assert result["searched"] is False and "mission 9" in result["reason"]
    assert result["reason_why"] == {"code": "mission_own_rules", "fields": {"mission": 9}}
    again = pickle.loads(pickle.dumps(replay_refusal({**raw, "meta": {**raw["meta"], "mission": 9}})))
    assert (str(again), again.json()) == (result["reason"], result["reason_why"])


def ask(params) -> dict:
    return json.loads(handle(json.dumps({"id": 7, "method": "search", "params": params})))


@pytest.mark.parametrize("params,fields", [
    ([], ["params", "expected an object"]),
    ({}, ["missing field 'table'"]),
    ({"table": {}}, ["table"]),
    ({"table": 3}, ["table"]),
    ({"table": None, "iterations": 5}, ["table"]),
    ({"table": {}, "iterations": 2001}, ["field 'iterations'", "2000"]),
    ({"table": {}, "iterations": "9"}, ["field 'iterations'"]),
    ({"table": {}, "seed": "os.system"}, ["field 'seed'"]),
    ({"table": {}, "split": True}, ["unknown field 'split'"]),
])
def test_bad_bridge_params_are_errors_naming_the_field(params, fields) -> None:
    reply = ask(params)
    assert reply["id"] == 7 and "result" not in reply
    for field in fields:
        assert field in reply["error"]["message"]


def test_the_work_bound_runs_fewer_iterations_where_analyses_cost_more() -> None:
    """``work`` scales the iterations down by the table's size (as the lookahead's deals): a
    5-player start runs fewer of the 8 asked than a late decision, and a bounded search is the
    unbounded one with that many iterations."""
    start, late = open_game(2, 8, 5, 0), open_game(8)
    ran = {}
    for name, game in (("start", start), ("late", late)):
        raw = game.table(game.turn)
        bounded = search({"table": raw, "iterations": 8, "horizon": 3, "seed": 1, "work": 40})
        assert bounded["searched"]
        ran[name] = bounded["iterations"]
        assert search({"table": raw, "iterations": ran[name], "horizon": 3, "seed": 1}) == bounded
    assert 1 <= ran["start"] < ran["late"] == 8
    with pytest.raises(SimError, match="field 'work'"):
        search({"table": late.table(late.turn), "work": 0})


def test_the_bridge_answers_and_reports_each_iteration(decision) -> None:
    _, raw = decision
    heard = []
    request = json.dumps({"id": 1, "method": "search", "params": {"table": page_table(raw), "iterations": 3,
                                                                  "horizon": 2, "seed": 9}})
    reply = json.loads(handle(request, lambda done, total: heard.append((done, total))))
    assert reply["result"] == search({"table": page_table(raw), "iterations": 3, "horizon": 2, "seed": 9})
    assert heard == [(1, 3), (2, 3), (3, 3)]


def test_a_page_table_with_its_cards_is_searched_with_them() -> None:
    """A page's table that lists its equipment (no card used yet, one unlocked) is restored with
    its board: the search offers the card as the simulator's own view of the game does, with the
    same candidates and statistics."""
    from bombbuster_core.sim.deal import new_game

    game = new_game(random.Random(0), mission=4, players=4, equipment=True)
    greedy = GreedyPolicy(random.Random(0))
    for p in game.setup_token_players():
        game.place_token(greedy.setup_token(View(game.table(p), p)))
    for _ in range(3):
        game.play(greedy.move(View(game.table(game.turn), game.turn)))
    raw = game.table(game.turn)
    assert "equipment" in raw and all(e.get("card") is None for e in raw["events"])
    page = search({"table": page_table(raw), "iterations": 8, "horizon": 3, "seed": 1})
    sim = search({"table": raw, "iterations": 8, "horizon": 3, "seed": 1})
    assert page["searched"] and {"kind": "use_card", "card": "12"}.items() <= page["suggestions"][0]["move"].items()
    assert [(s["move"], s["visits"]) for s in page["suggestions"]] == [(s["move"], s["visits"]) for s in sim["suggestions"]]


# Simulated games (greedy on even seeds, random on odd) and what each one has in its events.
RESTORED = [(4, 4, 0, "plain"), (4, 4, 1, "plain"), (5, 3, 8, "a failure under the Stabilizer"),
            (3, 3, 8, "a Walkie-Talkies swap"), (8, 5, 2, "the Rewinder"), (15, 4, 8, "the Emergency Batteries"),
            (7, 4, 0, "the Coffee Mug"), (10, 4, 3, "False Bottom"), (8, 5, 6, "a Triple or Super Detector")]
TELLS = {"a failure under the Stabilizer": lambda e: e.get("stabilizer") and not e["success"],
         "a Walkie-Talkies swap": lambda e: e["type"] == "swap",
         "the Rewinder": lambda e: e["type"] == "equipment" and e["card"] == "6",
         "the Emergency Batteries": lambda e: e["type"] == "equipment" and e["card"] == "7",
         "the Coffee Mug": lambda e: e["type"] == "equipment" and e["card"] == "11",
         "False Bottom": lambda e: e["type"] == "equipment" and e["card"] == "Y",
         "a Triple or Super Detector": lambda e: e["type"] == "detector" and e.get("card") in ("3", "5"),
         "plain": lambda e: True}


@pytest.mark.parametrize("mission,players,seed,has", RESTORED)
def test_a_page_table_is_restored_as_the_simulators_own_view(mission, players, seed, has) -> None:
    """At every turn of a simulated game with the equipment, the view rebuilt from the page's table
    (no meta.sim) is the simulator's own: the same table file, dial, failed cuts and pending decision
    (what is legal, the usable cards and their options)."""
    from bombbuster_core.sim.lookahead_advice import restored_view
    from bombbuster_core.sim.deal import new_game
    from bombbuster_core.sim.random_policy import RandomPolicy

    game = new_game(random.Random(seed), mission=mission, players=players)
    policy = (RandomPolicy if seed % 2 else GreedyPolicy)(random.Random(seed))
    for p in game.setup_token_players():
        game.place_token(policy.setup_token(View(game.table(p), p)))
    told = False
    while not game.over:
        p = game.turn
        raw = game.table(p)
        if game.queue and game.queue[0]["kind"] == "turn":
            rebuilt = restored_view(page_table(raw), p).raw
            sim = raw["meta"]["sim"]
            where = f"after event {len(raw['events'])}"
            assert rebuilt["meta"]["sim"]["pending"] == sim["pending"], where
            assert (rebuilt["meta"]["sim"]["dial"], rebuilt["meta"]["sim"]["strikes"]) == (sim["dial"], sim["strikes"]), where
            assert {k: v for k, v in rebuilt.items() if k != "meta"} == {k: v for k, v in raw.items() if k != "meta"}, where
            told = told or any(TELLS[has](e) for e in raw["events"])
        game.play(policy.move(View(raw, p)))
    assert told, f"no turn after {has}"  # the case this game is here for was checked


def test_the_rewinder_by_its_name_or_its_id_moves_the_dial_back() -> None:
    from bombbuster_core.sim.lookahead_advice import restored_view

    game = greedy_game(4, 4, 12, 6)
    raw = page_table(game.table(game.turn))
    assert game.strikes and not raw.get("equipment")  # a failure to rewind; a board not followed
    dial = restored_view(raw, game.turn).raw["meta"]["sim"]["dial"]
    for card in ("6", "rewinder"):
        rewound = {**raw, "events": raw["events"] + [{"type": "equipment", "actor": game.turn, "card": card}]}
        assert restored_view(rewound, game.turn).raw["meta"]["sim"]["dial"] == dial + 1


def test_a_page_table_after_card_uses_gets_the_simulators_answers() -> None:
    """After the Rewinder, a Super Detector and other cards (M8, 5 players, seed 2 of RESTORED's
    kind): the page's table is searched and looked ahead as the simulator's own view."""
    from bombbuster_core.sim.lookahead_advice import lookahead
    from bombbuster_core.sim.deal import new_game

    game = new_game(random.Random(2), mission=8, players=5)
    greedy = GreedyPolicy(random.Random(2))
    for p in game.setup_token_players():
        game.place_token(greedy.setup_token(View(game.table(p), p)))
    asked = 0
    while not game.over:
        raw = game.table(game.turn)
        rewound = any(e["type"] == "equipment" and e["card"] == "6" for e in raw["events"])
        if rewound and game.queue[0]["kind"] == "turn" and asked < 2:
            asked += 1
            params = {"iterations": 4, "horizon": 2, "seed": 5}
            assert search({"table": page_table(raw), **params}) == search({"table": raw, **params})
            params = {"deals": 3, "depth": 2, "seed": 5}
            assert lookahead({"table": page_table(raw), **params}) == lookahead({"table": raw, **params})
        game.play(greedy.move(View(raw, game.turn)))
    assert asked == 2
