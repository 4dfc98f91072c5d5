"""The tournament command's edges (issue 18): Ctrl-C on a pool run and output paths it cannot write.

Ctrl-C on ``tournament --jobs 2`` used to wait for every queued game (still
running 90 s after SIGINT); it must exit 130 at once, leave no process and
keep every finished game in its ``--log``.  A ``--save`` or ``--log`` path that
cannot be written is a clear exit 2 naming the option, not a traceback.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from interrupt import STOPS_WITHIN, child_pids, started, wait_for, wait_for_end  # noqa: E402
from test_hardening import processes_running

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT))
TOURNAMENT = [sys.executable, "-m", "bombbuster_core", "tournament", "--mission", "1", "--players", "4",
              "--policy", "greedy"]


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to list processes")
def test_ctrl_c_stops_a_pool_tournament_at_once_and_keeps_its_log(tmp_path: Path) -> None:
    log = tmp_path / f"stop-{random.randrange(10**9)}.log"  # also marks its processes in /proc
    pid_file = tmp_path / "children"
    # About 0.05 s a game: 3,000 queued games are minutes of work the old pool waited for.
    with started([*TOURNAMENT, "--games", "3000", "--jobs", "2", "--log", str(log)], pid_file,
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        wait_for(lambda: len(child_pids(pid_file)) >= 2 and log.exists() and log.read_text().count("\n") >= 1,
                 proc, "its two workers started and a game was logged")
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the terminal's whole process group
        out, err = proc.communicate(timeout=STOPS_WITHIN)
        assert proc.returncode == 130 and "Traceback" not in out + err, err
        wait_for_end(child_pids(pid_file))
        assert processes_running(log.name) == []
    lines = log.read_text().split("\n")
    assert lines[-1] == "" and len(lines) > 1  # whole lines only
    records = [json.loads(line) for line in lines[:-1]]
    assert len(records) < 3000 and all(r["policy"] == "greedy" and r["result"] for r in records)
    assert len({r["game"] for r in records}) == len(records)


@pytest.mark.parametrize("option, path, message", [
    ("--save", "/proc/x", "--save /proc/x: cannot create this directory"),
    ("--log", "/proc/x.log", "--log /proc/x.log: cannot append to this file"),
    ("--log", "DIRECTORY", "--log DIRECTORY: cannot append to this file"),
    ("--save", "FILE", "--save FILE: cannot create this directory"),
])
def test_unwritable_output_is_a_clear_error(tmp_path: Path, option: str, path: str, message: str) -> None:
    (tmp_path / "DIRECTORY").mkdir()
    (tmp_path / "FILE").write_text("")
    proc = subprocess.run([*TOURNAMENT, "--games", "1", option, path], cwd=tmp_path, env=ENV,
                          capture_output=True, text=True, timeout=60)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert proc.returncode == 2 and json.loads(proc.stdout)["error"].startswith(message), proc.stdout


@pytest.mark.skipif(sys.platform != "linux", reason="the fork server is Python 3.14's default on Linux")
def test_a_pool_tournament_runs_where_pools_default_to_a_fork_server() -> None:
    """A fork server's workers are not the CLI's children: bind_to_parent ended each one and
    the pool started them again forever."""
    script = ("import multiprocessing; multiprocessing.set_start_method('forkserver'); "
              "from bombbuster_core.sim.tournament import run; print(len(run(1, 2, 4, ['greedy'], jobs=2)))")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=ENV, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and proc.stdout == "4\n", proc.stderr
