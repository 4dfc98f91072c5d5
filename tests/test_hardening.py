"""Hostile and odd inputs: a clear error or a result, never a traceback; no orphan processes.

Issue 13's cases: non-finite and huge numbers, deep nesting, duplicate keys,
numbers JSON does not spell, booleans for numbers, near-miss sort keys; bad
suggestion options through the CLI and the bridge; killing the CLI while its
forked sweep or process pool runs.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bombbuster_core import bridge
from bombbuster_core.children import usable_jobs
from bombbuster_core.table import TableError, load_table
from interrupt import STOPS_WITHIN, child_pids, started, wait_for, wait_for_end  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BASE = '{"players": [{"stands": [3]}, {"stands": [3]}], "wires": {"deck": {"1": 2, "2": 2, "3": 1, "3.1": 1}}, %s}'
SLOT = '{"player": 0, "stand": 0, "slot": 0}'


def cli(tmp_path: Path, text: str, *args: str, command: str = "analyze") -> tuple[int, dict[str, Any]]:
    path = tmp_path / "t.json"
    path.write_text(text)
    proc = subprocess.run([sys.executable, "-m", "bombbuster_core", command, str(path), *args], capture_output=True,
                          text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


HOSTILE = {
    "NaN key": BASE % '"me": {"player": 0, "stands": [[NaN, 1, 2]]}',
    "Infinity key": BASE % '"me": {"player": 0, "stands": [[Infinity, 1, 2]]}',
    "1e308 key": BASE % '"me": {"player": 0, "stands": [[1e308, 1, 2]]}',
    "1e400 key": BASE % '"me": {"player": 0, "stands": [[1, 2, 1e400]]}',
    "near-miss yellow": BASE % '"me": {"player": 0, "stands": [[1, 2, 3.1000001]]}',
    "underscore key": BASE.replace('"3": 1', '"1_0": 1') % '"events": []',
    "full-width key": BASE.replace('"3": 1', '"\uff13": 1') % '"events": []',
    "format true": BASE % '"format": true',
    "duplicate key": BASE % '"events": [], "events": []',
    "deep nesting": BASE % ('"meta": ' + "[" * 100_000 + "]" * 100_000),
    "boolean size": '{"players": [{"stands": [true]}, {"stands": [5]}], "wires": {"deck": {"1": 6}}}',
    "no type": BASE % ('"events": [{"at": %s, "value": 1}]' % SLOT),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_tables_get_a_clear_error(tmp_path: Path, name: str) -> None:
    code, out = cli(tmp_path, HOSTILE[name])
    assert code == 2 and out["error"], out
    reply = json.loads(bridge.handle('{"id": 1, "method": "analyze", "params": {"table": %s}}' % HOSTILE[name]))
    assert reply["id"] in (1, None) and reply["error"]["message"]
    assert "internal error" not in reply["error"]["message"]


def test_messages_say_what_is_wrong() -> None:
    with pytest.raises(TableError, match="nearest: 3.1"):
        load_table(json.loads(BASE % '"me": {"player": 0, "stands": [[1, 2, 3.1000001]]}'))
    with pytest.raises(TableError, match="nearest: 3.1"):
        load_table(json.loads(BASE % '"me": {"player": 0, "stands": [[1, 2, 3.5]]}'))
    with pytest.raises(TableError, match="missing field 'type'"):
        load_table(json.loads(BASE % ('"events": [{"at": %s, "value": 1}]' % SLOT)))


def test_huge_text_is_refused(tmp_path: Path) -> None:
    code, out = cli(tmp_path, BASE % ('"meta": "%s"' % ("x" * 5_000_000)))
    assert code == 2 and "at most" in out["error"]


@pytest.mark.parametrize("cap", ["nan", "inf", "1e400", "-0.5", "2"])
def test_bad_red_cap_is_refused(tmp_path: Path, cap: str) -> None:
    code, out = cli(tmp_path, BASE % '"me": {"player": 0, "stands": [[1, 1, 2]]}', "--red-cap", cap,
                    command="suggest")
    assert code == 2 and "red_cap" in out["error"]


def test_bridge_refuses_bad_options_and_stops_when_interrupted() -> None:
    table = json.loads(BASE % '"me": {"player": 0, "stands": [[1, 1, 2]]}')
    for params in ({"per_kind": -1}, {"budget": -1}, {"red_cap": 1.5}):
        reply = json.loads(bridge.handle(json.dumps({"id": 7, "method": "suggest", "params": {"table": table, **params}})))
        assert reply["id"] == 7 and "error" in reply and "internal" not in reply["error"]["message"]
    reply = json.loads(bridge.handle('{"id": NaN, "method": "ping"}'))  # the reply is JSON, the id is refused
    assert reply == {"id": None, "error": {"message": "NaN is not a JSON number"}}

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    public = json.loads(BASE % '"events": []')
    reply = json.loads(bridge.handle(json.dumps({"id": 3, "method": "suggest", "params": {"table": public, "player": 0,
                                                                                         "mode": "entropy"}}), stop))
    assert reply["id"] == 3 and reply.get("error", {}).get("message") in ("interrupted", None)


def test_jobs_never_exceed_the_cores() -> None:
    assert usable_jobs(64) == (os.cpu_count() or 1) and usable_jobs(0) == 1


# ---------------------------------------------------------------- no orphans

def heavy_table(name: str = "5p public, setup tokens") -> str:
    """A benchmark state; the 5-player public one is big enough that the CLI forks its mirrored sweep."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_analyze import states  # noqa: PLC0415

    return json.dumps(states()[name])


def processes_running(marker: str) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
                status = (entry / "status").read_text()
            except OSError:
                continue
            if marker.encode() in cmdline and "State:\tZ" not in status:
                pids.append(int(entry.name))
    return pids


# A pool of workers: the entropy ranking's branch analyses by the brute engine (42 s on this state with
# --jobs 2, the pool starting after 20 s, a minute on a busy machine; the columns engine ranks in one
# boolean run in process now, columns/support.py, no pool).
POOLED = ("suggest", "--player", "0", "--mode", "entropy", "--engine", "brute", "--jobs", "2")
POOLED_STATE = "5p observer, mid-game (15 turns)"


def children_up(pid_file: Path, count: int) -> Callable[[], bool]:
    """Whether ``count`` children announced themselves (bound to the CLI, so a kill tests what it should)."""
    return lambda: len(child_pids(pid_file)) >= count


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to list processes")
@pytest.mark.skipif(usable_jobs(2) < 2, reason="the pool needs 2 cores")
@pytest.mark.parametrize("command", [("analyze",), POOLED])
def test_killing_the_cli_leaves_no_process(tmp_path: Path, command: tuple[str, ...]) -> None:
    path = tmp_path / f"kill-{random.randrange(10**9)}.json"  # also marks its processes in /proc
    path.write_text(heavy_table("5p public, setup tokens" if command[0] == "analyze" else POOLED_STATE))
    children = 1 if command[0] == "analyze" else 2  # the forked mirrored sweep, or the pool's two workers
    rng = random.Random(13)
    for run in range(3):
        pid_file = tmp_path / f"children-{run}"
        with started([sys.executable, "-m", "bombbuster_core", command[0], str(path), *command[1:]], pid_file,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as proc:
            wait_for(children_up(pid_file, children), proc, "its children started")
            time.sleep(rng.uniform(0, 0.3))  # anywhere in their first moments of work
            proc.send_signal(signal.SIGKILL)  # the CLI alone: its children must go by themselves
            proc.wait()
            wait_for_end(child_pids(pid_file))
            assert processes_running(path.name) == []


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to list processes")
@pytest.mark.skipif(usable_jobs(2) < 2, reason="the pool needs 2 cores")
def test_ctrl_c_exits_130_without_traceback(tmp_path: Path) -> None:
    path = tmp_path / f"int-{random.randrange(10**9)}.json"
    path.write_text(heavy_table(POOLED_STATE))
    pid_file = tmp_path / "children"
    with started([sys.executable, "-m", "bombbuster_core", POOLED[0], str(path), *POOLED[1:]], pid_file,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        wait_for(children_up(pid_file, 2), proc, "its pool started")
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the terminal's whole process group
        out, err = proc.communicate(timeout=STOPS_WITHIN)
        assert proc.returncode == 130 and "Traceback" not in out + err, err
        wait_for_end(child_pids(pid_file))
        assert processes_running(path.name) == []


def test_repeated_identical_facts_are_merged() -> None:
    """Cost linear in the events: 4,000 identical failed calls give one count fact, not 4,000."""
    from bombbuster_core.facts import compile_table

    call = {"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 0}, "value": 2,
            "success": False, "token": 1}
    table = {"players": [{"stands": [6]}, {"stands": [6]}], "wires": {"blue": [1, 2, 3]}}
    once = compile_table(load_table({**table, "events": [call]}))
    many = compile_table(load_table({**table, "events": [call] * 4000}))
    assert many.counts == once.counts and len(many.counts) == 1


def test_state_budget_refuses_tables_the_rules_never_deal(tmp_path: Path) -> None:
    """600 wires on 5 players x 2 stands: refused at once with "too large", through the CLI and the bridge."""
    wide = {"players": [{"stands": [60, 60]} for _ in range(5)], "wires": {"deck": {str(v): 8 for v in range(1, 76)}}}
    start = time.perf_counter()
    code, out = cli(tmp_path, json.dumps(wide))
    assert code == 2 and out["error"].startswith("too large: about") and time.perf_counter() - start < 30
    reply = json.loads(bridge.handle(json.dumps({"id": 1, "method": "analyze", "params": {"table": wide}})))
    assert reply["error"]["message"].startswith("too large: about")
    # A small legal table passes the default budget, and fails a budget of 1 state.
    small = BASE % '"events": []'
    assert cli(tmp_path, small)[0] == 0
    code, out = cli(tmp_path, small, "--budget", "1")
    assert code == 2 and out["error"].startswith("too large")
    reply = json.loads(bridge.handle('{"id": 2, "method": "analyze", "params": {"budget": 1, "table": %s}}' % small))
    assert reply["error"]["message"].startswith("too large")
    for bad in ("0", "nan", "x"):
        assert cli(tmp_path, small, "--budget", bad)[0] == 2


def test_brute_engine_bounds_its_search(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """--engine brute on a 5-player table: refused as too large (exit 2), never a long run then a traceback.

    The bound counts the search's steps, dead ends included; it is lowered here so the test is quick."""
    from bombbuster_core import cli
    from bombbuster_core.engines import brute, columns

    monkeypatch.setattr(brute, "MAX_STEPS", 200_000)
    monkeypatch.setattr(columns, "PARALLEL_SWEEPS", columns.PARALLEL_SWEEPS)  # cli.main turns it on
    path = Path(tempfile.mkdtemp()) / "heavy.json"
    path.write_text(heavy_table())
    start = time.perf_counter()
    assert cli.main(["analyze", str(path), "--engine", "brute"]) == 2
    assert json.loads(capsys.readouterr().out)["error"].startswith("too large for the brute engine")
    assert time.perf_counter() - start < 30


@pytest.mark.skipif(sys.platform != "linux", reason="the fork server is Python 3.14's default on Linux")
def test_suggest_jobs_runs_where_pools_default_to_a_fork_server(tmp_path: Path) -> None:
    """A fork server's workers are not the CLI's children: bind_to_parent ended each one (a
    broken pool), so ``suggest --jobs`` forks its pool on Linux as the tournament does."""
    path = tmp_path / "small.json"
    path.write_text(BASE % '"events": []')
    script = ("import multiprocessing, sys; multiprocessing.set_start_method('forkserver'); "
              "from bombbuster_core.cli import main; "
              f"sys.exit(main(['suggest', {str(path)!r}, '--player', '0', '--mode', 'entropy', '--jobs', '2']))")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and json.loads(proc.stdout)["suggestions"], proc.stderr[-2000:]
