"""JSON bridge between the web worker and the core: one JSON string in, one out.

Request:  ``{"id": any, "method": "ping" | "analyze" | "suggest" | "missions" | "new" | "explain" | "task"
| "stats" | "lookahead" | "search" | "merge_searches" | "review", "params": {...}}``
Reply:    ``{"id": any, "result": ...}`` or ``{"id": any, "error": {"message": str, "event"?: int}}``
(or, for a split request, ``{"id": any, "pending": {...}}``: see below)

``analyze`` params: ``{"table": <format-1 table>, "engine"?: name, "budget"?:
states}``; its result is exactly the CLI's JSON (``budget``: the columns
engine's work budget, as ``analyze --budget``).  ``suggest`` params: ``{"table", "player"?,
"mode"?, "probabilities"?, "top"?, "engine"?, "red_cap"?, "seed"?,
"equipment"? (list), "per_kind"?, "budget"? (equipment runs: int or null), "failure_token"?,
"state_budget"? (states), "cards"? (equipment advice, default **false**), "moving"? (default true)}``;
its result is exactly the CLI ``suggest`` JSON (docs/suggestions.md) for the same options: the
CLI's ``--no-cards`` unless ``"cards": true``.  The card advice costs many times the list on
big tables (bench/bench_suggest_equipment.py), so a client asks for it in a request of its own
and the list stays fast.
``missions`` params: ``{}``; its result lists every mission for the new-game
screen: ``[{"mission", "name", "players": [allowed counts], "rules": [tags],
"summary", "choices": {"<players>": {"yellow"?, "red"?: {"values", "in_play",
"range"}, "number"?: {"range"}}}}]``.  ``new`` params: ``{"mission",
"players", "yellow"?: [keys], "red"?: [keys], "number"?}``; its result is
exactly the CLI ``new`` table (docs/table-format.md, "Mission presets").  The
worker (web/worker.js) only moves strings; all logic lives here so it is
tested without a browser.

One request over many workers (web/js/engine.js): ``analyze`` and ``suggest``
take ``"split": true`` and ``"answers"``.  A split request may answer
``{"pending": {"tasks": [...], "weights": [...], "digest": str}}`` instead of
a result: the page runs every task (``{"task", "params", "home"?}``) with the
``task`` method on any worker (``home``: on the worker that asked), then sends
the same request again with ``answers`` = ``[{"digest", "results"}, ...]``, one
entry per round so far, until a result comes.  Each round is work the request
would otherwise do here, so the result is exactly the serial one:

* ``analyze`` with the columns engine, on a table estimated at
  ``SPLIT_MIN_STATES`` states or more: the mirrored sweep on another worker
  (pickled back) and the forward sweep at home (kept in memory), then the
  join here;
* ``analyze`` with the signatures engine: phase 1 of every block not in this
  worker's signature cache, one task a block, stored in the cache;
* ``suggest``: the sweeps of its table's analysis as for ``analyze`` (a
  worker that analysed the table finds its forward sweep kept), and every
  ``map`` of its executor (the entropy branches), one task per job
  (``executor.call``: ``{"function": name, "item": pickled}``, the function
  one of ``_CALLS``); ``weights`` are the analyses of each task, for the
  page's progress.

``task`` params: a task object; its result: the task's result.  ``stats``:
this worker's caches (signature cache hits and misses, sweeps and plans kept) and the tasks
it ran; with ``"forget": true`` it then drops the kept sweeps and plans (measurements).

``lookahead`` and ``search`` (the page's modes that play the simulator's policies for the
table's ``me``): params and results in sim/lookahead_advice.py and sim/search_advice.py; ``search``
reports its iterations to ``progress``.  ``merge_searches`` params ``{"results": [...]}``: the
``search`` results of one table under several seeds (one per worker), added up into one search
with the policy's pick (search_advice ``merge``: the page keeps no copy of that rule).

Nothing a request carries runs as code: the tasks are a fixed set, a call
names its function from a fixed table, and pickled data (call items and
results, a mirrored sweep) loads through :func:`executor.unpickled`, which
builds plain values and the core's fact records only.  Malformed tasks and
answers are errors naming the field.
"""
from __future__ import annotations

import hashlib
import json
import sys
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from . import __version__
from .analysis import EngineChoiceError, analyze
from .beliefs import Beliefs, EngineLimit
from .engines import DEFAULT, columns
from .equipment import REFUSAL_CODES as EQUIPMENT_REFUSAL_CODES
from .executor import Refused, json_task, pickled, task_function, unpickled
from .facts import Problem, compile_table
from .jsonio import MAX_CHARS, StrictJSONError, loads_strict
from .missions import MissionError, catalogue, new_table
from .record import Record
from .suggest import Policy, Progress, SuggestError, suggest
from .suggest.analyses import analysis_job
from .suggest.entropy import entropy_batch_job, entropy_job
from .table import Table, TableError, load_table
from .table_fields import TABLE_CODES

# A columns analysis is split over two workers from this many estimated states
# (columns.estimated_states of the forward plan, ~1 ms).  bench/bench_split.py,
# CPU time of the critical path on two cores against the whole analysis: 5p public
# (64k and 190k states) 0.67-0.69x; 4p public (54k) 0.90x, which the page's
# message passing would eat; smaller tables sweep in a few ms.
SPLIT_MIN_STATES = 60_000
KEPT_SWEEPS = 2  # forward sweeps a worker keeps for the join of its split analyses (a few MB each)
# A mirrored sweep travels back only up to this size (pickled, base64); a bigger one is
# swept at home, where the transfer would cost more than the sweep saves.
SWEEP_MAX_CHARS = 16_000_000
# A request may carry answers (a mirrored sweep) besides its table: the table alone is
# still held to jsonio.MAX_CHARS (see _check_table_size).
MAX_MESSAGE_CHARS = MAX_CHARS + SWEEP_MAX_CHARS + 1_000_000


class RequestError(ValueError):
    """A request the bridge refuses; ``why``: a code and its fields for the page, when it has them
    (a table the simulator's search or lookahead cannot replay: sim/refusals.py)."""

    def __init__(self, message: str, **why: Any):
        super().__init__(message)
        self.why = why


# The codes of the bridge's own error replies (worded as `error.CODE`): a table the JSON reader
# refuses as nested too deeply or too long (jsonio.StrictJSONError: the page's JSON.parse takes both),
# and a bug caught at the boundary (its English as `detail`, for a report).
BRIDGE_ERROR_CODES = ("too_deep", "too_long", "internal_error")

# Every `code` a refused table carries in its error reply: the page words each from its catalogues
# (docs/i18n.md); `message` stays the CLI's English.  Each refusal has its own code and fields, given
# where it is raised: an equipment refusal (equipment.REFUSAL_CODES), any other (table_fields.TABLE_CODES).
TABLE_REFUSAL_CODES = (*EQUIPMENT_REFUSAL_CODES, *TABLE_CODES)


def _table_refusal(e: TableError) -> dict[str, Any]:
    """A refused table as an error reply: ``message`` (English), ``event`` (when one is at fault),
    ``code`` and ``fields`` (with the event, null when none is at fault)."""
    error: dict[str, Any] = {"message": str(e), "code": e.code, "fields": {**e.fields, "event": e.event}}
    if e.event is not None:
        error["event"] = e.event
    return error


def _params(params: Any, allowed: set[str], required: set[str], where: str = "params") -> dict[str, Any]:
    """``params`` checked as an object with these fields (``where``: its name in the request)."""
    if not isinstance(params, dict):
        raise RequestError(f"{where}: expected an object")
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise RequestError(f"{where}: unknown field {unknown[0]!r}")
    missing = sorted(required - set(params))
    if missing:
        raise RequestError(f"{where}: missing field {missing[0]!r}")
    return params


# What pickled data from a request may build besides plain values: the core's records that
# suggestions' calls take and return (problems, facts, beliefs), each an inert tuple of fields.
_RECORDS = {(cls.__module__, cls.__qualname__): cls for module in {Problem.__module__, Beliefs.__module__}
            for cls in vars(sys.modules[module]).values()
            if isinstance(cls, type) and issubclass(cls, Record) and cls.__module__ == module}


def _loaded(text: Any, admit: dict[tuple[str, str], type], field: str) -> Any:
    """:func:`executor.unpickled` with its refusal as a request error naming ``field``."""
    try:
        return unpickled(text, admit)
    except Refused as e:
        raise RequestError(f"{field}: refused: {e}") from None


def _ping(params: Any, progress: Progress | None) -> dict[str, Any]:
    return {"version": __version__}


class _Pending(Exception):
    """A split request's next round of tasks, for the page's pool (see the module docstring)."""

    def __init__(self, tasks: list[dict[str, Any]], weights: list[int], digest: str):
        super().__init__("pending")
        self.tasks, self.weights, self.digest = tasks, weights, digest


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:32]


class _Rounds:
    """The answers a split request brought back, handed out round by round in order; past
    them, :meth:`ask` sends the next round's tasks to the pool.  Each round must answer the
    tasks asked again now (same digest): the request recomputes the same work in the same order."""

    def __init__(self, answers: Any):
        if not isinstance(answers, list) or not all(
                isinstance(a, dict) and isinstance(a.get("digest"), str) and isinstance(a.get("results"), list)
                for a in answers):
            raise RequestError("params: field 'answers' must list {digest, results} objects")
        self.answers, self.used = answers, 0

    def ask(self, tasks: list[dict[str, Any]], weights: list[int], strict: bool = True) -> list[Any] | None:
        """The results of ``tasks`` from the next answered round; raises _Pending past the answers.
        A round that answers other tasks is refused, or with ``strict=False`` gives None (the
        caller then does the work here)."""
        digest = _digest(tasks)
        if self.used == len(self.answers):
            raise _Pending(tasks, weights, digest)
        got = self.answers[self.used]
        self.used += 1
        if got["digest"] != digest or len(got["results"]) != len(tasks):
            if not strict:
                return None
            raise RequestError(f"params: field 'answers' (round {self.used}) does not answer this request's tasks")
        return got["results"]


def _rounds(p: dict[str, Any]) -> _Rounds | None:
    split = p.get("split", False)
    if not isinstance(split, bool):
        raise RequestError(f"params: field 'split' must be true or false, not {split!r}")
    if "answers" in p and not split:
        raise RequestError("params: field 'answers' needs 'split': true")
    return _Rounds(p.get("answers", [])) if split else None


def _analyze(params: Any, progress: Progress | None) -> dict[str, Any]:
    p = _params(params, {"table", "engine", "budget", "split", "answers"}, {"table"})
    rounds = _rounds(p)
    table = load_table(p["table"])
    engine = p.get("engine", DEFAULT)
    with _state_budget(p.get("budget")):
        if rounds is None:
            return analyze(table, engine)
        if engine == "signatures":
            _signature_blocks(rounds, table)
            return analyze(table, engine)
        with _sweeps_elsewhere(rounds, p["table"], table, p.get("budget")):
            return analyze(table, engine)


# -- split columns analysis: the two sweeps on two workers

_KEPT: OrderedDict[str, list[columns.State]] = OrderedDict()  # forward sweeps kept at home, by task digest


@contextmanager
def _sweeps_elsewhere(rounds: _Rounds, table: Any, loaded: Table, budget: Any) -> Iterator[None]:
    """While analysing ``table`` (JSON; ``loaded``: it parsed), or suggesting from it: the sweep
    pair of its problem as a round of two tasks when it is big enough, the mirrored one pickled
    back, the forward one kept at home.  ``budget``: the request's state budget (None: the
    default, which every worker has)."""
    problem = compile_table(loaded)

    def elsewhere(forward: columns.Plan, mirrored: columns.Plan) -> tuple[list[columns.State], list[columns.State]] | None:
        # Only the table's own problem: the tasks sweep that (an impossible table's prefixes,
        # analysed next, and a suggestion list's conditioned and packed runs are other
        # problems and run here: a packed run's mirrored sweep is ~13 MB on a 5-player
        # public start, which costs more to send than it saves, bench/bench_split.py).
        if forward.prep.exclusions or forward.prep.problem != problem:
            return None
        if columns.estimated_states(forward, SPLIT_MIN_STATES) < SPLIT_MIN_STATES:
            return None
        # Each sweep runs under this request's budget; a request without one leaves it out, so
        # the page can start the mirrored sweep before this round comes (web/js/engine.js,
        # "speculative"): its task is then the table and the direction alone.
        given = {} if budget is None else {"budget": budget}
        back = {"table": table, "mirrored": True, **given}
        ahead = {"table": table, "mirrored": False, **given}
        results = rounds.ask([{"task": "columns.sweep", "params": back},
                              {"task": "columns.sweep", "params": ahead, "home": True}], [0, 0])
        if "zero" in results:  # a sweep found no deal: as it would have here
            raise columns.Zero
        fwd = _KEPT.get(_digest(ahead)) if results[1] == "kept" else None
        if results[0] == "large":
            back_sweep = columns.sweep_one(mirrored)
        else:
            field = f"params: field 'answers' (round {rounds.used}, the mirrored sweep)"
            back_sweep = _loaded(results[0], {}, field)  # ints in dicts in a list: no class at all
            if not (isinstance(back_sweep, list) and all(type(s) is dict for s in back_sweep)):
                raise RequestError(f"{field}: not a sweep")
        return (columns.sweep_one(forward) if fwd is None else fwd), back_sweep

    saved, columns.SWEEPS_ELSEWHERE = columns.SWEEPS_ELSEWHERE, elsewhere
    try:
        yield
    finally:
        columns.SWEEPS_ELSEWHERE = saved


@json_task("columns.sweep")
def _sweep_task(params: Any) -> str:
    """One direction's sweep of a table's analysis: the mirrored one pickled (base64), the
    forward one kept in this worker for the join (answer "kept"); "zero" when no deal fits."""
    _params(params, {"table", "mirrored", "budget"}, {"table", "mirrored"}, "params.params")
    if not isinstance(params["mirrored"], bool):
        raise RequestError("params.params: field 'mirrored' must be true or false")
    try:
        with _state_budget(params.get("budget"), "params.params"):
            plan = columns.plans(compile_table(load_table(params["table"])))[1 if params["mirrored"] else 0]
            sweep = columns.sweep_one(plan)
    except columns.Zero:
        return "zero"
    if params["mirrored"]:
        text = pickled(sweep)
        return "large" if len(text) > SWEEP_MAX_CHARS else text
    _KEPT[_digest(params)] = sweep
    while len(_KEPT) > KEPT_SWEEPS:
        _KEPT.popitem(last=False)
    return "kept"


# -- split signatures analysis: phase-1 blocks fanned out

_FANNED_OUT = [0]  # phase-1 blocks this worker sent to the pool (for stats)


def _signature_blocks(rounds: _Rounds, table: Any) -> None:
    """Phase 1 of the blocks missing from this worker's signature cache, as one round; the
    answers go into the cache, where the analysis then finds every block."""
    from .engines import signatures

    tasks = [json.loads(t) for t in signatures.phase1_tasks(compile_table(table))]
    if any((signatures.signature_count(signatures.BlockSpec.from_json(t["params"]["spec"])) or 0)
           > t["params"]["max_signatures"] for t in tasks) or not tasks:
        return  # nothing to make, or the analysis refuses at once, before any block is made
    # Not strict: a request between the rounds may have changed this worker's cache, and
    # with it the missing blocks; the analysis then makes the ones it lacks here.
    results = rounds.ask(tasks, [1] * len(tasks), strict=False)
    if results is None:
        return
    _FANNED_OUT[0] += len(tasks)
    for task, result in zip(tasks, results):
        signatures.accept_phase1(json.dumps(task), json.dumps({"result": result}))


@contextmanager
def _state_budget(raw: Any, where: str = "params") -> Iterator[None]:
    """The columns engine's work budget (states) for one request; None: the default."""
    if raw is None:
        yield
        return
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not 1 <= raw < float("inf"):
        raise RequestError(f"{where}: field 'budget' must be a number of states >= 1, not {raw!r}")
    saved, columns.BUDGET = columns.BUDGET, raw
    try:
        yield
    finally:
        columns.BUDGET = saved


_SUGGEST_OPTIONS: dict[str, tuple[type | tuple[type, ...], str]] = {
    # param: (JSON type, Policy field or suggest() keyword)
    "player": (int, "player"), "mode": (str, "mode"), "probabilities": (str, "probabilities"), "top": (int, "top"),
    "engine": (str, "engine"), "red_cap": ((int, float), "red_cap"), "seed": (int, "seed"),
    "equipment": (list, "equipment"), "per_kind": (int, "per_kind"), "budget": (int, "equipment_budget"),
    "failure_token": (bool, "failure_token"), "state_budget": ((int, float), "state_budget"),
    "cards": (bool, "cards"), "moving": (bool, "moving"),
}
_POLICY_FIELDS = {"red_cap", "seed", "equipment", "per_kind", "equipment_budget", "failure_token"}


def _suggest(params: Any, progress: Progress | None) -> dict[str, Any]:
    p = _params(params, {"table", "split", "answers", *_SUGGEST_OPTIONS}, {"table"})
    rounds = _rounds(p)
    table = load_table(p["table"])
    options: dict[str, Any] = {"cards": False}  # the card advice only when asked: module docstring
    policy: dict[str, Any] = {}
    for name, (kind, field) in _SUGGEST_OPTIONS.items():
        if name not in p:
            continue
        value = p[name]
        if name == "budget" and value is None:
            policy[field] = None  # null: no limit
            continue
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise RequestError(f"params: field {name!r} has the wrong type ({type(value).__name__})")
        if name == "equipment":
            if not all(isinstance(k, str) for k in value):
                raise RequestError("params: field 'equipment' must list equipment kinds")
            value = tuple(value)
        (policy if field in _POLICY_FIELDS else options)[field] = value
    state_budget = options.pop("state_budget", None)
    with _state_budget(state_budget):
        if rounds is None:
            return suggest(table, policy=Policy(**policy), progress=progress, **options)
        with _sweeps_elsewhere(rounds, p["table"], table, state_budget):
            return suggest(table, policy=Policy(**policy), progress=progress, executor=_pool_map(rounds), **options)


# The functions a split suggestion runs on other workers (task "executor.call"), by the name
# the task carries: name -> (function, fields of its item tuple).
_CALLS: dict[str, tuple[Callable[[Any], Any], int]] = {
    "analysis": (analysis_job, 2), "entropy": (entropy_job, 3), "entropy_batch": (entropy_batch_job, 4)}
_CALL_NAMES = {fn: name for name, (fn, _) in _CALLS.items()}


def _pool_map(rounds: _Rounds) -> Callable[[Callable[[Any], Any], Any], list[Any]]:
    """An executor for suggest(): each ``map`` call is a round of ``executor.call`` tasks, one per job."""

    def map_on_pool(fn: Callable[[Any], Any], items: Any) -> list[Any]:
        items = list(items)
        if not items:
            return []
        # Progress counts analyses: an entropy job is a batch of packed branches (its second field).
        weights = [len(item[1]) if fn is entropy_batch_job else 1 for item in items]
        tasks = [{"task": "executor.call", "params": {"function": _CALL_NAMES[fn], "item": pickled(item)}}
                 for item in items]
        results = rounds.ask(tasks, weights)
        return [_loaded(r, _RECORDS, f"params: field 'answers' (round {rounds.used})") for r in results]

    return map_on_pool


@json_task("executor.call")
def _call_task(params: Any) -> str:
    """One job of :func:`_pool_map`: the function of ``_CALLS`` named ``function`` on the pickled
    ``item``, its result pickled back."""
    p = _params(params, {"function", "item"}, {"function", "item"}, "params.params")
    name = p["function"]
    if not isinstance(name, str) or name not in _CALLS:
        raise RequestError(f"params.params: field 'function' must be one of {', '.join(_CALLS)}, not {name!r}")
    fn, fields = _CALLS[name]
    item = _loaded(p["item"], _RECORDS, "params.params: field 'item'")
    if not (isinstance(item, tuple) and len(item) == fields and isinstance(item[0], Problem)):
        raise RequestError(f"params.params: field 'item' is not a job of {name!r} (a problem and {fields - 1} more)")
    return pickled(fn(item))


def _block_params(params: Any) -> None:
    """A ``signatures.block`` task's params, checked before the engine reads them as it made them."""
    from .engines.signatures import BlockSpec

    p = _params(params, {"spec", "max_signatures"}, {"spec", "max_signatures"}, "params.params")
    if isinstance(p["max_signatures"], bool) or not isinstance(p["max_signatures"], int):
        raise RequestError("params.params: field 'max_signatures' must be an integer")
    try:
        spec = BlockSpec.from_json(p["spec"])
    except (KeyError, TypeError, ValueError) as e:
        raise RequestError(f"params.params: field 'spec' is not a block spec ({type(e).__name__}: {e})") from None
    if not _ints((spec.copies, spec.sizes, spec.domains, spec.counts)):
        raise RequestError("params.params: field 'spec' is not a block spec (a value is not an integer)")


def _ints(value: Any) -> bool:
    """Whether every leaf of nested tuples is an integer (or None)."""
    if isinstance(value, tuple):
        return all(_ints(v) for v in value)
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _missions(params: Any, progress: Progress | None) -> list[dict[str, Any]]:
    _params(params, set(), set())
    return catalogue()


def _new(params: Any, progress: Progress | None) -> dict[str, Any]:
    p = _params(params, {"mission", "players", "yellow", "red", "number"}, {"mission", "players"})
    return new_table(p["mission"], p["players"], yellow=p.get("yellow"), red=p.get("red"), number_card=p.get("number"))


def _task(params: Any, progress: Progress | None) -> Any:
    p = _params(params, {"task", "params", "home"}, {"task", "params"})
    if not isinstance(p["task"], str):
        raise RequestError("params: field 'task' must be a task name")
    fn = task_function(p["task"])
    if fn is None:
        raise RequestError(f"params: unknown task {p['task']!r}")
    if p["task"] == "signatures.block":  # the other tasks check their own params
        _block_params(p["params"])
    _TASKS_RUN[p["task"]] = _TASKS_RUN.get(p["task"], 0) + 1
    return fn(p["params"])


_TASKS_RUN: dict[str, int] = {}  # tasks this worker ran, by name (for stats: where the pool sent them)


def _stats(params: Any, progress: Progress | None) -> dict[str, Any]:
    """This worker's caches and tasks; with ``"forget": true``, then drops what the columns engine
    keeps between requests (plans, forward sweeps), so that a timed request repeated after it
    costs what a new table's would (tests/e2e/measure.py)."""
    p = _params(params, {"forget"}, set())
    if not isinstance(p.get("forget", False), bool):
        raise RequestError(f"params: field 'forget' must be true or false, not {p['forget']!r}")
    out: dict[str, Any] = {"kept_sweeps": len(_KEPT), "kept_plans": columns.kept_plans(),
                           "fanned_out_blocks": _FANNED_OUT[0], "tasks_run": dict(_TASKS_RUN)}
    signatures = sys.modules.get(f"{__package__}.engines.signatures")  # not loaded: never used here
    if signatures is not None:
        cache = signatures.CACHE
        out["signature_cache"] = {"hits": cache.hits, "misses": cache.misses, "bound": cache.max_signatures}
    if p.get("forget"):
        _KEPT.clear()
        columns.forget_plans()
    return out


def _simulated(answer: Callable[[dict[str, Any], Progress | None], dict[str, Any]]
               ) -> Callable[[Any, Progress | None], dict[str, Any]]:
    """A method the simulator answers (params, result and refusals in its module): params must be an
    object, and a SimError is the request's error."""
    def method(params: Any, progress: Progress | None) -> dict[str, Any]:
        from .sim.actions import SimError
        from .sim.refusals import coded

        if not isinstance(params, dict):
            raise RequestError("params: expected an object")
        try:
            return answer(params, progress)
        except SimError as e:  # a table the simulator cannot replay, or its own error: a code and fields for the page
            raise RequestError(str(e), **coded(e).json()) from None

    return method


def _lookahead(params: dict[str, Any], progress: Progress | None) -> dict[str, Any]:
    """The lookahead policy's move for the table's ``me`` (sim/lookahead_advice.py)."""
    from .sim.lookahead_advice import lookahead  # the simulator loads only when its modes are asked for

    return lookahead(params)


def _search(params: dict[str, Any], progress: Progress | None) -> dict[str, Any]:
    """The ismcts policy's decision for the table's ``me``, with the root's statistics
    (sim/search_advice.py); ``progress`` hears the iterations done."""
    from .sim.search_advice import search

    return search(params, progress)


def _merge_searches(params: dict[str, Any], progress: Progress | None) -> dict[str, Any]:
    """Several seeds' ``search`` results of one table as one search (sim/search_advice.py ``merge``)."""
    from .sim.search_advice import merge

    return merge(params)


def _explain(params: Any, progress: Progress | None) -> dict[str, Any]:
    """``explain`` params: ``{"table", "slot": {"player", "stand", "slot"}, "value"? | "not"?, "budget"?}``;
    its result is exactly the CLI ``explain`` JSON; an impossible table answers as ``analyze`` does."""
    from .beliefs import Inconsistent
    from .events import SlotRef
    from .explain import ExplainError, explain
    from .wires import WireError, parse_value

    p = _params(params, {"table", "slot", "value", "not", "budget"}, {"table", "slot"})
    if "value" in p and "not" in p:
        raise RequestError("params: give 'value' or 'not', not both")
    at = p["slot"]
    if not isinstance(at, dict) or set(at) != {"player", "stand", "slot"} or not all(
            type(at[k]) is int and at[k] >= 0 for k in at):
        raise RequestError("params: field 'slot' must be {\"player\", \"stand\", \"slot\"} (integers from 0)")
    claim = "not" if "not" in p else "value" if "value" in p else None
    try:
        value = parse_value(p[claim], allow_red=True) if claim else None
    except WireError as e:
        raise RequestError(f"params: field {claim!r}: {e}") from None
    table = load_table(p["table"])
    with _state_budget(p.get("budget")):
        try:
            return explain(table, SlotRef(at["player"], at["stand"], at["slot"]), value, negated=claim == "not")
        except Inconsistent:
            return analyze(table)
        except ExplainError as e:
            raise RequestError(str(e)) from None


def _review(params: Any, progress: Progress | None) -> dict[str, Any]:
    """``review`` params: ``{"table", "player"?, "event"?, "move"?, "engine"?, "red_cap"?, "budget"?,
    "search"?, "seed"?, "search_work"?}`` (``search``: iterations of the search at each of ``me``'s
    decisions, each bounded by ``search_work`` as the ``search`` method's ``work``).
    Without ``event``: the whole review (review.review: ``{"consistent", "player", "decisions"}``, the
    CLI ``review`` list in ``decisions``; ``progress`` hears each decision).  With ``event`` (a
    decision's index): that decision's entry; with ``move`` too (a suggestion row), the hypothetical
    move's (review.try_move: nothing is written into the game)."""
    from .review import ReviewError, entry, review, try_move

    p = _params(params, {"table", "player", "event", "move", "engine", "red_cap", "budget", "search", "seed",
                         "search_work"}, {"table"})
    for name, kind in (("player", int), ("event", int), ("engine", str), ("red_cap", (int, float)), ("search", int),
                       ("seed", int), ("search_work", int)):
        if name in p and (not isinstance(p[name], kind) or isinstance(p[name], bool)):
            raise RequestError(f"params: field {name!r} has the wrong type ({type(p[name]).__name__})")
    if "move" in p and "event" not in p:
        raise RequestError("params: a 'move' is tried at an 'event': give both")
    red_cap = p.get("red_cap", Policy.red_cap)
    if not 0 <= red_cap <= 1:
        raise RequestError(f"params: field 'red_cap' must be a probability between 0 and 1, not {red_cap!r}")
    options: dict[str, Any] = {"engine": p.get("engine", DEFAULT), "policy": Policy(red_cap=red_cap),
                               "search": p.get("search", 0), "seed": p.get("seed", 0),
                               "search_work": p.get("search_work")}
    with _state_budget(p.get("budget")):
        try:
            if "event" not in p:
                return review(p["table"], player=p.get("player"), progress=progress, **options)
            if "move" in p:
                return try_move(p["table"], p["event"], p["move"], **options)
            return entry(p["table"], load_table(p["table"]), p["event"], **options)
        except ReviewError as e:
            raise RequestError(f"params: {e}") from None


METHODS: dict[str, Callable[[Any, Progress | None], Any]] = {
    "ping": _ping, "analyze": _analyze, "suggest": _suggest, "missions": _missions, "new": _new,
    "explain": _explain, "review": _review, "task": _task, "stats": _stats, "lookahead": _simulated(_lookahead),
    "search": _simulated(_search),
    "merge_searches": _simulated(_merge_searches)}


def _check_table_size(request: dict[str, Any]) -> None:
    """A table in a long request is held to the table file's limit (the rest may be answers)."""
    params = request.get("params")
    table = params.get("table") if isinstance(params, dict) else None
    if table is not None:
        size = len(json.dumps(table))
        if size > MAX_CHARS:
            raise StrictJSONError(f"the table is {size:,} characters long; at most {MAX_CHARS:,} are read",
                                  code="too_long", size=size, limit=MAX_CHARS)


def handle(message: str, progress: Progress | None = None) -> str:
    """Answer one request; never raises.

    ``progress(done, total)``, when given, hears how many of a long request's
    analyses are done (``suggest``: the per-value analyses of a public view,
    the entropy branches; ``search``: its iterations); the worker posts it to the page.
    """
    request_id = None
    try:
        request = loads_strict(message, MAX_MESSAGE_CHARS)
        if not isinstance(request, dict):
            raise RequestError("request: expected an object")
        if len(message) > MAX_CHARS:
            _check_table_size(request)
        request_id = request.get("id")
        name = request.get("method")
        method = METHODS.get(name) if isinstance(name, str) else None  # a list or object is unhashable
        if method is None:
            raise RequestError(f"unknown method {request.get('method')!r} (known: {', '.join(METHODS)})")
        return json.dumps({"id": request_id, "result": method(request.get("params", {}), progress)})
    except _Pending as e:
        return json.dumps({"id": request_id, "pending": {"tasks": e.tasks, "weights": e.weights, "digest": e.digest}})
    except TableError as e:
        return json.dumps({"id": request_id, "error": _table_refusal(e)})
    except EngineLimit as e:  # its code and fields beside the English: the page words the limit (limit.CODE)
        return json.dumps({"id": request_id, "error": {"message": str(e), **e.json()}})
    except RequestError as e:  # a search's refusal carries its code and fields (search.refused.CODE)
        return json.dumps({"id": request_id, "error": {"message": str(e), **e.why}})
    except StrictJSONError as e:  # a table too deep or too long carries its code (error.CODE)
        return json.dumps({"id": request_id, "error": {"message": str(e), **e.json()}})
    except (EngineChoiceError, SuggestError, MissionError, json.JSONDecodeError) as e:
        return json.dumps({"id": request_id, "error": {"message": str(e)}})
    except KeyboardInterrupt:  # e.g. raised by a progress callback to stop a long request
        return json.dumps({"id": request_id, "error": {"message": "interrupted"}})
    except RecursionError:
        return json.dumps({"id": request_id, "error": {"message": "the request nests too deeply"}})
    except Exception as e:  # the boundary: a bug must still come back as a value, not kill the worker
        detail = f"{type(e).__name__}: {e}"  # for a bug report: the page frames it in its language
        return json.dumps({"id": request_id, "error": {"message": f"internal error: {detail}",
                                                       "code": "internal_error", "fields": {"detail": detail}}})
