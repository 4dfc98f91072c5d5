"""One request over the page's worker pool (issue 12): every split path equals the serial one.

The page's pool (web/js/engine.js) sends ``"split": true``, runs the tasks of
each ``pending`` reply on its workers with the bridge's ``task`` method and
sends the request again with the answers.  Here a fake pool does the same
with the bridge in process (a plain function stands for each worker), and the
result must be exactly (same JSON text) the serial bridge's: the two columns
sweeps on two workers, the signatures engine's phase-1 blocks fanned out, and
the entropy branches of a suggestion ranking.
"""
from __future__ import annotations

import json
import random
from typing import Any

import pytest
from gamegen import random_game

from bombbuster_core import bridge, jsonio
from bombbuster_core.engines import columns, signatures

WIRES = {"blue": list(range(1, 13)), "yellow": [3.1, 7.1], "red": [5.5],
         "uncertain": [{"candidates": [2.5, 8.5, 10.5], "count": 2}]}


def _table(seed: str, players: int, me: bool, tokens: bool, turns: int) -> dict[str, Any]:
    table, _ = random_game(random.Random(seed), players=players, wires=WIRES, me=0 if me else False,
                           setup_tokens=tokens, turns=turns)
    return table


def ask(method: str, params: dict[str, Any]) -> dict[str, Any]:
    return json.loads(bridge.handle(json.dumps({"id": 1, "method": method, "params": params})))


def fake_pool(method: str, params: dict[str, Any], *, forget_home: bool = False) -> tuple[str, list[dict]]:
    """The page pool's protocol with in-process workers: (the final reply's result as JSON
    text, the pending rounds seen).  ``forget_home``: the worker that asked lost what it
    kept (a respawn) before the continuation."""
    answers: list[dict[str, Any]] = []
    rounds = []
    while True:
        reply = ask(method, {**params, "split": True, **({"answers": answers} if answers else {})})
        if "pending" not in reply:
            assert "error" not in reply, reply
            return json.dumps(reply["result"], sort_keys=True), rounds
        pending = reply["pending"]
        rounds.append(pending)
        results = []
        for task in pending["tasks"]:
            answer = ask("task", task)
            assert "error" not in answer, answer
            results.append(answer["result"])
        if forget_home:
            assert ask("stats", {"forget": True})["result"]["kept_plans"] >= 1
            assert ask("stats", {})["result"]["kept_plans"] == ask("stats", {})["result"]["kept_sweeps"] == 0
        answers.append({"digest": pending["digest"], "results": results})


def serial(method: str, params: dict[str, Any]) -> str:
    reply = ask(method, params)
    assert "error" not in reply, reply
    return json.dumps(reply["result"], sort_keys=True)


BIG = _table("1-5-0", 5, False, True, 0)  # a 5-player public start: past SPLIT_MIN_STATES


def test_big_public_analysis_splits_its_two_sweeps_and_joins_exactly():
    split, rounds = fake_pool("analyze", {"table": BIG})
    assert [t["task"] for t in rounds[0]["tasks"]] == ["columns.sweep", "columns.sweep"]
    assert [t.get("home", False) for t in rounds[0]["tasks"]] == [False, True]
    assert split == serial("analyze", {"table": BIG})
    again, _ = fake_pool("analyze", {"table": BIG}, forget_home=True)  # the forward sweep recomputed here
    assert again == split


def test_a_mirrored_sweep_too_large_to_travel_is_swept_at_home(monkeypatch):
    monkeypatch.setattr(bridge, "SWEEP_MAX_CHARS", 10)
    split, rounds = fake_pool("analyze", {"table": BIG})
    assert len(rounds) == 1 and split == serial("analyze", {"table": BIG})
    assert ask("task", rounds[0]["tasks"][0])["result"] == "large"


def test_answers_may_pass_the_table_size_limit_but_the_table_may_not(monkeypatch):
    """M41 with 5 players: its mirrored sweep (~4 MB) made the continuation longer than a
    table file may be, and the page refused to start the game."""
    size = len(json.dumps(BIG))
    for module in (bridge, jsonio):  # the answers take the continuation past this
        monkeypatch.setattr(module, "MAX_CHARS", size + 100)
    split, rounds = fake_pool("analyze", {"table": BIG})
    assert len(ask("task", rounds[0]["tasks"][0])["result"]) > size + 100  # the continuation is longer
    assert split == serial("analyze", {"table": BIG})
    monkeypatch.setattr(bridge, "MAX_CHARS", size - 1)
    padded = json.dumps({"id": 1, "method": "analyze", "params": {"table": BIG, "split": True}})
    reply = json.loads(bridge.handle(padded + " " * size))
    assert reply["error"]["message"] == f"the table is {size:,} characters long; at most {size - 1:,} are read"


@pytest.mark.parametrize("seed", range(12))
def test_any_table_split_equals_serial(seed, monkeypatch):
    monkeypatch.setattr(bridge, "SPLIT_MIN_STATES", 0)  # split every table, however small
    rng = random.Random(seed)
    table = _table(f"split-{seed}", rng.choice([2, 3, 4, 5]), rng.random() < 0.5, rng.random() < 0.5,
                   rng.choice([0, 3, 8]))
    if seed % 4 == 3:  # an impossible table: its prefixes are analysed here, serially
        table["events"] += [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": j}, "value": v}
                            for j, v in ((0, 12), (1, 1))]  # 12 left of 1 on a sorted stand
    split, rounds = fake_pool("analyze", {"table": table})
    assert split == serial("analyze", {"table": table})
    assert len(rounds) <= 1


def test_stats_forget_is_checked():
    reply = ask("stats", {"forget": "yes"})
    assert reply["error"]["message"] == "params: field 'forget' must be true or false, not 'yes'"


def test_kept_plans_answer_as_new_ones():
    """A worker keeps the plans of the last problems (columns.plans): the same table again, or
    another and back, gives the same JSON as after forgetting them."""
    other = _table("kept-plans", 4, False, True, 3)
    first = serial("analyze", {"table": BIG})
    assert ask("stats", {})["result"]["kept_plans"] >= 1
    assert serial("analyze", {"table": other}) and serial("analyze", {"table": BIG}) == first
    ask("stats", {"forget": True})
    assert serial("analyze", {"table": BIG}) == first


def test_small_table_is_not_split():
    table = _table("small", 3, True, True, 4)
    split, rounds = fake_pool("analyze", {"table": table})
    assert rounds == [] and split == serial("analyze", {"table": table})


def test_signatures_phase1_blocks_fan_out_and_stay_cached():
    table = _table("sig-3-8", 3, True, True, 8)
    signatures.CACHE.clear()
    expected = serial("analyze", {"table": table, "engine": "signatures"})
    signatures.CACHE.clear()
    split, rounds = fake_pool("analyze", {"table": table, "engine": "signatures"})
    assert split == expected
    assert len(rounds) == 1 and rounds[0]["tasks"] and {t["task"] for t in rounds[0]["tasks"]} == {"signatures.block"}
    hits = ask("stats", {})["result"]["signature_cache"]["hits"]
    again, rounds = fake_pool("analyze", {"table": table, "engine": "signatures"})
    assert again == expected and rounds == []  # every block cached in this worker now
    stats = ask("stats", {})["result"]
    assert stats["signature_cache"]["hits"] > hits and stats["fanned_out_blocks"] >= 1


def test_signatures_round_answered_for_other_blocks_is_recomputed_here():
    table = _table("sig-3-12", 3, True, True, 12)
    signatures.CACHE.clear()
    expected = serial("analyze", {"table": table, "engine": "signatures"})
    signatures.CACHE.clear()
    pending = ask("analyze", {"table": table, "engine": "signatures", "split": True})["pending"]
    stale = {"digest": "0" * 32, "results": [None] * len(pending["tasks"])}
    reply = ask("analyze", {"table": table, "engine": "signatures", "split": True, "answers": [stale]})
    assert json.dumps(reply["result"], sort_keys=True) == expected


@pytest.mark.parametrize("params", [
    {"player": 0, "mode": "entropy"},
    {"player": 1, "mode": "entropy", "probabilities": "seed"},
])
def test_entropy_branches_split_equal_serial(params, monkeypatch):
    """The branches as one boolean run in the asking worker (no round), and where that run
    declines, as packed counting runs fanned out over the pool."""
    from bombbuster_core.suggest import entropy

    table = _table("entropy-1", 4, True, True, 6)
    split, rounds = fake_pool("suggest", {"table": table, **params})
    assert split == serial("suggest", {"table": table, **params})
    assert not any(t["task"] == "executor.call" for r in rounds for t in r["tasks"])
    monkeypatch.setattr(entropy, "support_entropies", lambda *args: None)  # declined: the counting runs
    split, rounds = fake_pool("suggest", {"table": table, **params})
    assert split == serial("suggest", {"table": table, **params})
    assert rounds and all(t["task"] == "executor.call" for r in rounds for t in r["tasks"])
    # Progress counts analyses as the serial run reports them: its last report's total.
    reports = []
    bridge.handle(json.dumps({"id": 1, "method": "suggest", "params": {"table": table, **params}}),
                  lambda done, total: reports.append((done, total)))
    assert sum(rounds[-1]["weights"]) == reports[-1][1]


def test_public_view_suggestions_split_equal_serial():
    table = _table("public-1", 4, False, True, 4)
    params = {"table": table, "player": 2}
    assert fake_pool("suggest", params)[0] == serial("suggest", params)


@pytest.mark.parametrize("params, message", [
    ({"split": 1}, "field 'split'"),
    ({"answers": []}, "field 'answers' needs 'split'"),
    ({"split": True, "answers": [{"digest": 3}]}, "field 'answers'"),
    ({"split": True, "answers": [{"digest": "x", "results": []}]}, "field 'answers' (round 1)"),
])
def test_bad_split_params_are_refused_naming_the_field(params, message):
    reply = ask("analyze", {"table": BIG, **params})
    assert message in reply["error"]["message"]


def test_unknown_or_bad_task_is_an_error_reply():
    assert "unknown task 'nope'" in ask("task", {"task": "nope", "params": {}})["error"]["message"]
    assert "field 'task'" in ask("task", {"task": 3, "params": {}})["error"]["message"]
    assert "error" in ask("task", {"task": "columns.sweep", "params": {"table": {}, "mirrored": True}})


def test_hook_is_removed_after_the_request():
    fake_pool("analyze", {"table": BIG})
    assert columns.SWEEPS_ELSEWHERE is None


def test_the_request_s_budget_travels_with_its_sweeps():
    """Each sweep task runs under the request's budget, not the other worker's default: a
    request allowed more work than the default must not be refused by the worker it splits to."""
    _, rounds = fake_pool("analyze", {"table": BIG, "budget": 10**12})
    assert [t["params"]["budget"] for t in rounds[0]["tasks"]] == [10**12, 10**12]
    # Without one, the tasks carry none: the page starts the mirrored sweep before its round comes
    # (web/js/engine.js, "speculative") from the table alone, and every worker has the default.
    _, rounds = fake_pool("analyze", {"table": BIG})
    assert rounds[0]["tasks"] == [{"task": "columns.sweep", "params": {"table": BIG, "mirrored": True}},
                                  {"task": "columns.sweep", "params": {"table": BIG, "mirrored": False}, "home": True}]
    assert columns.BUDGET == 20_000_000  # the request's budget ends with it
    tight = {"task": "columns.sweep", "params": {"table": BIG, "mirrored": True, "budget": 1000}}
    assert ask("task", tight)["error"]["message"].startswith("too large")
    bad = {"task": "columns.sweep", "params": {"table": BIG, "mirrored": True, "budget": "lots"}}
    assert ask("task", bad)["error"]["message"].startswith("params.params: field 'budget'")


def test_signatures_too_large_is_the_same_refusal_split():
    table = _table("sig-1", 4, True, True, 3)  # a block past the signatures budget
    signatures.CACHE.clear()
    expected = ask("analyze", {"table": table, "engine": "signatures"})["error"]
    reply = ask("analyze", {"table": table, "engine": "signatures", "split": True})
    assert reply.get("error") == expected  # refused at once: no block is sent to the pool


def test_public_suggestion_list_splits_its_analysis():
    """A suggestion list's analysis of its table sweeps its two directions on two workers,
    as the table's analysis does; its conditioned and packed runs stay at home."""
    params = {"table": BIG, "player": 0}
    expected = serial("suggest", params)
    split, rounds = fake_pool("suggest", params)
    assert split == expected
    assert [[t["task"] for t in r["tasks"]] for r in rounds] == [["columns.sweep", "columns.sweep"]]
    assert rounds[0]["tasks"][0]["params"] == {"table": BIG, "mirrored": True}  # the analysis's own task
    _, rounds = fake_pool("suggest", {**params, "state_budget": 10**9})
    assert rounds[0]["tasks"][0]["params"] == {"table": BIG, "mirrored": True, "budget": 10**9}
    again, _ = fake_pool("suggest", params, forget_home=True)
    assert again == expected


@pytest.mark.parametrize("seed", range(10))
def test_any_suggestion_list_split_equals_serial(seed, monkeypatch):
    monkeypatch.setattr(bridge, "SPLIT_MIN_STATES", 0)  # split every table, however small
    rng = random.Random(f"suggest-split-{seed}")
    players = rng.choice([2, 3, 4, 5])
    table = _table(f"suggest-split-{seed}", players, rng.random() < 0.5, rng.random() < 0.5, rng.choice([0, 3, 8]))
    params = {"table": table, "player": rng.randrange(players),
              "equipment": rng.choice([[], ["double_detector"], ["xy_ray", "double_detector", "triple_detector"]])}
    if seed % 3 == 2:
        params["mode"] = "entropy"
    split, rounds = fake_pool("suggest", params)
    assert split == serial("suggest", params)
    assert sum(r["tasks"][0]["task"] == "columns.sweep" for r in rounds) <= 1
