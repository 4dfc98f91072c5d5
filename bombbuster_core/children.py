"""Child processes of the command line that never outlive it.

The CLI forks its mirrored sweep (engines/columns/) and may run a process
pool (``suggest --jobs``).  If the CLI dies — Ctrl-C, a timeout's SIGKILL, a
crashed caller — those children must go too, or a harness with timeouts
leaks processes.  A child calls :func:`bind_to_parent` first thing:

* on Linux the kernel sends it SIGKILL when its parent dies
  (``prctl(PR_SET_PDEATHSIG)``), the one way that also covers SIGKILL;
* elsewhere a daemon thread polls the parent's pid and exits when it changes.

Children ignore SIGINT: Ctrl-C reaches the whole process group, and the
parent alone decides to stop (exit 130, no traceback), which then ends them.

With ``BOMBBUSTER_CHILD_PIDS`` set to a file, each child appends its pid to
it once bound: a harness waits for that line (a busy machine may take a
minute to reach the pool) instead of guessing, and knows what to clean up.
Pyodide has no processes; nothing here runs there.
"""
from __future__ import annotations

import os
import signal

_PR_SET_PDEATHSIG = 1
CHILD_PIDS = "BOMBBUSTER_CHILD_PIDS"  # env: the readiness file (module docstring)


def bind_to_parent(parent: int) -> None:
    """Make this (child) process die with ``parent``; call it right after the fork or spawn."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if not _kernel_binds():
        _poll_parent(parent)
    if os.getppid() != parent:  # the parent died before the binding took hold
        os._exit(1)
    _announce()


def _announce() -> None:
    """Append this child's pid to the file named by :data:`CHILD_PIDS`, when set (one write: whole lines)."""
    path = os.environ.get(CHILD_PIDS)
    if path:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, f"{os.getpid()}\n".encode())
        finally:
            os.close(fd)


def _kernel_binds() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError, ImportError):
        return False


def _poll_parent(parent: int) -> None:
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def pool_context():  # -> multiprocessing context (not imported at module level: Pyodide has none)
    """The start method for the CLI's worker pools: fork on Linux.

    A fork server's workers (Python 3.14's default on Linux) are not this process's
    children, so :func:`bind_to_parent` ends them at once and a pool restarts them forever.
    """
    import multiprocessing
    import sys

    return multiprocessing.get_context("fork" if sys.platform == "linux" else None)


def usable_jobs(asked: int) -> int:
    """Worker processes worth starting: never more than the machine's cores."""
    return max(1, min(asked, os.cpu_count() or 1))
