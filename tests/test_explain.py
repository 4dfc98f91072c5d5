"""``explain``: the reasons it gives force the deduction, and each one is needed — by brute force.

The oracle (tests/oracle.py) enumerates the deals that make the kept events true at
their moment in the real game (the others only move and cut wires as they did), with
the observer's left-out wires unknown: it reads the events' rule text, not the
compiler's facts that explain.py reuses.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bombbuster_core.events import SlotRef
from bombbuster_core.explain import ExplainError, explain
from bombbuster_core.table import load_table
from gamegen import random_game
from oracle import Table as OracleTable
from oracle import enumerate_table
from test_full_rules_oracle import SCENARIOS, _falsify, _game

ROOT = Path(__file__).resolve().parent.parent
SEEDS = 12


def possible(table: dict[str, Any], deal: Any, at: SlotRef, kept: list[dict[str, Any]]) -> set[str]:
    """The oracle's values of the wire now at ``at`` given only the ``kept`` reasons."""
    truth = enumerate_table(table, checked={r["event"] for r in kept if "event" in r}, reference=deal,
                            forget=forgotten(table, kept))
    assert truth["consistent"]  # a subset of true statements: the real deal fits
    row = next(r for r in truth["slots"] if (r["player"], r["stand"], r["slot"]) == tuple(at.json().values()))
    return {_gameplay(k) for k in row["p"]}


def forgotten(table: dict[str, Any], kept: list[dict[str, Any]], upto: int | None = None) -> set[int]:
    """The wires the observer knows (own, seen) that no kept reason names, as the oracle's identities;
    ``upto``: the reasons' slots are read after that many events (explain.conflict's prefix)."""
    if not table.get("me"):
        return set()
    t = OracleTable(table)
    me = table["me"]["player"]
    now = t.layouts[len(t.events) if upto is None else upto]
    kept_wires = {t.initial[t.stand_index[(me, r["own"]["stand"])]][r["own"]["slot"]] for r in kept if "own" in r}
    kept_wires |= {now[t.stand_index[(r["seen"]["player"], r["seen"]["stand"])]][r["seen"]["slot"]]
                   for r in kept if r.get("seen")}
    return set(t.known) - kept_wires


def _gameplay(key: str) -> str:
    whole, _, digit = key.partition(".")
    return {"": whole, "1": "yellow", "5": "red"}[digit]


def check(table: dict[str, Any], deal: Any, limit: int = 3) -> int:
    """Explain up to ``limit`` certain uncut wires (and one ruled-out value); check each answer."""
    loaded = load_table(table)
    truth = enumerate_table(table)
    in_play = {_gameplay(k) for row in truth["slots"] for k in row["p"]}
    checked = 0
    for row in truth["slots"]:
        if checked >= limit or row["cut"]:
            continue
        at = SlotRef(row["player"], row["stand"], row["slot"])
        values = {_gameplay(k) for k in row["p"]}
        claims: list[tuple[Any, bool]] = []
        if len(values) == 1:
            claims.append((_value(values.pop()), False))
        else:
            ruled_out = sorted(in_play - values)
            if ruled_out:
                claims.append((_value(ruled_out[0]), True))
        for value, negated in claims:
            try:
                answer = explain(loaded, at, value, negated=negated)
            except ExplainError:
                assert negated  # a value out of the deck is not "ruled out" by the table
                continue
            checked += 1
            kept = answer["because"]
            shown = str(value)

            def holds(reasons: list[dict[str, Any]]) -> bool:
                found = possible(table, deal, at, reasons)
                return shown not in found if negated else found == {shown}

            assert holds(kept), (answer, table)
            for i in range(len(kept)):
                assert not holds(kept[:i] + kept[i + 1:]), (f"not needed: {kept[i]}", answer)
    return checked


def _value(raw: str) -> Any:
    return int(raw) if raw.isdigit() else raw


def small_game(seed: int, **options: Any) -> tuple[dict[str, Any], Any]:
    """A random legal game on 2-4 stands of 3-4 wires: small enough for the oracle's many runs."""
    rng = random.Random(seed)
    stands = [[rng.randint(3, 4)] for _ in range(rng.randint(2, 3))]
    return random_game(rng, stands=stands, turns=rng.randint(3, 9), **options)


@pytest.mark.parametrize("seed", range(SEEDS))
def test_base_game_reasons_force_the_value_and_each_is_needed(seed: int) -> None:
    # the first of ten tables with a deduction to check (one whose wires are all cut has none)
    assert any(check(*small_game(7000 + 10 * seed + k)) for k in range(10))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_full_rules_reasons_force_the_value_and_each_is_needed(name: str) -> None:
    if name.startswith("large"):  # the oracle would enumerate every deal many times
        pytest.skip("too large for repeated brute force")
    assert sum(check(*_game(name, seed), limit=1) for seed in range(3)) >= 1


def _two_players() -> dict[str, Any]:
    return {"players": [{"name": "Ann", "stands": [4]}, {"name": "Bob", "stands": [4]}],
            "wires": {"blue": [1, 2]},
            "events": []}


def test_hand_worked_a_failed_call_with_its_token() -> None:
    table = _two_players()
    table["events"] = [
        {"type": "info_token", "at": {"player": 0, "stand": 0, "slot": 0}, "value": 1},
        {"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 2}, "value": 1,
         "success": False, "token": 2},
    ]
    answer = explain(load_table(table), SlotRef(1, 0, 2))
    assert answer["statement"] == "Bob's slot 3 is a 2"
    assert [r["event"] for r in answer["because"]] == [1]
    assert answer["because"][0]["text"] == "Ann's failed call of 1 on Bob's slot 3, a 2 token"


def test_hand_worked_the_wires_own_stand_is_preferred() -> None:
    """Bob's slot 1 is a 1 by sorting below his token 1 (event 0); Ann's token 2 (event 2)
    forces it too, by counting (Bob cannot hold four 2s: Ann has one).  Both are 1-minimal;
    the reasons about Bob's own stand are taken away last, so the answer is the one a
    player reads off the stand."""
    table = _two_players()
    table["events"] = [
        {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 1}, "value": 1},
        {"type": "info_token", "at": {"player": 0, "stand": 0, "slot": 1}, "value": 1},
        {"type": "info_token", "at": {"player": 0, "stand": 0, "slot": 3}, "value": 2},
    ]
    answer = explain(load_table(table), SlotRef(1, 0, 0))
    assert answer["statement"] == "Bob's slot 1 is a 1"
    assert [r["event"] for r in answer["because"]] == [0]
    table["events"] = table["events"][1:]
    assert [r["text"] for r in explain(load_table(table), SlotRef(1, 0, 0))["because"]] == [
        "a 2 token on Ann's slot 4"]


def test_a_wire_that_is_not_certain_is_refused_with_its_values() -> None:
    with pytest.raises(ExplainError, match="not certain: it may be a 1, a 2"):
        explain(load_table(_two_players()), SlotRef(0, 0, 1))


def test_own_wires_are_reasons() -> None:
    table = _two_players()
    table["me"] = {"player": 0, "stands": [[1, 1, 1, 2]]}
    answer = explain(load_table(table), SlotRef(1, 0, 0))  # Bob holds the last 1 and three 2s
    assert answer["statement"] == "Bob's slot 1 is a 1"
    # Bob cannot hold four 2s once I hold one: the smallest reason is my own 2
    assert [r["text"] for r in answer["because"]] == ["your own slot 4, a 2"]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bombbuster_core", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


def test_cli_explain(tmp_path: Path) -> None:
    table = _two_players()
    table["events"] = [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 1}, "value": 1}]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(table))
    done = _cli("explain", str(path), "--slot", "1:0:0")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["because"] == [
        {"event": 0, "type": "info_token", "text": "a 1 token on Bob's slot 2"}]
    ruled = _cli("explain", str(path), "--slot", "1:0:0", "--not", "2")
    assert ruled.returncode == 0 and json.loads(ruled.stdout)["statement"] == "Bob's slot 1 is not a 2"
    unsure = _cli("explain", str(path), "--slot", "0:0:0")
    assert unsure.returncode == 2 and "not certain" in json.loads(unsure.stdout)["error"]
    bad = _cli("explain", str(path), "--slot", "1-0-0")
    assert bad.returncode == 2 and "--slot" in json.loads(bad.stdout)["error"] and not bad.stderr


def test_bridge_explain_answers_as_the_cli_and_names_bad_fields() -> None:
    from bombbuster_core.bridge import handle

    table = _two_players()
    table["events"] = [{"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 1}, "value": 1}]

    def ask(**params: Any) -> dict[str, Any]:
        return json.loads(handle(json.dumps({"id": 1, "method": "explain", "params": {"table": table, **params}})))

    slot = {"player": 1, "stand": 0, "slot": 0}
    assert ask(slot=slot)["result"] == explain(load_table(table), SlotRef(1, 0, 0))
    assert ask(slot=slot, **{"not": 2})["result"]["statement"] == "Bob's slot 1 is not a 2"
    assert "field 'slot'" in ask(slot=[1, 0, 0])["error"]["message"]
    assert "field 'not'" in ask(slot=slot, **{"not": 13.5})["error"]["message"]
    assert "not certain" in ask(slot={"player": 0, "stand": 0, "slot": 0})["error"]["message"]
    assert "not on the table" in ask(slot={"player": 1, "stand": 0, "slot": 9})["error"]["message"]


# -- what an impossible event contradicts (analysis.analyze's "contradicts")


def _falsified(seed: int) -> tuple[dict[str, Any], Any, int] | None:
    """A random game with one event's claim reversed, the real deal and the reversed event's index."""
    rng = random.Random(9000 + seed)
    table, deal = small_game(9000 + seed, me=rng.random() < 0.6)
    blues = sorted({k for hand in deal for st in hand for k in st if isinstance(k, int)})
    spots = [i for i, ev in enumerate(table["events"]) if _falsify(ev, random.Random(0), blues)]
    if not spots:
        return None
    i = rng.choice(spots)
    events = list(table["events"])
    events[i] = _falsify(events[i], rng, blues)
    return {**table, "events": events}, deal, i


def test_an_impossible_event_names_what_it_contradicts_each_needed() -> None:
    from bombbuster_core.analysis import analyze

    named = 0
    for seed in range(40):
        made = _falsified(seed)
        if made is None:
            continue
        bad, deal, reversed_at = made
        got = analyze(load_table(bad))
        # the real deal makes every event before the reversed one true: the oracle replays the
        # events left out on it, so only a table impossible at the reversed event is checked
        if got["consistent"] or got["event"] != reversed_at:
            continue
        i, against = got["event"], got["contradicts"]
        named += 1
        assert all(r["event"] < i for r in against if "event" in r)

        def impossible(reasons: list[dict[str, Any]]) -> bool:
            checked = {r["event"] for r in reasons if "event" in r} | {i}
            return not enumerate_table(bad, i + 1, checked=checked, reference=deal,
                                       forget=forgotten(bad, reasons, i + 1))["consistent"]

        assert impossible(against), (got, bad)
        for n in range(len(against)):
            assert not impossible(against[:n] + against[n + 1:]), (f"not needed: {against[n]}", got)
        if len(against) == 1:
            assert got["error"].endswith(f"it contradicts {against[0]['text']}")
        elif 1 < len(against) <= 3:
            assert got["error"].endswith("it contradicts these together: " + "; ".join(r["text"] for r in against))
    assert named >= 10, named


def test_hand_worked_a_call_against_my_own_wire() -> None:
    from bombbuster_core.analysis import analyze

    table = _two_players()
    table["me"] = {"player": 0, "stands": [[1, 1, 2, 2]]}
    table["events"] = [
        {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 1},
        {"type": "dual_cut", "actor": 1, "target": {"player": 0, "stand": 0, "slot": 2}, "value": 1,
         "success": True, "actor_slot": {"stand": 0, "slot": 0}},
    ]
    got = analyze(load_table(table))
    assert got["error"] == "event 1 (dual_cut) is impossible: it contradicts your own slot 3, a 2"
    assert got["contradicts"] == [{"own": {"stand": 0, "slot": 2}, "value": "2", "text": "your own slot 3, a 2"}]
    # a call that no deal allows whatever came before (Ann's slot 4 a 1 makes five 1s) names nothing
    table["events"][1]["target"]["slot"] = 3
    got = analyze(load_table(table))
    assert got["error"] == "event 1 (dual_cut) is impossible: no deal of the wires fits it, whatever came before"
