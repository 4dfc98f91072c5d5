"""Starting a CLI in the tests as a terminal would, waiting for what it signals, and cleaning up after it.

A shell starts its background jobs with SIGINT ignored (no job control), and
a child inherits that; Python started with SIGINT ignored never raises
KeyboardInterrupt, so a suite launched in the background would see every
Ctrl-C test time out.  The tests send the SIGINT a terminal's Ctrl-C sends,
to a CLI started as from a terminal.

A test that kills a CLI must wait until the CLI's children are up: on a busy
2-core machine ``suggest --jobs 2`` reaches its pool after a minute, so no
deadline guesses when.  :func:`started` runs the CLI in a process group of its
own with ``BOMBBUSTER_CHILD_PIDS`` set (each child appends its pid once bound
to the CLI, ``bombbuster_core.children``), and kills the whole group when the
test ends, failed or not.  :func:`wait_for` waits for a signal, failing at once
when the CLI ends first; its cap only stops a hung run.  The caps that remain
are what the tests check ("stops at once", "its children die with it"), each
far from both a busy machine's delay and the bug's.
"""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bombbuster_core.children import CHILD_PIDS

ROOT = Path(__file__).resolve().parent.parent
HUNG = 900  # seconds: only a run that is stuck waits this long (a busy machine takes about a minute)
# Ctrl-C stops a CLI in well under a second on a quiet machine; the bug it guards against (a pool
# that plays or analyses every queued task first) takes minutes.
STOPS_WITHIN = 30
# The kernel ends a CLI's children as it dies (children.bind_to_parent); without that a worker
# would end only once its chunk of work is done, seconds later even on a quiet machine.
KILLED_WITHIN = 5.0


def sigint_default() -> None:
    """``preexec_fn`` for the CLI under test: SIGINT back to its default, so Python installs its handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextlib.contextmanager
def started(cmd: list[str], pid_file: Path, **popen: Any) -> Iterator[subprocess.Popen]:
    """``cmd`` running in a new process group (SIGINT at its default, its children's pids in ``pid_file``);
    on exit, however the test ends, the group is killed and the CLI reaped."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{CHILD_PIDS: str(pid_file)})
    proc = subprocess.Popen(cmd, env=env, start_new_session=True, preexec_fn=sigint_default,
                            **{"cwd": ROOT, **popen})
    with proc:  # closes its pipes and reaps it
        try:
            yield proc
        finally:
            with contextlib.suppress(ProcessLookupError):  # the group is empty: nothing was left
                os.killpg(proc.pid, signal.SIGKILL)


def child_pids(pid_file: Path) -> list[int]:
    """The pids the CLI's children announced (whole lines only)."""
    text = pid_file.read_text() if pid_file.exists() else ""
    return [int(line) for line in text.split("\n")[:-1]]


def wait_for(condition: Callable[[], bool], proc: subprocess.Popen | None, what: str) -> None:
    """Until ``condition()``; fails when ``proc`` ends first (None: the condition is its end), or after
    :data:`HUNG` seconds (a hung run)."""
    give_up = time.monotonic() + HUNG
    while not condition():
        assert proc is None or proc.poll() is None, f"the CLI ended (exit {proc.returncode}) before {what}"
        assert time.monotonic() < give_up, f"no {what} after {HUNG} s"
        time.sleep(0.05)


def wait_for_end(pids: list[int]) -> None:
    """Until every one of ``pids`` has ended; fails after :data:`KILLED_WITHIN` seconds."""
    ends = time.monotonic() + KILLED_WITHIN
    while not all(map(gone, pids)) and time.monotonic() < ends:
        time.sleep(0.05)
    assert all(map(gone, pids)), f"children {[pid for pid in pids if not gone(pid)]} outlived the CLI"


def gone(pid: int) -> bool:
    """Whether ``pid`` has ended (no process, or a zombie its new parent has yet to reap)."""
    try:
        return "State:\tZ" in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
