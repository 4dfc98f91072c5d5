"""The review of a recorded game (bombbuster_core/review.py) and its CLI command.

A recorded Mission 4 game with one deliberate bad call (tests/data/review_m4.json, made by
tests/data/make_review_m4.py) marks that call the costliest; every entry's odds are the
suggestion list's on the table as it stood (its prefix, from the actor's view); on random small
tables the played call's odds equal the brute-force oracle's (tests/oracle.py); the CLI's exit
codes and its errors name the field.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bombbuster_core.review import ReviewError, entry, played_move, prefix, review, try_move
from bombbuster_core.suggest import suggest
from bombbuster_core.table import load_table

from gamegen import random_game
from oracle import enumerate_table, key_str

ROOT = Path(__file__).resolve().parents[1]
RECORDED = json.loads((ROOT / "tests" / "data" / "review_m4.json").read_text(encoding="utf-8"))
M4, BAD = RECORDED["table"], RECORDED["bad_call"]


def public(table: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in table.items() if k != "me"}


# ---------------------------------------------------------------- the recorded Mission 4 game

def test_the_deliberate_bad_call_is_the_costliest_decision() -> None:
    result = review(M4)
    assert result["consistent"] and result["player"] == 0
    entries = result["decisions"]
    assert {e["actor"] for e in entries} == {0} and all(e["view"] == "player" for e in entries)
    costliest = [e for e in entries if e["costliest"]]
    assert [e["event"] for e in costliest] == [BAD["event"]]
    (bad,) = costliest
    assert bad["played"]["outcome"] == "failure"
    assert bad["played"]["p_success"] == BAD["p_success"] and bad["best"]["p_success"] == BAD["best_p_success"] == 1
    assert bad["cost"] == pytest.approx(1 - BAD["p_success"])
    assert all(e["cost"] < bad["cost"] for e in entries if e is not bad)


def test_public_view_reviews_every_decision_and_still_marks_the_bad_call() -> None:
    table = public(M4)
    entries = review(table)["decisions"]
    loaded = load_table(table)
    moves = [i for i, e in enumerate(loaded.events) if e.type in ("dual_cut", "detector", "solo_cut", "reveal_red")]
    assert [e["event"] for e in entries] == moves
    assert all(e["view"] == "public" for e in entries)
    assert [e["event"] for e in entries if e["costliest"]] == [BAD["event"]]
    # Another player's decisions from a table that is not theirs: the public view.
    others = review(M4, player=1)
    assert others["player"] == 1 and others["decisions"]
    assert all(e["actor"] == 1 and e["view"] == "public" for e in others["decisions"])


@pytest.mark.parametrize("view", ["player", "public"])
def test_entries_equal_suggest_on_the_prefix(view: str) -> None:
    table = M4 if view == "player" else public(M4)
    loaded = load_table(table)
    for e in review(table)["decisions"]:
        listing = suggest(load_table(prefix(table, e["event"], public=view == "public")), player=e["actor"],
                          top=None, cards=False)["suggestions"]
        assert {k: e["best"][k] for k in ("kind", "p_success", "p_red")} == {
            k: listing[0][k] for k in ("kind", "p_success", "p_red")}
        played = e["played"]
        if "not_scored" in e:
            assert played["kind"] in ("solo_cut", "reveal_red") and view == "public"
            continue
        move, _ = played_move(loaded.events[e["event"]], ())
        assert move is not None
        rows = [r for r in listing if r["kind"] == move[0] and r.get("value") == played.get("value")
                and _targets(r) == {(t.player, t.stand, t.slot) for t in move[1]}]
        if played["rank"] is None:  # a detector beyond the searched ones: scored directly
            assert not rows and played["kind"].endswith("detector")
            continue
        assert rows and listing.index(rows[0]) + 1 == played["rank"]
        assert (rows[0]["p_success"], rows[0]["p_red"]) == (played["p_success"], played["p_red"])
        assert e["cost"] == listing[0]["p_success"] - played["p_success"]


def _targets(row: dict[str, Any]) -> set[tuple[int, int, int]]:
    return {(t["player"], t["stand"], t["slot"]) for t in ([row["target"]] if "target" in row else row["targets"])}


def test_a_hypothetical_move_at_the_bad_call() -> None:
    bad = next(e for e in review(M4)["decisions"] if e["event"] == BAD["event"])
    best = {k: bad["best"][k] for k in ("kind", "target", "value")}
    tried = try_move(M4, BAD["event"], best)
    assert tried["tried"]["p_success"] == 1 and tried["cost"] == 0 and "played" not in tried
    # The move played, tried again, has the odds the review gave it.
    again = try_move(M4, BAD["event"], {k: bad["played"][k] for k in ("kind", "target", "value")})
    assert again["tried"]["p_success"] == bad["played"]["p_success"] and again["cost"] == bad["cost"]
    assert load_table(M4).events == load_table(json.loads(json.dumps(M4))).events  # nothing written


@pytest.mark.parametrize("move, field", [
    ("cut", "field 'move'"),
    ({"kind": "fast_pass"}, "field 'move' field 'kind'"),
    ({"kind": "dual_cut", "target": {"player": 1, "stand": 0, "slot": 0}}, "field 'move' field 'value'"),
    ({"kind": "dual_cut", "target": {"player": 7, "stand": 0, "slot": 0}, "value": 4}, "field 'move' field target"),
    ({"kind": "dual_cut", "target": {"player": 1, "stand": 0, "slot": 0}, "value": 40}, "field 'move': the value 40"),
    ({"kind": "dual_cut", "target": {"player": 1, "stand": 0, "slot": 30}, "value": 4}, "field 'move': player 1"),
])
def test_a_malformed_hypothetical_names_the_field(move: Any, field: str) -> None:
    with pytest.raises(ReviewError, match=field):
        try_move(M4, BAD["event"], move)


def test_a_hypothetical_the_view_cannot_play_is_not_scored() -> None:
    own = {"kind": "dual_cut", "target": {"player": 0, "stand": 0, "slot": 0}, "value": 4}
    assert "teammate" in try_move(M4, BAD["event"], own)["not_scored"]
    with pytest.raises(ReviewError, match="field 'event'"):
        try_move(M4, 0, own)  # a setup token is not a decision


def test_a_card_use_is_listed_not_scored() -> None:
    table = dict(M4, events=[*M4["events"], {"type": "equipment", "card": "6", "actor": 2}])
    (card,) = [e for e in review(table, player=2)["decisions"] if e["played"]["kind"] == "equipment"]
    assert "card" in card["not_scored"] and "cost" not in card and not card["costliest"]


def test_seen_wires_recorded_later_are_not_known_before() -> None:
    table = {**M4, "me": {**M4["me"], "seen": [{"at": {"player": 1, "stand": 0, "slot": 0}, "value": 1,
                                                  "after": BAD["event"]}]}}
    assert prefix(table, BAD["event"], public=False)["me"]["seen"] == []
    assert len(prefix(table, BAD["event"] + 1, public=False)["me"]["seen"]) == 1


# ---------------------------------------------------------------- brute force

MAX_WIRES = 12


def small_game(rng: random.Random, **options: Any) -> dict[str, Any]:
    while True:
        table, _ = random_game(rng, **options)
        if sum(sum(p["stands"]) for p in table["players"]) <= MAX_WIRES and table["events"]:
            return table


def oracle_call(table: dict[str, Any], index: int, actor: int, target: dict[str, int], value: Any,
                own: bool) -> tuple[Fraction, Fraction]:
    """P(target is the called value), P(target is red), given that the actor holds an uncut one:
    from the oracle's world counts on the prefix, with and without "the actor holds no v"."""
    before = prefix(table, index, public=not own)

    def law(t: dict[str, Any]) -> tuple[int, Fraction, Fraction]:
        r = enumerate_table(t)
        if not r["consistent"]:
            return 0, Fraction(0), Fraction(0)
        (slot,) = [s for s in r["exact"] if (s["player"], s["stand"], s["slot"]) ==
                   (target["player"], target["stand"], target["slot"])]
        hit = sum((p for k, p in slot["p"].items() if _value(k) == value), Fraction(0))
        red = sum((p for k, p in slot["p"].items() if _value(k) == "red"), Fraction(0))
        return r["worlds"], hit, red

    w, hit, red = law(before)
    if own:
        return hit, red
    lacking = dict(before, events=[*before["events"], {"type": "absent", "player": actor, "values": [value]}])
    w0, hit0, red0 = law(lacking)
    return (w * hit - w0 * hit0) / (w - w0), (w * red - w0 * red0) / (w - w0)


def _value(key: str) -> Any:
    whole, _, tenth = key.partition(".")
    return int(whole) if not tenth else {"1": "yellow", "5": "red"}[tenth]


@pytest.mark.parametrize("seed", range(16))
def test_played_calls_equal_brute_force(seed: int) -> None:
    rng = random.Random(3200 + seed)
    own = seed % 2 == 0
    table = small_game(rng, me=own, players=rng.choice([2, 3]), turns=rng.randint(2, 7))
    checked = 0
    for e in review(table)["decisions"]:
        played = e["played"]
        if played["kind"] != "dual_cut" or "not_scored" in e:
            continue
        p_success, p_red = oracle_call(table, e["event"], e["actor"], played["target"], played["value"],
                                       e["view"] == "player")
        assert played["p_success"] == float(p_success) and played["p_red"] == float(p_red)
        checked += 1
    assert checked or not any(ev["type"] == "dual_cut" for ev in table["events"])


def test_oracle_key_names_match() -> None:
    assert key_str(3.1) == "3.1" and _value("3.1") == "yellow" and _value("2.5") == "red" and _value("7") == 7


# ---------------------------------------------------------------- the CLI

def run_review(tmp_path: Path, table: Any, *extra: str) -> tuple[int, Any, str]:
    path = tmp_path / "t.json"
    path.write_text(table if isinstance(table, str) else json.dumps(table))
    proc = subprocess.run([sys.executable, "-m", "bombbuster_core", "review", str(path), *extra],
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def test_cli_prints_the_list(tmp_path: Path) -> None:
    code, out, err = run_review(tmp_path, M4)
    assert code == 0 and out == review(M4)["decisions"] and err == ""
    code, out, err = run_review(tmp_path, M4, "--player", "1", "--progress")
    assert code == 0 and out == review(M4, player=1)["decisions"]
    assert err.splitlines()[-1] == f"review: {len(out)}/{len(out)} decisions"


@pytest.mark.parametrize("table, extra, message", [
    ("{not json", (), "is not valid JSON"),
    ({**M4, "events": [*M4["events"], {"type": "dual_cut", "actor": 0}]}, (), f"event {len(M4['events'])} (dual_cut)"),
    (M4, ("--player", "9"), "field 'player': 9"),
    (M4, ("--red-cap", "2"), "--red-cap"),
    (M4, ("--engine", "nope"), "--engine"),
])
def test_cli_bad_input_exits_2_naming_the_field(tmp_path: Path, table: Any, extra: tuple[str, ...],
                                                message: str) -> None:
    code, out, _ = run_review(tmp_path, table, *extra)
    assert code == 2 and message in out["error"]


def test_cli_impossible_table_exits_1(tmp_path: Path) -> None:
    own = M4["me"]["stands"][0][0]
    other = 12 if own != 12 else 11
    events = [*M4["events"], {"type": "info_token", "at": {"player": 0, "stand": 0, "slot": 0}, "value": other}]
    code, out, _ = run_review(tmp_path, {**M4, "events": events})
    assert code == 1 and out["consistent"] is False and out["event"] == len(events) - 1


# ---------------------------------------------------------------- the bridge (the page's worker)

def ask(params: dict[str, Any]) -> dict[str, Any]:
    from bombbuster_core import bridge
    return json.loads(bridge.handle(json.dumps({"id": 1, "method": "review", "params": params})))


def test_bridge_review_equals_the_core() -> None:
    heard: list[tuple[int, int]] = []
    from bombbuster_core import bridge
    reply = json.loads(bridge.handle(json.dumps({"id": 1, "method": "review", "params": {"table": M4}}),
                                     lambda done, total: heard.append((done, total))))
    assert reply["result"] == review(M4)
    assert heard[-1] == (len(reply["result"]["decisions"]),) * 2
    one = ask({"table": M4, "event": BAD["event"]})["result"]
    assert {k: v for k, v in one.items()} == {k: v for k, v in review(M4)["decisions"][0].items() if k != "costliest"}
    move = {"kind": "dual_cut", "target": one["best"]["target"], "value": one["best"]["value"]}
    assert ask({"table": M4, "event": BAD["event"], "move": move})["result"] == try_move(M4, BAD["event"], move)


@pytest.mark.parametrize("params, message", [
    ({"table": M4, "player": True}, "field 'player' has the wrong type"),
    ({"table": M4, "event": 0}, "field 'event': 0 is not a decision"),
    ({"table": M4, "move": {}}, "'move' is tried at an 'event'"),
    ({"table": M4, "red_cap": 3}, "field 'red_cap'"),
    ({"table": M4, "event": BAD["event"], "move": {"kind": "dual_cut"}}, "field 'move' field"),
])
def test_bridge_refusals_name_the_field(params: dict[str, Any], message: str) -> None:
    assert message in ask(params)["error"]["message"]


# ---------------------------------------------------------------- the search's judgement

@pytest.fixture(scope="module")
def searched_game() -> tuple[dict[str, Any], int, Any]:
    """A simulated Mission 4 game (no equipment) at an open decision (no certain move), the acting
    player's own table after they made the ranking's third move: (table, that event's index, the
    acting player's action)."""
    from bombbuster_core.sim.greedy import GreedyPolicy
    from bombbuster_core.sim.view import View
    from tests.test_lookahead import open_game

    game = open_game(8)
    actor = game.turn
    view = View(game.table(actor), actor)
    ranked = GreedyPolicy(random.Random(0)).ranking(view, ())
    from bombbuster_core.sim.view import action_of
    action = action_of(ranked[2], actor)
    index = len(game.table(actor)["events"])
    game.play(action)
    table = game.table(actor)
    return {**table, "meta": {k: v for k, v in table["meta"].items() if k != "sim"}}, index, action


def test_the_search_judges_the_players_decision_as_the_search_mode_does(searched_game) -> None:
    from bombbuster_core.sim.search_advice import search

    table, index, _ = searched_game
    one = review(table, search=8, seed=3)["decisions"]
    row = next(e for e in one if e["event"] == index)
    assert row["played"]["rank"] == 3
    mode = search({"table": prefix(table, index, public=False), "iterations": 8, "seed": 3})
    pick = mode["suggestions"][mode["pick"]]
    judged = row["search"]
    assert judged["searched"] and judged["iterations"] == mode["iterations"] == 8
    assert judged["pick"]["win"] == pick["mean"] and judged["pick"]["move"] == pick["move"]
    played = [s for s in mode["suggestions"] if s.get("target") == row["played"]["target"]
              and s.get("value") == row["played"]["value"] and s["kind"] == row["played"]["kind"]]
    assert len(played) == 1
    if played[0]["visits"]:
        assert judged["played_win"] == played[0]["mean"]
        assert judged["win_cost"] == pick["mean"] - played[0]["mean"]
    else:
        assert judged["played_win"] is None and judged["win_cost"] is None
    # Without a search the entries are as before; in public view nothing is searched (no wires of one's own).
    assert [{k: v for k, v in e.items() if k != "search"} for e in one] == review(table)["decisions"]
    judged_in_public = [e["search"] for e in review(public(table), search=2)["decisions"] if "search" in e]
    assert judged_in_public and all(not s["searched"] and "own wires" in s["reason"] for s in judged_in_public)
    assert all(s["reason_why"] == {"code": "not_own_view", "fields": {}} for s in judged_in_public)


def test_a_certain_move_and_a_rule_the_simulator_does_not_play_say_why_not_searched() -> None:
    rows = review(M4, search=4)["decisions"]
    certain = [e for e in rows if e["best"]["certain"]]
    # beside the CLI's English, the code and fields the page words (sim/refusals.py SEARCH_REFUSAL_CODES)
    assert certain and all(e["search"] == {"searched": False, "reason": "a certain move",
                                           "reason_why": {"code": "certain_move", "fields": {}}} for e in certain)
    unplayed = {**M4, "meta": {**M4.get("meta", {}), "rules": ["unknown-rule"]}}
    refused = [e["search"] for e in review(unplayed, search=4)["decisions"] if "search" in e]
    assert refused and all(not s["searched"] and "unknown-rule" in s["reason"] for s in refused)
    assert all(s["reason_why"] == {"code": "rules_not_played", "fields": {"mode": "search", "rules": ["unknown-rule"]}}
               for s in refused)


def test_a_review_without_a_search_leaves_the_simulator_unloaded(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(M4))
    code = ("import json, sys; from bombbuster_core.review import review; "
            f"review(json.load(open({str(path)!r}))); "
            "print(sorted(m for m in sys.modules if m.startswith('bombbuster_core.sim')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_the_search_is_bounded_by_the_search_modes_work(tmp_path: Path, searched_game) -> None:
    """``search_work`` bounds each decision's search as the Search mode's ``work`` does: the least work
    leaves one iteration, the same the Search mode runs with that bound."""
    from bombbuster_core.sim.search_advice import search

    table, index, _ = searched_game
    (row,) = [e for e in review(table, search=8, seed=3, search_work=1)["decisions"] if e["event"] == index]
    mode = search({"table": prefix(table, index, public=False), "iterations": 8, "seed": 3, "work": 1})
    assert row["search"]["iterations"] == mode["iterations"] == 1
    assert row["search"]["pick"]["move"] == mode["suggestions"][mode["pick"]]["move"]
    code, out, _ = run_review(tmp_path, table, "--search", "8", "--seed", "3", "--search-work", "1")
    assert code == 0 and next(e for e in out if e["event"] == index)["search"]["iterations"] == 1


def test_a_card_use_of_mine_gets_the_searchs_judgement_too() -> None:
    """A card use is not scored by the ranking, but the search still judges the decision (here it says
    why it did not run: the position after the Walkie-Talkies' choice has one candidate)."""
    tables = json.loads((ROOT / "tests" / "data" / "stakes_decisions.json").read_text(encoding="utf-8"))
    table = next(x.get("table", x) for x in tables if len(x.get("table", x)["events"]) > 13
                 and x.get("table", x)["events"][13]["type"] == "equipment")
    row = entry(table, load_table(table), 13, search=4)
    assert row["view"] == "player" and "not_scored" in row
    assert row["search"] == {"searched": False, "reason": "a single candidate move",
                             "reason_why": {"code": "single_candidate", "fields": {}}}


@pytest.mark.parametrize("params, message", [
    ({"search": -1}, "field 'search'"), ({"search": 10**6}, "field 'search'"), ({"search": 4, "seed": "x"}, "field 'seed'"),
    ({"search": 4, "search_work": 0}, "field 'search_work'"), ({"search": 4, "search_work": "x"}, "field 'search_work'"),
])
def test_bad_search_requests_name_the_field(params: dict[str, Any], message: str) -> None:
    with pytest.raises(ReviewError, match=message):
        review(M4, **params)
    reply = ask({"table": M4, **params})
    assert message in reply["error"]["message"] or "wrong type" in reply["error"]["message"]


def test_cli_search_option(tmp_path: Path, searched_game) -> None:
    table, index, _ = searched_game
    code, out, _ = run_review(tmp_path, table, "--search", "4", "--seed", "1")
    assert code == 0 and out == review(table, search=4, seed=1)["decisions"]
    assert next(e for e in out if e["event"] == index)["search"]["searched"]


def test_a_position_too_large_to_rank_gives_the_engine_limits_code(monkeypatch) -> None:
    """Past the state budget a decision is not scored: the CLI's English, and the limit's code and fields the page words."""
    from bombbuster_core.engines import columns

    monkeypatch.setattr(columns, "BUDGET", 1500)  # the whole table fits; the earlier positions (fewer facts) do not
    rows = [row for row in review(M4)["decisions"] if "not_scored" in row]
    assert rows and all(row["not_scored"].startswith("the position is too large to rank: too large")
                        and row["not_scored_why"]["code"] in ("states_budget", "sweep_budget")
                        and row["not_scored_why"]["fields"]["budget"] == 1500 for row in rows)
