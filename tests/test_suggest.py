"""Cut suggestions against brute force: every probability, every legality claim, the entropy formula.

Ground truth comes from a small enumerator written here: every deal of the
in-play tiles into sorted stands, weighted by the shuffle prior, kept when
``tests/oracle.py``'s independent ``is_consistent`` accepts it.  Joint events
(detectors, "the player holds v") are then plain sums over those deals.
"""
from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from bombbuster_core.bridge import handle
from bombbuster_core.cli import main
from bombbuster_core.suggest import EQUIPMENT, Policy, SuggestError, suggest
from bombbuster_core.table import load_table

from gamegen import gameplay, random_game
from oracle import is_consistent, norm_key

Slot = tuple[int, int, int]


# ---------------------------------------------------------------- brute force


def deals(table: dict[str, Any]) -> list[tuple[list[list[tuple]], int]]:
    """Every consistent deal (per player, per stand, sorted keys) with its prior weight."""
    wires = table["wires"]
    fixed: Counter = Counter()
    pools: list[tuple[list, int]] = []
    if "deck" in wires:
        for k, n in wires["deck"].items():
            fixed[norm_key(k)] += n
    else:
        for v in wires["blue"]:
            fixed[v] += 4
        for k in wires.get("yellow", []) + wires.get("red", []):
            fixed[norm_key(k)] += 1
        pools = [([norm_key(c) for c in p["candidates"]], p["count"]) for p in wires.get("uncertain", [])]
    sizes = [(p, s, n) for p, pl in enumerate(table["players"]) for s, n in enumerate(pl["stands"])]
    me = table.get("me")
    known = {(me["player"], s): tuple(norm_key(k) for k in hand) for s, hand in enumerate(me["stands"])} if me else {}
    out = []
    for chosen in itertools.product(*(itertools.combinations(c, k) for c, k in pools)):
        copies = Counter(fixed)
        copies.update(k for subset in chosen for k in subset)
        keys = sorted(copies)
        num = math.prod(math.factorial(n) for n in copies.values())

        def rec(i: int, left: Counter, hands: list[tuple], den: int):
            if i == len(sizes):
                yield hands, num // den
                return
            p, st, n = sizes[i]
            if (p, st) in known:
                options = [known[(p, st)]]
            elif i == len(sizes) - 1:  # the last stand takes what is left
                options = [tuple(sorted(left.elements()))]
            else:
                options = itertools.combinations_with_replacement(keys, n)
            for hand in options:
                c = Counter(hand)
                if all(c[k] <= left[k] for k in c):
                    yield from rec(i + 1, left - c, hands + [hand], den * math.prod(math.factorial(m) for m in c.values()))

        for hands, w in rec(0, copies, [], 1):
            deal: list[list[tuple]] = [[] for _ in table["players"]]
            for (p, _, _), hand in zip(sizes, hands):
                deal[p].append(hand)
            if is_consistent(table, deal):
                out.append((deal, w))
    return out


def cut_slots(table: dict[str, Any]) -> set[Slot]:
    cut: set[Slot] = set()
    for e in table.get("events", []):
        if e["type"] == "dual_cut" and e["success"]:
            cut.add((e["target"]["player"], e["target"]["stand"], e["target"]["slot"]))
            cut.add((e["actor"], e["actor_slot"]["stand"], e["actor_slot"]["slot"]))
        elif e["type"] in ("solo_cut", "reveal_red"):
            cut.update((e["actor"], w["stand"], w["slot"]) for w in e["slots"])
    return cut


class Truth:
    """Sums over the consistent deals of a table."""

    def __init__(self, table: dict[str, Any], player: int):
        self.table, self.player = table, player
        self.deals = deals(table)
        self.cut = cut_slots(table)
        self.total = sum(w for _, w in self.deals)

    def g(self, deal, slot: Slot):
        return gameplay(deal[slot[0]][slot[1]][slot[2]])

    def uncut(self, player: int) -> list[Slot]:
        return [(player, s, j) for s, n in enumerate(self.table["players"][player]["stands"]) for j in range(n)
                if (player, s, j) not in self.cut]

    def holds(self, deal, values) -> bool:
        return all(any(self.g(deal, s) == v for s in self.uncut(self.player)) for v in values)

    def p(self, event, given=lambda deal: True) -> Fraction:
        den = sum(w for d, w in self.deals if given(d))
        return Fraction(sum(w for d, w in self.deals if given(d) and event(d)), den) if den else Fraction(0)

    def held_values(self) -> set:
        return {self.g(d, s) for d, _ in self.deals for s in self.uncut(self.player)} - {"red"}


def slot_of(row: dict[str, int]) -> Slot:
    return (row["player"], row["stand"], row["slot"])


def check_against_truth(table: dict[str, Any], result: dict[str, Any], truth: Truth) -> None:
    close = pytest.approx
    held = truth.held_values()
    teammates = [s for q in range(len(table["players"])) if q != truth.player for s in truth.uncut(q)]
    calls = {(slot_of(s["target"]), s["value"]) for s in result["suggestions"] if s["kind"] == "dual_cut"}
    assert calls == {(t, v) for t in teammates for v in held}, "every teammate slot x every held value"
    for s in result["suggestions"]:
        kind = s["kind"]
        if kind in ("dual_cut", "xy_ray"):
            t = slot_of(s["target"])
            values = [s["value"]] if kind == "dual_cut" else s["values"]
            given = lambda d, values=values: truth.holds(d, values)  # noqa: E731
            success = truth.p(lambda d: truth.g(d, t) in values, given)
            red = truth.p(lambda d: truth.g(d, t) == "red", given)
            assert s["p_success"] == close(float(success), abs=1e-12)
            assert s["p_red"] == close(float(red), abs=1e-12)
            assert s["p_legal"] == close(float(truth.p(given)), abs=1e-12)
            assert s["certain"] == (success == 1)
            tokens = {o["value"]: o["p"] for o in s["outcomes"] if o["outcome"] == "token"}
            for w in {truth.g(d, t) for d, _ in truth.deals} - set(values) - {"red"}:
                assert tokens.get(w, 0) == close(float(truth.p(lambda d, w=w: truth.g(d, t) == w, given)), abs=1e-12)
        elif kind.endswith("detector"):
            ts = [slot_of(x) for x in s["targets"]]
            v = s["value"]
            assert isinstance(v, int) and len({(q, st) for q, st, _ in ts}) == 1 and ts[0][0] != truth.player
            given = lambda d, v=v: truth.holds(d, [v])  # noqa: E731
            success = truth.p(lambda d: any(truth.g(d, t) == v for t in ts), given)
            red = truth.p(lambda d: all(truth.g(d, t) == "red" for t in ts), given)
            assert s["p_success"] == close(float(success), abs=1e-12), kind
            assert s["p_red"] == close(float(red), abs=1e-12), kind
            assert s["p_strike"] == close(float(1 - success - red), abs=1e-12)
            if kind == "super_detector":
                assert set(ts) == set(truth.uncut(ts[0][0])) & {t for t in truth.uncut(ts[0][0]) if t[1] == ts[0][1]}
        elif kind == "solo_cut":
            ts = {slot_of(x) for x in s["targets"]}
            for d, _ in truth.deals:
                everywhere = {x for q in range(len(table["players"])) for x in truth.uncut(q) if truth.g(d, x) == s["value"]}
                assert everywhere == ts
        elif kind == "reveal_red":
            assert {slot_of(x) for x in s["targets"]} == set(truth.uncut(truth.player))
            assert all(truth.g(d, x) == "red" for d, _ in truth.deals for x in truth.uncut(truth.player))


def solo_expected(table: dict[str, Any], truth: Truth) -> set:
    """Values whose every remaining copy is surely the player's, at slots known for sure."""
    out = set()
    for v in truth.held_values():
        places = {frozenset(x for q in range(len(table["players"])) for x in truth.uncut(q) if truth.g(d, x) == v)
                  for d, _ in truth.deals}
        if len(places) == 1:
            (where,) = places
            if where and all(x[0] == truth.player for x in where):
                out.add(v)
    return out


# ---------------------------------------------------------------- tests

MAX_WIRES = 13  # keeps the brute force fast


def small_game(rng: random.Random, **options: Any) -> dict[str, Any]:
    while True:
        table, _ = random_game(rng, **options)
        if sum(sum(p["stands"]) for p in table["players"]) <= MAX_WIRES:
            return table



EVERYTHING = Policy(red_cap=1.0, per_kind=100, equipment_budget=None, equipment=EQUIPMENT)


@pytest.mark.parametrize("seed", range(40))
def test_exact_suggestions_equal_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    table = small_game(rng, me=True, players=rng.choice([3, 4]), turns=rng.randint(0, 5))
    truth = Truth(table, table["me"]["player"])
    result = suggest(load_table(table), policy=EVERYTHING)
    assert result["consistent"] and result["incomplete"] == []
    check_against_truth(table, result, truth)
    solos = {s["value"] for s in result["suggestions"] if s["kind"] == "solo_cut"}
    assert solos == solo_expected(table, truth)


@pytest.mark.parametrize("seed", range(12))
def test_public_view_conditions_on_holding_the_called_value(seed: int) -> None:
    rng = random.Random(1000 + seed)
    table = small_game(rng, me=False, players=3, turns=rng.randint(0, 4))
    player = rng.randrange(3)
    truth = Truth(table, player)
    result = suggest(load_table(table), player=player, policy=EVERYTHING)
    check_against_truth(table, result, truth)
    # The per-value "holds v" analyses may run through an executor: same answer.
    assert suggest(load_table(table), player=player, policy=EVERYTHING,
                   executor=lambda fn, jobs: [fn(j) for j in jobs]) == result


@pytest.mark.parametrize("seed", range(15))
def test_best_double_detector_is_the_brute_force_best(seed: int) -> None:
    rng = random.Random(2000 + seed)
    table = small_game(rng, me=True, players=3, turns=rng.randint(0, 3))
    player = table["me"]["player"]
    truth = Truth(table, player)
    cap = Fraction(1, 10)
    result = suggest(load_table(table), policy=Policy(red_cap=float(cap), equipment=("double_detector",),
                                                      equipment_budget=None))
    dds = [s for s in result["suggestions"] if s["kind"] == "double_detector"]
    best = Fraction(0)
    for q, pl in enumerate(table["players"]):
        for st in range(len(pl["stands"]) if q != player else 0):
            uncut = [x for x in truth.uncut(q) if x[1] == st]
            for v in (x for x in truth.held_values() if isinstance(x, int)):
                single = {x: truth.p(lambda d, x=x: truth.g(d, x) == v) for x in uncut}
                for a, b in itertools.combinations(uncut, 2):
                    both = truth.p(lambda d: v in (truth.g(d, a), truth.g(d, b)))
                    red = truth.p(lambda d: truth.g(d, a) == truth.g(d, b) == "red")
                    useful = 0 < min(single[a], single[b]) and max(single[a], single[b]) < 1
                    if useful and red <= cap and both > max(single[a], single[b]):
                        best = max(best, both)
    if best:
        assert dds and dds[0]["p_success"] == pytest.approx(float(best), abs=1e-12)
    else:
        assert all(s["p_red"] > cap for s in dds)


_TRUTHS: dict[tuple[str, int], Truth] = {}


def truth_of(table: dict[str, Any], player: int) -> Truth:
    """Truth, shared by the tests that enumerate the same table."""
    key = (json.dumps(table, sort_keys=True), player)
    if key not in _TRUTHS:
        _TRUTHS[key] = Truth(table, player)
    return _TRUTHS[key]


def brute_expected_entropy(truth: Truth, target: Slot, v, probabilities: str) -> float:
    positions = [x for q in range(len(truth.table["players"])) for x in truth.uncut(q)]
    mine = truth.uncut(truth.player)
    # Each consistent deal as {uncut slot: gameplay value}, kept when the player holds v.
    given = [(row, w) for row, w in (({x: truth.g(d, x) for x in positions}, w) for d, w in truth.deals)
             if any(row[x] == v for x in mine)]

    def h(branch) -> float | None:
        kept = [row for row, _ in given if branch(row)]
        if not kept:
            return None
        return sum(math.log2(len({row[x] for row in kept})) for x in positions)

    if probabilities == "seed":
        possible = {row[target] for row, _ in given}
        p_s = 1 / len(possible) if v in possible else 0.0
    else:
        total = sum(w for _, w in given)
        p_s = sum(w for row, w in given if row[target] == v) / total
    h_s, h_f = h(lambda row: row[target] == v), h(lambda row: row[target] != v)
    return (p_s * h_s if p_s and h_s is not None else 0.0) + ((1 - p_s) * h_f if p_s < 1 and h_f is not None else 0.0)


@pytest.mark.parametrize("probabilities", ["seed", "exact"])
@pytest.mark.parametrize("seed", range(10))
def test_entropy_mode_equals_brute_force_formula(seed: int, probabilities: str) -> None:
    rng = random.Random(3000 + seed)
    table = small_game(rng, me=seed % 2 == 0, players=3, turns=rng.randint(0, 4))
    player = table["me"]["player"] if "me" in table else rng.randrange(3)
    truth = truth_of(table, player)
    seen: list[tuple[int, int]] = []
    result = suggest(load_table(table), player=player, mode="entropy", probabilities=probabilities,
                     policy=Policy(equipment=(), red_cap=1.0), progress=lambda done, total: seen.append((done, total)))
    calls = [s for s in result["suggestions"] if s["kind"] == "dual_cut"]
    for s in calls:
        expected = brute_expected_entropy(truth, slot_of(s["target"]), s["value"], probabilities)
        assert s["expected_entropy"] == pytest.approx(expected, abs=1e-5)
    # The futile calls (P(success) 0, one outcome: issue 34) come last, whatever their E[H].
    futile = [s["p_success"] == 0 and s["bits"] == 0 for s in calls if not s["certain"]]
    assert futile == sorted(futile)
    ranked = [s["expected_entropy"] for s in calls if not s["certain"] and not (s["p_success"] == 0 and s["bits"] == 0)]
    assert ranked == sorted(ranked)
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1]


def test_entropy_mode_uses_the_executor_and_the_cache() -> None:
    table = {**HAND, "me": {"player": 0, "stands": [[1, 2, 3, 3]]}}
    for engine in ("columns", "brute"):
        mapped: list[list] = []

        def executor(fn, jobs):
            jobs = list(jobs)
            mapped.append(jobs)
            return [fn(j) for j in jobs]

        cache: dict = {}
        first = suggest(load_table(table), mode="entropy", engine=engine, executor=executor, cache=cache)
        again = suggest(load_table(table), mode="entropy", engine=engine, executor=executor, cache=cache)
        jobs = [job for batch in mapped for job in batch]
        if engine == "columns":  # every branch in one boolean run here (support.py): no executor job
            assert jobs == []
        else:  # one job per branch
            assert len(mapped[0]) == len(cache) and mapped[1] == []
        assert len(cache) == first["branch_analyses"] > 0
        assert again["branch_analyses"] == 0
        assert {**first, "branch_analyses": 0} == again
        if engine == "columns":
            packed = first
        else:
            assert {**first, "analyses": 0} == {**packed, "analyses": 0}


def test_entropy_mode_has_one_budget_for_all_its_branches(tmp_path, capsys, monkeypatch) -> None:
    """The 127 branches' boolean run fits a 1,000-state budget and answers as without one; at
    250 states (the table's analysis fits) it is refused with the budget's message, from the CLI (with or without --jobs)
    and the worker alike.  Where the boolean run declines the plan, the branches are counted:
    each packed run alone fits the 1,000 states (332-572 each), the 6 together (~2,500) do
    not: refused at once; with room, every run gets a share of the one budget and the
    answer is the unlimited one."""
    from bombbuster_core.beliefs import EngineLimit
    from bombbuster_core.engines import columns
    from bombbuster_core.engines.columns import support

    monkeypatch.setattr(columns, "BUDGET", columns.BUDGET)  # main() sets it from --state-budget
    table = {"players": [{"stands": [5]}] * 4, "wires": {"blue": [1, 2, 3, 4, 5]},
             "me": {"player": 0, "stands": [[1, 2, 3, 4, 5]]}}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table))
    assert main(["suggest", str(path), "--mode", "entropy", "--state-budget", "1000"]) == 0
    fits = json.loads(capsys.readouterr().out)
    refusal = "too large for the entropy mode: the boolean run of its 127 branch analyses goes past the budget of 250"
    for jobs in ("1", "2"):
        assert main(["suggest", str(path), "--mode", "entropy", "--state-budget", "250", "--jobs", jobs]) == 2
        assert json.loads(capsys.readouterr().out)["error"].startswith(refusal)
    reply = json.loads(handle(json.dumps({"id": 1, "method": "suggest",
                                          "params": {"table": table, "mode": "entropy", "state_budget": 250}})))
    assert reply["error"]["message"].startswith(refusal)
    # beside the English, the limit's code and fields: the page words them (limit.CODE)
    assert (reply["error"]["code"], reply["error"]["fields"]) == ("entropy_boolean_budget", {"branches": 127, "budget": 250})
    monkeypatch.setattr(columns, "BUDGET", math.inf)
    assert suggest(load_table(table), mode="entropy", top=20) == fits  # the CLI lists 20 by default
    # the counting runs, where the boolean run declines
    monkeypatch.setattr(support, "supports", lambda *args: None)
    counted = "too large for the entropy mode: its 127 branch analyses would visit more than"
    for jobs in ("1", "2"):
        assert main(["suggest", str(path), "--mode", "entropy", "--state-budget", "1000", "--jobs", jobs]) == 2
        assert json.loads(capsys.readouterr().out)["error"].startswith(counted)
    assert main(["suggest", str(path), "--state-budget", "1000"]) == 0  # the exact mode fits
    monkeypatch.setattr(columns, "BUDGET", 1000)
    with pytest.raises(EngineLimit, match=counted) as refused:
        suggest(load_table(table), mode="entropy")
    assert refused.value.code == "entropy_branches_budget" and refused.value.fields["branches"] == 127
    assert refused.value.fields["budget"] == 1000 and refused.value.fields["states"] > 1000
    monkeypatch.setattr(columns, "BUDGET", 10_000)
    shared = suggest(load_table(table), mode="entropy")
    monkeypatch.setattr(columns, "BUDGET", math.inf)
    assert shared == suggest(load_table(table), mode="entropy")
    assert suggest(load_table(table), mode="entropy", top=20) == fits


# ---------------------------------------------------------------- by hand

# Three players, one stand each, blue 1..3 (12 wires, 4 per stand).
HAND = {"players": [{"stands": [4]}, {"stands": [4]}, {"stands": [4]}], "wires": {"blue": [1, 2, 3]}}


def test_certain_call_and_solo_cut_by_hand() -> None:
    # I hold 1 1 2 2; both other 1s were cut by player 1 and 2 between them: my two 1s are the last.
    table = {**HAND, "me": {"player": 0, "stands": [[1, 1, 2, 2]]}, "events": [
        {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 3}, "value": 3},
        {"type": "dual_cut", "actor": 2, "target": {"player": 1, "stand": 0, "slot": 0}, "value": 1,
         "success": True, "actor_slot": {"stand": 0, "slot": 0}},
    ]}
    result = suggest(load_table(table), policy=Policy(equipment=()))
    kinds = [(s["kind"], s.get("value")) for s in result["suggestions"]]
    assert ("solo_cut", 1) in kinds[:2]
    solo = next(s for s in result["suggestions"] if s["kind"] == "solo_cut")
    assert [slot_of(x) for x in solo["targets"]] == [(0, 0, 0), (0, 0, 1)]
    # Player 1 slot 3 carries a 3 token, but I hold no 3: no certain call there.  The rest of player 1
    # (slots 1, 2) and player 2 hold {2,2,3,3,3} and a 3 minus the token's: no call is certain.
    assert [s for s in result["suggestions"] if s["certain"]] == [solo]
    # Give me a 3 instead of a 2: the token slot becomes a certain call, and so does player 2's
    # slot 1 (the five hidden wires are 2 2 2 3 3, and player 1 can hold at most two of the 2s).
    table["me"]["stands"] = [[1, 1, 2, 3]]
    result = suggest(load_table(table), policy=Policy(equipment=()))
    certain = [s for s in result["suggestions"] if s["certain"]]
    assert {(s["kind"], s.get("value"), slot_of(s["target"]) if "target" in s else None) for s in certain} == {
        ("solo_cut", 1, None), ("dual_cut", 3, (1, 0, 3)), ("dual_cut", 2, (2, 0, 1))}
    assert result["suggestions"][: len(certain)] == certain
    assert all(s["bits"] == 0 for s in certain)


def test_reveal_red_when_only_reds_remain() -> None:
    table = {"players": [{"stands": [2]}, {"stands": [3]}], "wires": {"blue": [1], "red": [1.5]},
             "me": {"player": 0, "stands": [[1, 1.5]]},
             "events": [{"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 0}, "value": 1,
                         "success": True, "actor_slot": {"stand": 0, "slot": 0}}]}
    result = suggest(load_table(table))
    assert [s["kind"] for s in result["suggestions"]] == ["reveal_red"]
    assert [slot_of(x) for x in result["suggestions"][0]["targets"]] == [(0, 0, 1)]


def test_tie_break_is_seeded_not_positional() -> None:
    # Players 1 and 2 are interchangeable and all their slots are symmetric in pairs: ties everywhere.
    table = {**HAND, "me": {"player": 0, "stands": [[1, 2, 3, 3]]}}
    tops = set()
    for seed in range(12):
        result = suggest(load_table(table), policy=Policy(seed=seed, equipment=()))
        first = result["suggestions"][0]
        tops.add((slot_of(first["target"]), first["value"]))
        again = suggest(load_table(table), policy=Policy(seed=seed, equipment=()))
        assert again == result  # seeded: reproducible
    assert len(tops) > 1  # ...but not a fixed order
    assert {t[0][0] for t in tops} == {1, 2}


def test_red_cap_orders_risky_calls_last() -> None:
    table = {"players": [{"stands": [3]}, {"stands": [3]}], "wires": {"blue": [1], "red": [1.5, 2.5]},
             "me": {"player": 0, "stands": [[1, 1, 1.5]]}}
    result = suggest(load_table(table), policy=Policy(equipment=(), red_cap=0.0))
    risks = [s["p_red"] for s in result["suggestions"]]
    safe = [r == 0 for r in risks]
    assert safe == sorted(safe, reverse=True)


def test_no_token_missions_merge_failures() -> None:
    table = {**HAND, "me": {"player": 0, "stands": [[1, 2, 3, 3]]}}
    with_token = suggest(load_table(table), policy=Policy(equipment=()))
    without = suggest(load_table(table), policy=Policy(equipment=(), failure_token=False))
    for a, b in zip(with_token["suggestions"], without["suggestions"]):
        assert b["bits"] <= a["bits"] + 1e-12
        assert all(o["outcome"] != "token" for o in b["outcomes"])


# ---------------------------------------------------------------- CLI and bridge


def test_cli_and_bridge_agree(tmp_path, capsys) -> None:
    table = {**HAND, "me": {"player": 0, "stands": [[1, 2, 3, 3]]}}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table))
    assert main(["suggest", str(path), "--top", "5", "--no-cards"]) == 0  # the bridge advises only when asked
    cli = json.loads(capsys.readouterr().out)
    assert len(cli["suggestions"]) == 5
    reply = json.loads(handle(json.dumps({"id": 1, "method": "suggest", "params": {"table": table, "top": 5}})))
    assert reply == {"id": 1, "result": cli}
    assert main(["suggest", str(path), "--mode", "entropy"]) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main(["suggest", str(path), "--mode", "entropy", "--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == serial
    assert main(["suggest", str(path), "--player", "7"]) == 2
    assert "out of range" in json.loads(capsys.readouterr().out)["error"]
    with pytest.raises(SystemExit) as usage:
        main(["suggest", str(path), "--mode", "nope"])
    assert usage.value.code == 2 and "invalid choice" in json.loads(capsys.readouterr().out)["error"]
    impossible = {**table, "events": [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 3},
                                      {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 3}, "value": 1}]}
    path.write_text(json.dumps(impossible))
    assert main(["suggest", str(path)]) == 1
    assert json.loads(capsys.readouterr().out)["consistent"] is False
    public = {k: v for k, v in table.items() if k != "me"}
    with pytest.raises(SuggestError):
        suggest(load_table(public))
    reply = json.loads(handle(json.dumps({"id": 2, "method": "suggest", "params": {"table": public}})))
    assert "no player to move" in reply["error"]["message"]


def test_a_certain_call_names_its_condition_when_holding_the_value_is_not_certain() -> None:
    """Issue 21: in public view a call may be certain only if the player holds the value."""
    table = {"players": [{"name": "Ann", "stands": [6]}, {"name": "Bob", "stands": [6]}], "wires": {"blue": [1, 2, 3]},
             "events": [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 1}]}
    certain = [s for s in suggest(load_table(table), player=0)["suggestions"] if s["certain"]]
    assert certain and all(s["p_legal"] < 1 for s in certain)
    assert certain[0]["why"] == f"certain if the player holds 1 (P {certain[0]['p_legal']:.0%}): this wire can only be 1"
    mine = suggest(load_table({**table, "me": {"player": 0, "stands": [[1, 1, 2, 2, 3, 3]]}}))["suggestions"]
    assert mine[0]["certain"] and mine[0]["why"] == "certain: this wire can only be 1"


# ---------------------------------------------------------------- the order of the list


def test_rank_key_orders_as_the_exact_probabilities() -> None:
    """rank_key's (and exact_key's) floats only speed up the comparisons: the order is the exact one, also between
    probabilities a float cannot tell apart (the reference key below is the Fractions alone)."""
    from bombbuster_core.suggest.ranking import Suggestion, exact_key, rank_key

    def reference(s: Suggestion, cap: float) -> tuple:
        if float(s.p_red) <= cap:
            return (0, -s.p_success, -s.bits, s.tiebreak)
        return (1, s.p_red, -s.p_success, -s.bits, s.tiebreak)

    rng = random.Random(5)
    third, tiny = Fraction(1, 3), Fraction(1, 10**30)  # 1/3 and 1/3 + 1e-30 round to one float
    odds = [third, third + tiny, third - tiny, Fraction(1, 2), Fraction(0), Fraction(1, 7), Fraction(2, 7)]
    reds = [Fraction(0), Fraction(1, 50), Fraction(1, 10), Fraction(1, 10) + tiny]
    for _ in range(200):
        listing = []
        for _ in range(12):
            p, red = rng.choice(odds), rng.choice(reds)
            rest = 1 - p - red
            # the bits favour the smaller probability: the order must come from the Fractions
            outcomes = [("success", None, p), ("failure", None, rest)] if p <= Fraction(1, 3) else [("success", None, p)]
            listing.append(Suggestion("dual_cut", (), (1,), p, red, p == 1, outcomes, tiebreak=rng.choice([0.25, 0.5])))
        assert [id(s) for s in sorted(listing, key=lambda s: rank_key(s, 0.05))] == [
            id(s) for s in sorted(listing, key=lambda s: reference(s, 0.05))]
        shuffled = rng.sample(odds + reds, len(odds + reds))  # the detectors' heap key too
        assert sorted(shuffled, key=exact_key) == sorted(shuffled)
    worst = [third + tiny, third, third - tiny]  # one float: a float key alone keeps this order
    assert sorted(worst, key=exact_key) == worst[::-1] != sorted(worst, key=float)
    huge = [Fraction(10**400 + 1, 3 * 10**400), Fraction(1, 3 * 10**300), Fraction(2**60 - 1, 2**61)]
    assert [exact_key(p)[0] for p in odds + reds + huge] == [float(p) for p in odds + reds + huge]


LEAN = ("kind", "target", "targets", "value", "values", "p_success", "p_red", "certain")


@pytest.mark.parametrize("seed", range(12))
def test_unexplained_list_is_the_explained_one_cut_to_its_moves_and_odds(seed: int) -> None:
    """explain=False (the simulator's): each row is the full row's move, odds and certainty, in the same
    order, whatever the mode, view and equipment kinds."""
    rng = random.Random(seed)
    raw = small_game(rng, me=rng.choice([True, False]), turns=rng.randint(0, 6))
    table = load_table(raw)
    options = {"mode": rng.choice(["exact", "entropy"]), "policy": Policy(seed=seed, equipment=EQUIPMENT),
               "player": rng.randrange(len(raw["players"]))}
    full = suggest(table, **options)
    lean = suggest(table, explain=False, **options)
    assert lean["suggestions"] == [{k: row[k] for k in LEAN if k in row} for row in full["suggestions"]]
    assert {k: v for k, v in lean.items() if k != "suggestions"} == {k: v for k, v in full.items()
                                                                     if k != "suggestions"}


@pytest.mark.parametrize("seed", range(6))
def test_suggest_runs_its_analyses_in_the_ones_given(seed: int) -> None:
    """suggest(analyses=...): the same answer, and the analyses kept hold the table's beliefs (the
    simulator's views read them instead of analysing again); used ones are refused."""
    from bombbuster_core.analysis import beliefs
    from bombbuster_core.facts import compile_table
    from bombbuster_core.suggest.analyses import Analyses

    rng = random.Random(seed)
    raw = small_game(rng, me=True, turns=rng.randint(0, 6))
    table = load_table(raw)
    options = {"player": rng.randrange(len(raw["players"])), "policy": Policy(seed=seed, equipment=EQUIPMENT)}
    runs = Analyses(compile_table(table), "columns")
    assert suggest(table, analyses=runs, **options) == suggest(table, **options)
    assert runs.runs and frozenset() in runs.memo  # suggest's own runs, its root among them
    assert runs.beliefs() == beliefs(table)
    with pytest.raises(ValueError, match="fresh"):
        suggest(table, analyses=runs, **options)
