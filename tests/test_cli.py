"""The CLI and the JSON bridge: output shape, exit codes, clear errors, no tracebacks."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from bombbuster_core import bridge, cli
from bombbuster_core.missions import new_table
from bombbuster_core.table import TableError, load_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BASE: dict[str, Any] = {
    "players": [{"name": "Ann", "stands": [3]}, {"name": "Bob", "stands": [3]}],
    "wires": {"deck": {"1": 2, "2": 2, "3": 1, "3.1": 1}},
    "events": [],
}


def run_cli(tmp_path, table: Any, *extra: str) -> tuple[int, dict[str, Any], str]:
    path = tmp_path / "t.json"
    path.write_text(table if isinstance(table, str) else json.dumps(table))
    proc = subprocess.run([sys.executable, "-m", "bombbuster_core", "analyze", str(path), *extra],
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def test_cli_prints_exact_probabilities(tmp_path) -> None:
    table = {**BASE, "events": [{"type": "info_token", "at": {"player": 0, "stand": 0, "slot": 2}, "value": 3}]}
    for engine in ("columns", "brute"):
        code, out, _ = run_cli(tmp_path, table, "--engine", engine)
        assert code == 0 and out["consistent"] is True
        # Ann = (x, y, 3) sorted, so x, y come from {1,1,2,2} and Bob surely ends with 3.1.
        # Ann {1,1}: weight 2!2!/(2!2!) = 1; {1,2}: 2!2!/(1!1!1!1!) = 4; {2,2}: 1.  Total 6.
        assert out["worlds"] == 6
        assert out["slots"][2] == {"player": 0, "stand": 0, "slot": 2, "cut": False, "p": {"3": 1.0}}
        assert out["slots"][5]["p"] == {"3.1": 1.0}
        assert out["slots"][0]["p"] == pytest.approx({"1": 5 / 6, "2": 1 / 6}, abs=1e-15)


def test_cli_impossible_table_exits_1_naming_the_event(tmp_path) -> None:
    table = {**BASE, "events": [
        {"type": "info_token", "at": {"player": 0, "stand": 0, "slot": 0}, "value": 1},
        {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 1},
        {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 1}, "value": 1},
    ]}
    code, out, _ = run_cli(tmp_path, table)
    assert code == 1
    # two 1s in play: Bob's two 1s leave none for Ann's token, whatever Bob's first token says
    assert out == {"consistent": False, "event": 2,
                   "error": "event 2 (info_token) is impossible: it contradicts a 1 token on Ann's slot 1",
                   "contradicts": [{"event": 0, "type": "info_token", "text": "a 1 token on Ann's slot 1"}],
                   "code": "contradicts_one", "fields": {"event": 2, "type": "info_token"}}


@pytest.mark.parametrize("mutate, message", [
    (lambda t: t["events"].append({"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 7},
                                   "value": 1, "success": False, "token": 2}),
     "event 0 (dual_cut) field 'target' field 'slot': 7 is out of range (0..2)"),
    (lambda t: t["events"].append({"type": "info_token", "at": {"player": 0, "stand": 0, "slot": 0}, "value": 1,
                                   "colour": "blue"}),
     "event 0 (info_token): unknown field 'colour'"),
    (lambda t: t["events"].append({"type": "double_cut"}),
     "event 0 (double_cut) field 'type': unknown type 'double_cut'"),
    (lambda t: t["events"].append({"type": "dual_cut", "actor": 0, "target": {"player": 0, "stand": 0, "slot": 1},
                                   "value": 1, "success": False, "token": 2}),
     "event 0 (dual_cut) field 'target': a dual cut points at a teammate's wire"),
    (lambda t: t["events"].append({"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 1},
                                   "value": 9, "success": False, "token": 2}),
     "event 0 (dual_cut) field 'value': 9 is not in play"),
    (lambda t: t["events"].extend([
        {"type": "solo_cut", "actor": 0, "value": 1, "slots": [{"stand": 0, "slot": 0}, {"stand": 0, "slot": 1}]},
        {"type": "info_token", "at": {"player": 0, "stand": 0, "slot": 0}, "value": 1},
        {"type": "dual_cut", "actor": 1, "target": {"player": 0, "stand": 0, "slot": 1}, "value": 2,
         "success": True, "actor_slot": {"stand": 0, "slot": 0}}]),
     "event 2 (dual_cut) field 'target': player 0 stand 0 slot 1 is already cut"),
    (lambda t: t["players"][0].update(stands=[4]), "table field 'players': the stands hold 7 wires but 6 are in play"),
    (lambda t: t.update(me={"player": 0, "stands": [[2, 1, 3]]}), "me field 'stands': stand 0 is not sorted"),
    (lambda t: t.update(wires={"blue": [1, 2], "yellow": [2.5]}), "wires field 'yellow': 2.5 is not a yellow sort key"),
])
def test_malformed_tables_name_event_and_field(tmp_path, mutate, message: str) -> None:
    table = json.loads(json.dumps(BASE))
    mutate(table)
    with pytest.raises(TableError) as err:
        load_table(table)
    assert str(err.value).startswith(message)
    code, out, _ = run_cli(tmp_path, table)
    assert code == 2 and out["error"].startswith(message)


def test_cli_rejects_bad_json_and_missing_file(tmp_path) -> None:
    code, out, _ = run_cli(tmp_path, "{not json")
    assert code == 2 and "is not valid JSON" in out["error"]
    proc = subprocess.run([sys.executable, "-m", "bombbuster_core", "analyze", str(tmp_path / "none.json")],
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 2 and "cannot read" in json.loads(proc.stdout)["error"]
    proc = subprocess.run([sys.executable, "-m", "bombbuster_core", "analyze", "x.json", "--engine", "magic"],
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 2 and "invalid choice" in json.loads(proc.stdout)["error"]


@pytest.mark.parametrize("argv", [["analyze", "t.json"], ["analyze", "t.json", "--engine", "brute"],
                                  ["analyze", "analyze", "--engine", "signatures"], ["analyze", ""]])
def test_cli_reads_plain_analyze_lines_as_argparse_does(argv: list[str]) -> None:
    plain = cli._plain_analyze(argv)  # the start-up shortcut (see cli.py)
    assert plain is not None and vars(plain) == vars(cli._parse(argv))


@pytest.mark.parametrize("argv", [[], ["analyze"], ["analyze", "-h"], ["analyze", "t.json", "--engine=brute"],
                                  ["analyze", "t.json", "--eng", "brute"], ["analyze", "--engine", "brute", "t.json"],
                                  ["analyze", "t.json", "--engine", "magic"], ["analyze", "t.json", "x"],
                                  ["analyze", "-t.json"], ["suggest", "t.json"]])
def test_cli_leaves_other_lines_to_argparse(argv: list[str]) -> None:
    assert cli._plain_analyze(argv) is None


def test_cli_analyze_start_up_imports_stay_lean(tmp_path) -> None:
    """Each analyze is a short-lived process: it must not load what only other commands or type checkers need."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(BASE))

    def imported(*args: str) -> set[str]:
        proc = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True, text=True, cwd=ROOT,
                              env=dict(os.environ, PYTHONPATH=ROOT))
        return {line.split("|")[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}

    lean = {"dataclasses", "typing", "fractions", "pickle", "argparse", "shutil", "inspect", "bombbuster_core.suggest"}
    # The default engine's command reads and prints JSON through jsonio, not json (and its re, enum).
    for extra, banned in ((), lean | {"json", "re", "enum"}), (("--engine", "signatures"), lean):
        loaded = imported("-m", "bombbuster_core", "analyze", str(path), *extra) - imported("-c", "pass")
        assert "bombbuster_core.analysis" in loaded
        assert not loaded & banned


def test_bridge_answers_with_ids_results_and_errors() -> None:
    ok = json.loads(bridge.handle(json.dumps({"id": 7, "method": "analyze", "params": {"table": BASE}})))
    assert ok["id"] == 7 and ok["result"]["consistent"] is True
    bad = json.loads(bridge.handle(json.dumps({"id": "x", "method": "analyze",
                                               "params": {"table": {**BASE, "events": [{"type": "nope"}]}}})))
    detail = ("unknown type 'nope' (info_token, dual_cut, detector, solo_cut, reveal_red, radar, label, fast_pass, "
              "disintegrator, move, swap, absent, dealt, multi_cut, tripwire, equipment)")
    assert bad == {"id": "x", "error": {"message": f"event 0 (nope) field 'type': {detail}", "event": 0,
                                        "code": "event_type_unknown",
                                        "fields": {"path": ["events", 0, "type"], "given": "'nope'",
                                                   "allowed": detail[detail.index("(") + 1:-1].split(", "), "event": 0}}}
    assert "unknown method" in json.loads(bridge.handle('{"id": 1, "method": "fly"}'))["error"]["message"]
    assert "unknown method" in json.loads(bridge.handle('{"id": 1, "method": ["ping"]}'))["error"]["message"]
    assert "error" in json.loads(bridge.handle("not json"))
    assert json.loads(bridge.handle('{"id": 2, "method": "ping"}'))["result"]["version"]



def suggest_cli(tmp_path, table: dict[str, Any], *extra: str) -> tuple[int, dict[str, Any]]:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(table))
    proc = subprocess.run([sys.executable, "-m", "bombbuster_core", "suggest", str(path), *extra],
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def test_suggest_prints_the_top_20_by_default_and_all_on_request(tmp_path) -> None:
    start = new_table(4, 4)  # a 4-player start: hundreds of calls
    code, out = suggest_cli(tmp_path, start, "--player", "0")
    assert code == 0 and len(out["suggestions"]) == cli.TOP < out["total"]
    code, every = suggest_cli(tmp_path, start, "--player", "0", "--top", "all")
    assert code == 0 and len(every["suggestions"]) == every["total"] == out["total"]
    assert every["suggestions"][:cli.TOP] == out["suggestions"]
    assert len(suggest_cli(tmp_path, start, "--player", "0", "--top", "3")[1]["suggestions"]) == 3


def test_suggest_on_a_public_table_says_to_pass_player(tmp_path) -> None:
    code, out = suggest_cli(tmp_path, BASE)
    assert code == 2 and out["error"].startswith("the table is in public view (no 'me'): pass --player P")
