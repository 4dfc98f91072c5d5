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
  ships any ``map`` call the same way: its task ``executor.call`` runs a
  function named from the bridge's fixed table on a :func:`pickled` item
  (suggestions' entropy branches).  Requests are untrusted: no task runs a
  function or builds an object the request names, and the data they carry is
  loaded by :func:`unpickled`, which builds only plain values and the classes
  it is given.

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


# The module that registers a task, for the tasks a worker may be asked for before it loaded
# that module: a fixed table, so a request never chooses what is imported.
_TASK_MODULES = {"signatures.block": "engines.signatures", "columns.sweep": "bridge", "executor.call": "bridge"}


def task_function(name: str) -> Callable[[Any], Any] | None:
    """The function of the JSON task ``name``, or None when there is no such task."""
    if name not in TASKS and name in _TASK_MODULES:
        from importlib import import_module

        import_module(f"{__package__}.{_TASK_MODULES[name]}")
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


class Refused(ValueError):
    """Data given to :func:`unpickled` that is not a pickle of the values it admits."""


def unpickled(text: Any, admit: dict[tuple[str, str], type]) -> Any:
    """The value :func:`pickled` encoded, built from plain values (numbers, strings, lists,
    tuples, dicts, sets) and the classes of ``admit`` ((module, name) -> class) only, each
    called with one value per field: the text may come from a request, and pickle's
    other globals (functions, ``os.system``, ``builtins.eval``, ``functools.partial``...)
    run code.  Raises :class:`Refused` for anything else."""
    import base64
    import io
    import pickle

    class Loader(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            cls = admit.get((module, name))
            if cls is None:
                raise Refused(f"it would load {module}.{name}, which is not data")

            def build(*values: Any) -> Any:
                # A record's pickle calls its class with its fields: a short call would leave one unset.
                if len(values) != len(cls.__slots__):
                    raise Refused(f"{name} takes {len(cls.__slots__)} fields, not {len(values)}")
                return cls(*values)
            return build

    if not isinstance(text, str):
        raise Refused(f"expected pickled data (base64 text), not {type(text).__name__}")
    try:
        return Loader(io.BytesIO(base64.b64decode(text))).load()
    except Refused:
        raise
    except Exception as e:  # truncated or forged data fails in many ways (EOFError, UnpicklingError, ...)
        raise Refused(f"not pickled data ({type(e).__name__}: {e})") from None
