"""Executors: where independent per-block work of an engine runs.

The signature engine has work that is independent per block of stands
(phase 1: generate a block's signatures; phase 3: project a block's
surviving signatures).  It hands that work to an :class:`Executor`, a tiny
``map`` interface with three implementations in mind:

* :class:`SerialExecutor` — in this process, in order.  Always available and
  the default: on this 2-core machine a 2-process pool did not pay on any
  state within the signature engine's default budget.  Phase 2, which is
  sequential, takes over half the time; phase 1 is mostly one large block;
  and shipping signatures and tables to the workers costs about what the
  second core saves (``bench/bench_signatures.py``, section 4: e.g. 1.67 s
  serial vs 1.76 s pooled on a 27-hidden-slot state, 0.055 vs 0.106 s on a
  23-hidden-slot one).
* :class:`ProcessExecutor` — a ``concurrent.futures.ProcessPoolExecutor`` on
  CPython.  Import-safe where multiprocessing is missing (Pyodide): check
  :func:`process_pool_available` before creating one.
* Web Workers (browser).  A Pyodide worker cannot block on other workers, so
  the browser pool is fed from outside, with JSON strings only:

  1. the main worker asks the engine for the pending phase-1 tasks of a table
     (``signatures.phase1_tasks(problem)``: one JSON string per block whose
     signatures are not cached);
  2. the page sends each string to any idle worker, which answers with
     :func:`run_json_task` (pure, stateless);
  3. the main worker stores each answer (``signatures.accept_phase1(task,
     answer)``) and runs the analysis, which then finds every block cached.

  ``bombbuster_core.bridge`` drives this for the page ("split" requests), and
  ships any ``map`` call the same way: the task ``executor.call`` runs a
  :func:`pickled` ``(fn, item)`` pair (suggestions' entropy branches).

Functions given to :meth:`Executor.map` must be module-level and their
arguments picklable, so that the same call works in every executor.
"""
from __future__ import annotations

import json
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # the Executor interface is for type checkers only: importing typing costs ~8 ms of start-up
    from collections.abc import Callable, Iterable
    from typing import Any, Protocol, TypeVar

    T = TypeVar("T")
    R = TypeVar("R")

    class Executor(Protocol):
        workers: int  # how many calls may run at once (lets callers split work into that many pieces)

        def map(self, fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
            """``[fn(x) for x in items]``, possibly computed elsewhere; order preserved."""
            ...


class SerialExecutor:
    """Runs every call in this process, one after the other."""

    workers = 1

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
        return [fn(x) for x in items]


def process_pool_available() -> bool:
    """Whether this interpreter can start worker processes (false in Pyodide)."""
    if sys.platform == "emscripten":
        return False
    try:
        import _multiprocessing  # noqa: F401  (the C part; missing where processes are)
        import concurrent.futures  # noqa: F401
    except ImportError:
        return False
    return True


class ProcessExecutor:
    """A process pool, started on first use and reused across analyses.

    Single-item maps run inline: shipping one task to another process only
    adds the pickling cost.
    """

    def __init__(self, workers: int | None = None):
        if not process_pool_available():
            raise RuntimeError("no process pool in this interpreter; use SerialExecutor")
        self.workers = workers or os.cpu_count() or 1
        self._pool: Any = None

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
        work = list(items)
        if len(work) <= 1:
            return [fn(x) for x in work]
        if self._pool is None:
            from concurrent.futures import ProcessPoolExecutor
            self._pool = ProcessPoolExecutor(max_workers=self.workers)
        return list(self._pool.map(fn, work))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self) -> ProcessExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# Tasks that a browser worker may run from a JSON string: name -> fn(params) -> JSON-able result.
TASKS: dict[str, Callable[[Any], Any]] = {}


def json_task(name: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    """Register ``fn`` as the JSON task ``name`` (see the module docstring)."""
    def register(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        TASKS[name] = fn
        return fn
    return register


def task_function(name: str) -> Callable[[Any], Any] | None:
    """The function of the JSON task ``name``, or None when there is no such task."""
    if name not in TASKS:
        from importlib import import_module

        # A task "engine.name" is registered when bombbuster_core.engines.<engine> is imported.
        try:
            import_module(f"{__package__}.engines.{name.split('.')[0]}")
        except ImportError:
            return None
    return TASKS.get(name)


def run_task(request: Any) -> Any:
    """Run one ``{"task": name, "params": ...}`` request here and return its result (raises on failure)."""
    fn = task_function(request["task"])
    if fn is None:
        raise KeyError(f"unknown task {request['task']!r}")
    return fn(request["params"])


def run_json_task(message: str) -> str:
    """Run one ``{"task": name, "params": ...}`` request; ``{"result": ...}`` or ``{"error": str}``."""
    try:
        return json.dumps({"result": run_task(json.loads(message))})
    except Exception as e:  # a worker must answer with a value, not die
        return json.dumps({"error": f"{type(e).__name__}: {e}"})


def pickled(value: Any) -> str:
    """``value`` pickled, as base64 text (a JSON string)."""
    import base64
    import pickle

    return base64.b64encode(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)).decode("ascii")


def unpickled(text: str) -> Any:
    """The value :func:`pickled` encoded."""
    import base64
    import pickle

    return pickle.loads(base64.b64decode(text))


@json_task("executor.call")
def _call(params: str) -> str:
    """``fn(item)`` for a :func:`pickled` ``(fn, item)``, pickled back: any :meth:`Executor.map`
    call can thus run in a browser worker (bridge.py ships them; only the page's own workers
    send these, never a table or a share link)."""
    fn, item = unpickled(params)
    return pickled(fn(item))
