"""JSON bridge between the web worker and the core: one JSON string in, one out.

Request:  ``{"id": any, "method": "ping" | "analyze" | "suggest" | "missions" | "new", "params": {...}}``
Reply:    ``{"id": any, "result": ...}`` or ``{"id": any, "error": {"message": str, "event"?: int}}``

``analyze`` params: ``{"table": <format-1 table>, "engine"?: name, "budget"?:
states}``; its result is exactly the CLI's JSON (``budget``: the columns
engine's work budget, as ``analyze --budget``).  ``suggest`` params: ``{"table", "player"?,
"mode"?, "probabilities"?, "top"?, "engine"?, "red_cap"?, "seed"?,
"equipment"? (list), "per_kind"?, "budget"? (equipment runs: int or null), "failure_token"?,
"state_budget"? (states)}``;
its result is exactly the CLI ``suggest`` JSON (docs/suggestions.md).
``missions`` params: ``{}``; its result lists every mission for the new-game
screen: ``[{"mission", "name", "players": [allowed counts], "rules": [tags],
"summary", "choices": {"<players>": {"yellow"?, "red"?: {"values", "in_play",
"range"}, "number"?: {"range"}}}}]``.  ``new`` params: ``{"mission",
"players", "yellow"?: [keys], "red"?: [keys], "number"?}``; its result is
exactly the CLI ``new`` table (docs/table-format.md, "Mission presets").  The
worker (web/worker.js) only moves strings; all logic lives here so it is
tested without a browser.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from . import __version__
from .analysis import EngineChoiceError, analyze
from .beliefs import EngineLimit
from .engines import DEFAULT, columns
from .jsonio import StrictJSONError, loads_strict
from .missions import MissionError, catalogue, new_table
from .suggest import Policy, Progress, SuggestError, suggest
from .table import TableError, load_table


class RequestError(ValueError):
    pass


def _params(params: Any, allowed: set[str], required: set[str]) -> dict[str, Any]:
    if not isinstance(params, dict):
        raise RequestError("params: expected an object")
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise RequestError(f"params: unknown field {unknown[0]!r}")
    missing = sorted(required - set(params))
    if missing:
        raise RequestError(f"params: missing field {missing[0]!r}")
    return params


def _ping(params: Any, progress: Progress | None) -> dict[str, Any]:
    return {"version": __version__}


def _analyze(params: Any, progress: Progress | None) -> dict[str, Any]:
    p = _params(params, {"table", "engine", "budget"}, {"table"})
    with _state_budget(p.get("budget")):
        return analyze(load_table(p["table"]), p.get("engine", DEFAULT))


@contextmanager
def _state_budget(raw: Any) -> Iterator[None]:
    """The columns engine's work budget (states) for one request; None: the default."""
    if raw is None:
        yield
        return
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not 1 <= raw < float("inf"):
        raise RequestError(f"params: field 'budget' must be a number of states >= 1, not {raw!r}")
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
}
_POLICY_FIELDS = {"red_cap", "seed", "equipment", "per_kind", "equipment_budget", "failure_token"}


def _suggest(params: Any, progress: Progress | None) -> dict[str, Any]:
    p = _params(params, {"table", *_SUGGEST_OPTIONS}, {"table"})
    table = load_table(p["table"])
    options: dict[str, Any] = {}
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
    with _state_budget(options.pop("state_budget", None)):
        return suggest(table, policy=Policy(**policy), progress=progress, **options)


def _missions(params: Any, progress: Progress | None) -> list[dict[str, Any]]:
    _params(params, set(), set())
    return catalogue()


def _new(params: Any, progress: Progress | None) -> dict[str, Any]:
    p = _params(params, {"mission", "players", "yellow", "red", "number"}, {"mission", "players"})
    return new_table(p["mission"], p["players"], yellow=p.get("yellow"), red=p.get("red"), number_card=p.get("number"))


METHODS: dict[str, Callable[[Any, Progress | None], Any]] = {
    "ping": _ping, "analyze": _analyze, "suggest": _suggest, "missions": _missions, "new": _new}


def handle(message: str, progress: Progress | None = None) -> str:
    """Answer one request; never raises.

    ``progress(done, total)``, when given, hears how many of a long request's
    analyses are done (``suggest``: the per-value analyses of a public view,
    the entropy branches); the worker posts it to the page.
    """
    request_id = None
    try:
        request = loads_strict(message)
        if not isinstance(request, dict):
            raise RequestError("request: expected an object")
        request_id = request.get("id")
        name = request.get("method")
        method = METHODS.get(name) if isinstance(name, str) else None  # a list or object is unhashable
        if method is None:
            raise RequestError(f"unknown method {request.get('method')!r} (known: {', '.join(METHODS)})")
        return json.dumps({"id": request_id, "result": method(request.get("params", {}), progress)})
    except TableError as e:
        error: dict[str, Any] = {"message": str(e)}
        if e.event is not None:
            error["event"] = e.event
        return json.dumps({"id": request_id, "error": error})
    except (RequestError, EngineChoiceError, EngineLimit, SuggestError, MissionError, json.JSONDecodeError,
            StrictJSONError) as e:
        return json.dumps({"id": request_id, "error": {"message": str(e)}})
    except KeyboardInterrupt:  # e.g. raised by a progress callback to stop a long request
        return json.dumps({"id": request_id, "error": {"message": "interrupted"}})
    except RecursionError:
        return json.dumps({"id": request_id, "error": {"message": "the request nests too deeply"}})
    except Exception as e:  # the boundary: a bug must still come back as a value, not kill the worker
        return json.dumps({"id": request_id, "error": {"message": f"internal error: {type(e).__name__}: {e}"}})
