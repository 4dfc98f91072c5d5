"""Mission presets (bombbuster_core/missions.py): every mission x player count, options, CLI and bridge.

The expected wires come from rules.md §1.2's per-mission table, re-typed
below (and checked against the repo's copy docs/rules.md, itself checked
against ../shared/rules.md when that is beside the checkout), and parsed here
independently of the data in missions.py.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import pytest

from bombbuster_core import bridge
from bombbuster_core.missions import MissionError, catalogue, new_table
from bombbuster_core.table import load_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = os.path.join(ROOT, "docs", "rules.md")  # the project's copy of the shared rules text
SHARED_RULES = os.path.join(os.path.dirname(ROOT), "shared", "rules.md")

# rules.md §1.2, "Per-mission wire table (S5; 3–5 players, with the 2p variant in brackets)".
WIRE_TABLE = (
    "1:blue1-6; 2:blue1-8 Y2; 3:blue1-10 R1; 4:Y2 R1 [2p:Y4 R1]; 5:Y2of3 R1 [2p:Y2of3 R2]; 6:Y4 R1 [2p:Y4 R2]; "
    "7:R1of2 [2p:R1of3]; 8:Y2of3 R1of2 [2p:Y4 R1of3]; 9:Y2 R1 [2p:Y4 R2]; 10:Y4 R1; 11:Y2 [2p:Y4]; "
    "12:Y4 R1 [2p:Y4 R2]; 13:R3 (dealt 1 per player); 14:Y2of3 R2 [2p:Y4 R3]; 15:R1of3 [2p:R2of3]; "
    "16:Y2of3 R1 [2p:Y4 R2]; 17:R2of3 [2p:R3]; 18:R2 [2p:R3]; 19:Y2of3 R1; 20:Y2 R2 [2p:Y4 R2of3]; "
    "21:R1of2 [2p:R2]; 22:Y4 R1; 23:R1of3 [2p:R2of3]; 24:R2 [2p:R3]; 25:R2 [2p:R3]; 26:R2; 27:Y4 R1; "
    "28:Y4 R2 [2p:Y4 R3]; 29:R3; 30:Y4 R1of2; 31:R2of3; 32:R2 [2p:R3]; 33:R2of3 [2p:R3]; 34:R1; "
    "35:Y4 R2of3 [2p:Y4 R3]; 36:Y2 R1of3 [2p:Y4 R2of3]; 37:R2 [2p:R3]; 38:R2 [2p:R3]; 39:Y4 R2of3 [2p:Y4 R3]; "
    "40:R3; 41:R1of3 + yellow tripwires [2p:R2of3 Y2]; 42:Y4 R1of3; 43:R3; 44:R1of3; 45:R2 [2p:R3]; "
    "46:Y4 fixed 5.1/6.1/7.1/8.1; 47:R2of3 [2p:R3]; 48:R2 + 3 yellow dealt [2p:R3 Y3]; 49:R2 [2p:R3]; "
    "50:Y2 R2 [2p:Y4 R3]; 51:R1 [2p:R2]; 52:R3 [2p:Y4 R3]; 53:R2 [2p:R3]; 54:R11 set aside on card; "
    "55:R2 [2p:R2of3]; 56:R2of3 [2p:R3]; 57:R1 [2p:R2]; 58:R2 [2p:R3]; 59:R2of3 [2p:R3]; 60:R2of3 [2p:R3]; "
    "61:R1 [2p:R2]; 62:R2 [2p:R3]; 63:R2 [2p:R3]; 64:R1 [2p:R2]; 65:R3; 66:Y2 R2"
)
M22_2P = "S3 also gives M22 2p: R3 [1]. M34 and M65 cannot be played with 2 players"  # the sentence after it
NOT_WITH_2 = {34, 65}


def test_the_retyped_table_is_rules_md_s_own() -> None:
    with open(RULES, encoding="utf-8") as f:
        text = f.read()
    assert WIRE_TABLE in text and M22_2P in text


def test_the_repo_s_rules_md_is_the_shared_one() -> None:
    if not os.path.exists(SHARED_RULES):
        pytest.skip(f"{SHARED_RULES} is not beside this checkout: docs/rules.md is the copy the tests read")
    with open(RULES, encoding="utf-8") as ours, open(SHARED_RULES, encoding="utf-8") as shared:
        assert ours.read() == shared.read(), "docs/rules.md differs from ../shared/rules.md: copy it again"


def test_meta_source_names_the_2_player_variant_only_on_2_player_tables() -> None:
    assert new_table(4, 2)["meta"]["source"].startswith("rules.md §1.2 (S5 wire table); 2-player variant")
    assert "2-player variant" not in new_table(4, 4)["meta"]["source"]
    assert "2-player variant" not in new_table(1, 2)["meta"]["source"]  # M1 has no variant


def _entries() -> dict[int, tuple[str, str | None]]:
    out = {}
    for entry in re.split(r";\s*(?=\d+:)", WIRE_TABLE):
        n, spec = entry.split(":", 1)
        two = re.search(r"\[2p:(.*)\]", spec)
        out[int(n)] = (spec[:two.start()].strip() if two else spec.strip(), two.group(1) if two else None)
    base, _ = out[22]
    out[22] = (base, base.replace("R1", "R3"))  # "S3 also gives M22 2p: R3"
    # Not in rules.md: S3's M26 card text reads "2-player override: x3 red" where the S5 table has no variant;
    # missions.py follows the card text (see its docstring), and so does this expectation.
    out[26] = (out[26][0], "R3")
    return out


ENTRIES = _entries()


def expected(mission: int, players: int) -> dict[str, Any]:
    """What the card puts in play: blue top value, and per colour (count in play, candidates or None), fixed keys."""
    base, two = ENTRIES[mission]
    spec = two if players == 2 and two else base
    blue = re.search(r"blue1-(\d+)", spec)
    out: dict[str, Any] = {"blue": int(blue.group(1)) if blue else 12, "yellow": None, "red": None, "fixed": []}
    for letter, colour in (("Y", "yellow"), ("R", "red")):
        m = re.search(rf"\b{letter}(\d+)(?:of(\d+))?", spec)
        if m:
            out[colour] = (int(m.group(1)), int(m.group(2)) if m.group(2) else None)
    if "yellow dealt" in spec:  # "R2 + 3 yellow dealt"
        out["yellow"] = (int(re.search(r"(\d+) yellow dealt", spec).group(1)), None)
    if "yellow tripwires" in spec:  # rules.md §2: one per player, none to the Captain with 5
        out["yellow"] = (min(players, 4), None)
    if "set aside on card" in spec:  # M54: the reds are not dealt
        out["red"] = None
    if "fixed" in spec:
        out["fixed"] = [float(k) for k in spec.split("fixed ")[1].split("/")]
    return out


CASES = [(m, p) for m in range(1, 67) for p in range(2, 6) if not (p == 2 and m in NOT_WITH_2)]


def stand_size(stand: Any) -> int:
    return stand if isinstance(stand, int) else stand["size"]


@pytest.mark.parametrize("mission, players", CASES)
def test_preset_matches_the_card(mission: int, players: int) -> None:
    table = new_table(mission, players)
    want = expected(mission, players)
    wires = table["wires"]
    assert wires["blue"] == list(range(1, want["blue"] + 1))
    in_play = 4 * want["blue"]
    for colour in ("yellow", "red"):
        digit = 1 if colour == "yellow" else 5
        pools = [p for p in wires.get("uncertain", []) if round(p["candidates"][0] * 10) % 10 == digit]
        if want[colour] is None:
            assert colour not in wires and not pools
            continue
        count, of = want[colour]
        in_play += count
        if of is None:
            assert len(wires[colour]) == count and not pools
            if colour == "yellow" and want["fixed"]:
                assert wires["yellow"] == want["fixed"]
        else:
            assert colour not in wires
            assert [(p["count"], len(p["candidates"])) for p in pools] == [(count, of)]
    if mission == 2:
        assert all(k <= 7.1 for k in wires["yellow"])
    if mission == 3:
        assert all(k <= 9.5 for k in wires["red"])
    # Stands (rules.md §1.3): 2p 2 each, 3p the Captain 2, 4-5p 1 each; the even deal, earlier stands first.
    per_player = [len(p["stands"]) for p in table["players"]]
    assert per_player == {2: [2, 2], 3: [2, 1, 1]}.get(players, [1] * players)
    sizes = [stand_size(s) for p in table["players"] for s in p["stands"]]
    nano = table.get("nano", 0)
    assert sum(sizes) + nano == in_play
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    assert nano == ({2: 5, 3: 4, 4: 4, 5: 3}[players] if mission == 43 else 0)
    meta = table["meta"]
    assert meta["mission"] == mission and meta["name"] and meta["summary"] and table["events"] == []
    assert ("counts_as_red" in wires) == (mission == 11)


@pytest.mark.parametrize("mission, players", CASES)
def test_preset_loads_in_the_core(mission: int, players: int) -> None:
    assert len(load_table(new_table(mission, players)).players) == players


def test_special_stands() -> None:
    def stands(m: int, p: int) -> list[list[Any]]:
        return [pl["stands"] for pl in new_table(m, p)["players"]]

    assert all(s["x_slot"] == "any" for st in stands(20, 3) for s in st)
    assert all(s["x_slot"] == "blue" for st in stands(35, 2) for s in st)
    m38 = stands(38, 3)
    assert m38[0][0]["flipped"] == 1 and isinstance(m38[0][1], int) and all(isinstance(s[0], int) for s in m38[1:])
    assert [[isinstance(s, dict) and s.get("flipped") for s in st] for st in stands(56, 2)] == [[1, False]] * 2
    assert [[s["flipped"] for s in st] for st in stands(64, 3)] == [["low", "high"], [2], [2]]
    assert [[s["flipped"] for s in st] for st in stands(64, 5)] == [[2]] * 5
    assert [[s["size"] for s in st] for st in stands(20, 5)] == [[11], [11], [10], [10], [10]]


def test_dealt_colours_and_placeholders() -> None:
    m13 = new_table(13, 2)["meta"]
    assert "dealt" in m13["rules"] and "multi_cut" in m13["rules"] and "captain_no_setup_token" in m13["rules"]
    assert m13["dealt"] == [{"type": "dealt", "player": 0, "stand": 0, "value": "red", "count": 1},
                            {"type": "dealt", "player": 0, "stand": 1, "value": "red", "count": 1},
                            {"type": "dealt", "player": 1, "value": "red", "count": 1}]
    assert "captain_no_setup_token" not in new_table(13, 4)["meta"]["rules"]
    m41 = new_table(41, 5)["meta"]["dealt"]
    assert [e["count"] for e in m41] == [0, 1, 1, 1, 1]
    m48 = new_table(48, 4)["meta"]["dealt"]
    assert [e["count"] for e in m48] == [1, 1, 1, 0] and {e["value"] for e in m48} == {"yellow"}
    m20 = new_table(20, 2)
    assert m20["meta"]["placeholders"] == ["yellow", "red"] and m20["meta"]["notes"]
    assert m20["wires"]["uncertain"] == [{"candidates": [1.5, 2.5, 3.5], "count": 2}]
    assert "placeholders" not in new_table(20, 2, yellow=[1.1, 3.1, 5.1, 7.1], red=[2.5, 4.5, 6.5])["meta"]
    assert new_table(11, 3)["meta"]["placeholders"] == ["yellow", "number"]
    assert new_table(11, 3, yellow=[4.1, 9.1], number_card=7)["wires"]["counts_as_red"] == 7
    assert "placeholders" not in new_table(46, 4)["meta"] and "placeholders" not in new_table(54, 4)["meta"]
    assert new_table(2, 4)["wires"]["yellow"] == [1.1, 2.1]


def test_options_set_the_drawn_values() -> None:
    t = new_table(8, 4, yellow=["9.1", 2.1, 5.1], red=[11.5, 3.5])
    assert t["wires"]["uncertain"] == [{"candidates": [2.1, 5.1, 9.1], "count": 2},
                                       {"candidates": [3.5, 11.5], "count": 1}]
    assert new_table(2, 3, yellow=[7.1, 1.1])["wires"]["yellow"] == [1.1, 7.1]
    assert new_table(3, 3, red=[9.5])["wires"]["red"] == [9.5]


@pytest.mark.parametrize("args, kwargs, message", [
    ((34, 2), {}, "mission 34 cannot be played with 2 players (allowed: 3, 4, 5)"),
    ((65, 2), {}, "mission 65 cannot be played with 2 players (allowed: 3, 4, 5)"),
    ((0, 4), {}, "no mission 0 (missions 1–66)"),
    ((67, 4), {}, "no mission 67"),
    ((4, 6), {}, "6 players: the game has 2 to 5 players"),
    ((4, 1), {}, "1 players"),
    ((2, 4), {"yellow": [8.1, 1.1]}, "mission 2 yellow: 8.1 is outside the mission's yellow range 1.1–7.1"),
    ((3, 4), {"red": [10.5]}, "mission 3 red: 10.5 is outside the mission's red range 1.5–9.5"),
    ((4, 4), {"yellow": [1.1]}, "mission 4 yellow: the card draws 2 yellow values; got 1 values"),
    ((5, 4), {"yellow": [1.1, 2.1]}, "mission 5 yellow: the card draws 3 yellow candidates (2 of 3 in play)"),
    ((4, 4), {"yellow": [1.1, 1.1]}, "mission 4 yellow: 1.1 is listed twice"),
    ((4, 4), {"yellow": [1.5, 2.1]}, "mission 4 yellow: 1.5 is not a yellow sort key"),
    ((4, 4), {"red": [12.5]}, "mission 4 red: 12.5 is outside"),
    ((4, 4), {"red": ["x"]}, "mission 4 red: 'x' is not a sort key"),
    ((4, 4), {"red": "1.5"}, "mission 4 red: expected a list of sort keys"),
    ((7, 4), {"yellow": [1.1]}, "mission 7 yellow: it has no yellow wire with 4 players"),
    ((46, 4), {"yellow": [5.1, 6.1, 7.1, 8.1]}, "mission 46 yellow: its yellow wires are fixed"),
    ((54, 4), {"red": [1.5]}, "mission 54 red: its 11 red wires lie on the card"),
    ((11, 4), {"number_card": 13}, "mission 11 number: 13 is not a Number card (1–12)"),
    ((12, 4), {"number_card": 3}, "mission 12 number: only mission 11"),
])
def test_refusals(args: tuple[int, int], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(MissionError) as err:
        new_table(*args, **kwargs)
    assert str(err.value).startswith(message)


def run_new(*args: str) -> tuple[int, Any]:
    proc = subprocess.run([sys.executable, "-m", "bombbuster_core", "new", *args], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def test_cli_new() -> None:
    code, out = run_new("--mission", "8", "--players", "4", "--yellow", "2.1, 5.1,9.1", "--red", "3.5,11.5")
    assert code == 0 and out == new_table(8, 4, yellow=[2.1, 5.1, 9.1], red=[3.5, 11.5])
    code, out = run_new("--mission", "11", "--players", "2", "--number", "6")
    assert code == 0 and out["wires"]["counts_as_red"] == 6
    assert run_new("--mission", "34", "--players", "2") == (
        2, {"error": "mission 34 cannot be played with 2 players (allowed: 3, 4, 5)"})
    code, out = run_new("--mission", "2", "--players", "3", "--yellow", "8.1,1.1")
    assert code == 2 and "outside the mission's yellow range" in out["error"]
    code, out = run_new("--mission", "two", "--players", "3")
    assert code == 2 and "invalid int value" in out["error"]
    code, out = run_new("--players", "3")
    assert code == 2 and "--mission" in out["error"]


def test_bridge_missions_and_new() -> None:
    def call(method: str, params: Any) -> dict[str, Any]:
        return json.loads(bridge.handle(json.dumps({"id": 1, "method": method, "params": params})))

    listed = call("missions", {})["result"]
    assert listed == catalogue() and [m["mission"] for m in listed] == list(range(1, 67))
    by = {m["mission"]: m for m in listed}
    assert by[34]["players"] == [3, 4, 5] and by[1]["players"] == [2, 3, 4, 5]
    assert by[5]["choices"]["4"] == {"yellow": {"values": 3, "in_play": 2, "range": [1.1, 11.1]},
                                     "red": {"values": 1, "in_play": 1, "range": [1.5, 11.5]}}
    assert by[2]["choices"]["3"] == {"yellow": {"values": 2, "in_play": 2, "range": [1.1, 7.1]}}
    assert by[11]["choices"]["2"]["number"] == {"range": [1, 12]} and by[46]["choices"]["3"] == {}
    assert "captain_no_setup_token" in by[11]["rules"] and "parity_tokens" in by[21]["rules"]
    for m in listed:
        assert m["name"] and m["summary"] and all(isinstance(t, str) for t in m["rules"])
    assert call("new", {"mission": 5, "players": 3, "yellow": [1.1, 4.1, 8.1]})["result"] == \
        new_table(5, 3, yellow=[1.1, 4.1, 8.1])
    assert call("new", {"mission": 65, "players": 2})["error"]["message"].startswith("mission 65 cannot be played")
    assert call("new", {"mission": 5})["error"] == {"message": "params: missing field 'players'"}
    assert call("missions", {"x": 1})["error"] == {"message": "params: unknown field 'x'"}


def test_rule_tags_are_known_and_documented() -> None:
    from bombbuster_core.missions import RULE_TAGS

    used = {t for m in catalogue() for t in m["rules"]}
    assert used <= set(RULE_TAGS) and set(RULE_TAGS) <= used
    with open(os.path.join(ROOT, "docs", "table-format.md"), encoding="utf-8") as f:
        docs = f.read().split("## Mission presets", 1)[1]
    assert all(f"| `{t}` |" in docs for t in RULE_TAGS)
