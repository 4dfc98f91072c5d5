"""The ranking knows the stakes (issue 34): the dial's last space and the futile moves.

At the dial's last space a failure loses the game as surely as a red, so the
first move offered is the one likeliest to succeed, whatever its red risk,
and its why-text says so.  Recorded decisions: the three M8 5p games (seed
2026) where greedy, following the list, lost on a call that could not succeed
while one that could was listed (tests/data/make_stakes_decisions.py made
them; game 34 is the issue's).  A move that cannot succeed and tells nothing
(P(success) 0, one possible outcome) never ranks above one that can at the last
space; with spaces left, one within the red cap is a pass that costs a space and
ranks below every move within the cap that can succeed, above the moves too red
(putting it last lost greedy 0.030 on M8 5p: docs/results/issue34-stakes.md):
checked against brute force on random small tables (test_suggest.Truth).
"""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bombbuster_core.public_state import dial
from bombbuster_core.suggest import EQUIPMENT, Policy, SuggestError, suggest
from bombbuster_core.table import load_table

from test_suggest import Truth, check_against_truth, slot_of, small_game

DECISIONS = json.loads((Path(__file__).parent / "data" / "stakes_decisions.json").read_text(encoding="utf-8"))
LAST = "the next failure loses"


@pytest.mark.parametrize("row", DECISIONS, ids=lambda r: f"M{r['mission']}-{r['players']}p-game{r['game']}")
def test_at_the_last_space_the_first_move_is_the_likeliest_to_succeed(row: dict[str, Any]) -> None:
    table = load_table(row["table"])
    assert dial(table).failures_left == 0  # type: ignore[union-attr]
    # The ranking before the stakes offered first the move greedy played: it could not succeed.
    before = suggest(table, player=row["player"], policy=Policy(stakes=False), cards=False)["suggestions"]
    assert {k: before[0][k] for k in ("kind", "target", "value")} == {
        k: row["played"][k] for k in ("kind", "target", "value")}
    assert before[0]["p_success"] == 0 < max(s["p_success"] for s in before)
    listed = suggest(table, player=row["player"], cards=False)["suggestions"]
    first = listed[0]
    assert first["p_success"] == max(s["p_success"] for s in listed) > 0  # the chance of not losing now
    assert first["why"].startswith(f"{LAST}: this call succeeds {first['p_success']:.0%}")
    assert all(LAST in s["why"] for s in listed if not s["certain"])
    assert "cap" not in first["why"]  # the red cap does not rank at the last space
    # The calls are in the order of their chance of not losing (the equipment uses, single-use, after them).
    calls = [s["p_success"] for s in listed if s["kind"] == "dual_cut"]
    assert calls == sorted(calls, reverse=True)


def test_game_34_offers_the_call_at_60_percent_first() -> None:
    row = next(r for r in DECISIONS if r["game"] == 34)
    first = suggest(load_table(row["table"]), player=2, cards=False)["suggestions"][0]
    assert (slot_of(first["target"]), first["value"], first["p_success"], first["p_red"]) == ((0, 0, 7), 8, 0.6, 0.4)
    assert first["why"] == f"{LAST}: this call succeeds 60% (red risk 40.0%, 0.97 bits)"


def brute_futile(truth: Truth, s: dict[str, Any]) -> bool:
    """Brute force: the move cannot succeed and has one possible outcome (what the deals say)."""
    if s["kind"] in ("dual_cut", "xy_ray"):
        t = slot_of(s["target"])
        values = [s["value"]] if s["kind"] == "dual_cut" else s["values"]
        seen = {truth.g(d, t) for d, _ in truth.deals if truth.holds(d, values)}
        return not seen & set(values) and len(seen) == 1
    if s["kind"].endswith("detector"):
        ts = [slot_of(x) for x in s["targets"]]
        given = [d for d, _ in truth.deals if truth.holds(d, [s["value"]])]
        hits = {any(truth.g(d, t) == s["value"] for t in ts) for d in given}
        reds = {all(truth.g(d, t) == "red" for t in ts) for d in given}
        return hits == {False} and len(reds) == 1
    return False




SEEDS = range(60)


def test_no_futile_move_ranks_above_one_that_can_succeed() -> None:
    """Random small tables, many failures (the dial often at its last space): at the last space every
    futile move by brute force comes after every move that can succeed, and the calls come by
    P(success); with spaces left a futile move comes after every move within the red cap that can
    succeed, and one above the cap comes last, with the words of a pass when within it."""
    futile_seen = last_space_seen = passes_seen = 0
    policy = Policy(per_kind=100, equipment_budget=None, equipment=EQUIPMENT)
    for seed in SEEDS:
        rng = random.Random(3400 + seed)
        table = small_game(rng, me=True, players=rng.choice([2, 3]), turns=rng.randint(1, 6),
                           move_weights={"success": 2.0, "failure": 5.0, "solo": 1.0, "reveal_red": 0.5})
        try:
            result = suggest(load_table(table), policy=policy)
        except SuggestError:
            continue  # the random game went past the skull: no next move
        if not result["consistent"]:
            continue
        truth = Truth(table, table["me"]["player"])
        check_against_truth(table, result, truth)
        listed = result["suggestions"]
        futile = [i for i, s in enumerate(listed) if brute_futile(truth, s)]
        can = [i for i, s in enumerate(listed) if s["p_success"] > 0]
        futile_seen += bool(futile and can)
        now = dial(load_table(table))
        spaces_left = now is not None and now.failures_left > 0
        cap = policy.red_cap
        for i, j in itertools.product(futile, can):
            passing = spaces_left and listed[i]["p_red"] <= cap
            if passing and listed[j]["p_red"] > cap:
                continue  # a pass may come before a move too red
            assert j < i, (seed, listed[i], listed[j])
        for i in futile:
            if spaces_left and listed[i]["p_red"] <= cap:
                passes_seen += 1
                assert listed[i]["why"].startswith("cannot succeed: a pass that costs a dial space"), listed[i]
        if now is not None and now.failures_left <= 0:
            last_space_seen += 1
            calls = [s["p_success"] for s in listed if s["kind"] == "dual_cut" and not brute_futile(truth, s)]
            assert calls == sorted(calls, reverse=True), seed
            free = [s["p_success"] for s in listed if s["kind"] in ("dual_cut", "solo_cut", "reveal_red")]
            assert listed[0]["p_success"] == max(free), seed  # the equipment (single-use) has its own group
    assert futile_seen >= 5 and last_space_seen >= 5 and passes_seen >= 3, (futile_seen, last_space_seen, passes_seen)


# ---------------------------------------------------------------- the cards when every call is too red


@pytest.mark.parametrize("call, detector, cards, failures_left, expected", [
    ((0.6, 0.04), (0.9, 0.0), {"stabilizer", "detector", "coffee_mug"}, 2, None),  # the call is within the cap
    ((0.6, 0.4), (0.5, 0.0), {"stabilizer", "detector", "coffee_mug", "walkie_talkies"}, 2, "stabilizer"),
    ((0.6, 0.4), (0.5, 0.0), {"detector", "coffee_mug", "walkie_talkies"}, 2, "detector"),
    ((0.6, 0.4), (0.0, 0.0), {"detector", "coffee_mug"}, 2, "coffee_mug"),  # a detector that cannot succeed
    ((0.6, 0.4), (0.9, 0.2), {"detector", "coffee_mug"}, 2, "coffee_mug"),  # nor one too red itself
    ((0.6, 0.4), (0.5, 0.0), {"detector", "coffee_mug"}, 0, "coffee_mug"),  # last space: 0.5 < 0.6
    ((0.6, 0.4), (0.6, 0.0), {"detector", "coffee_mug"}, 0, "detector"),
    ((0.6, 0.4), None, {"walkie_talkies"}, None, "walkie_talkies"),
    ((0.6, 0.4), None, set(), 1, None),
    (None, None, {"coffee_mug"}, 1, None),  # no call at all
])
def test_red_escape_order(call: Any, detector: Any, cards: set[str], failures_left: int | None,
                          expected: str | None) -> None:
    from bombbuster_core.suggest.equipment import red_escape

    assert red_escape(call, detector, cards, 0.05, failures_left) == expected


def game_34_with(cards: list[str]) -> dict[str, Any]:
    """Game 34's decision (best call 60 %, red 40 %) with more unused cards on the board."""
    row = next(r for r in DECISIONS if r["game"] == 34)
    table = json.loads(json.dumps(row["table"]))
    table["equipment"] = table["equipment"] + [{"card": c} for c in cards]
    return table


def verdicts(table: dict[str, Any]) -> dict[str, tuple[str, str]]:
    out = suggest(load_table(table), player=2)["equipment"]["cards"]
    return {c["card"]: (c["verdict"], c["why"]) for c in out}


def test_the_advice_weighs_the_cards_when_the_best_call_is_too_red() -> None:
    mug = verdicts(game_34_with(["11"]))["11"]
    assert mug == ("use now", "the best call risks the bomb above the 5% cap: pass the turn to a teammate")
    both = verdicts(game_34_with(["11", "9"]))
    assert both["9"][0] == "use now" and both["11"] == (
        "keep", "the best call risks red above the 5% cap, but the stabilizer avoids it")
    talkies = verdicts(game_34_with(["2"]))["2"]
    assert talkies[0] == "use now" and talkies[1].startswith("the best call risks red above the 5% cap: give the lone 8")
    with_mug = verdicts(game_34_with(["11", "2"]))
    assert with_mug["11"][0] == "use now" and with_mug["2"][0] == "keep"  # the Mug first


def test_greedy_plays_the_card_the_advice_names() -> None:
    """Greedy's card at game 34's decision is the advice's (with the same cards offered by the game)."""
    from bombbuster_core.sim.actions import UseCard
    from bombbuster_core.sim.greedy import FormerGreedyPolicy, GreedyPolicy
    from bombbuster_core.sim.view import View

    row = next(r for r in DECISIONS if r["game"] == 34)
    offers = {"11": {"card": "11", "effect": "11", "options": [0, 1, 3, 4]},
              "9": {"card": "9", "effect": "9", "options": [[t, 8] for t in ([0, 0, 6], [0, 0, 7], [4, 0, 5], [4, 0, 6])]},
              "2": {"card": "2", "effect": "2", "options": [[[2, 0, 3], q] for q in (0, 1, 3, 4)]}}
    for cards in (["11"], ["11", "9"], ["2"], ["11", "2"]):
        raw = json.loads(json.dumps(row["table"]))
        raw["meta"]["sim"]["pending"]["equipment"] = [offers[c] for c in cards]
        action = GreedyPolicy(random.Random(0)).move(View(raw, row["player"]))
        advised = [c for c, (verdict, _) in verdicts(game_34_with(cards)).items() if verdict == "use now"]
        assert isinstance(action, UseCard) and [action.card] == advised, (cards, action)
        if action.card == "9":
            assert list(action.option) == [(0, 0, 7), 8]  # the best call, stabilised
    # Greedy before issue 34 stabilised its best call: the zero-chance one.
    raw = json.loads(json.dumps(row["table"]))
    raw["meta"]["sim"]["pending"]["equipment"] = [offers["9"]]
    assert FormerGreedyPolicy(random.Random(0)).move(View(raw, row["player"])) == UseCard("9", ((4, 0, 5), 8))
