"""JSON bridge between the web worker and the core: one JSON string in, one out.

Request:  ``{"id": any, "method": "ping" | "analyze", "params": {...}}``
Reply:    ``{"id": any, "result": ...}`` or ``{"id": any, "error": {"message": str, "event"?: int}}``

``analyze`` params: ``{"table": <format-1 table>, "engine"?: name}``; its
result is exactly the CLI's JSON.  The worker (web/worker.js) only moves
strings; all logic lives here so it is tested without a browser.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from . import __version__
from .analysis import EngineChoiceError, analyze
from .engines import DEFAULT
from .engines.signatures import EngineLimit
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


def _ping(params: Any) -> dict[str, Any]:
    return {"version": __version__}


def _analyze(params: Any) -> dict[str, Any]:
    p = _params(params, {"table", "engine"}, {"table"})
    return analyze(load_table(p["table"]), p.get("engine", DEFAULT))


METHODS: dict[str, Callable[[Any], Any]] = {"ping": _ping, "analyze": _analyze}


def handle(message: str) -> str:
    """Answer one request; never raises."""
    request_id = None
    try:
        request = json.loads(message)
        if not isinstance(request, dict):
            raise RequestError("request: expected an object")
        request_id = request.get("id")
        method = METHODS.get(request.get("method"))  # type: ignore[arg-type]
        if method is None:
            raise RequestError(f"unknown method {request.get('method')!r} (known: {', '.join(METHODS)})")
        return json.dumps({"id": request_id, "result": method(request.get("params", {}))})
    except TableError as e:
        error: dict[str, Any] = {"message": str(e)}
        if e.event is not None:
            error["event"] = e.event
        return json.dumps({"id": request_id, "error": error})
    except (RequestError, EngineChoiceError, EngineLimit, json.JSONDecodeError) as e:
        return json.dumps({"id": request_id, "error": {"message": str(e)}})
    except Exception as e:  # the boundary: a bug must still come back as a value, not kill the worker
        return json.dumps({"id": request_id, "error": {"message": f"internal error: {type(e).__name__}: {e}"}})
