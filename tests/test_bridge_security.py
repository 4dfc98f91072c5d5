"""The bridge runs no code a request carries, and answers every malformed request with a clear error.

Issue 18: the ``task`` method and split answers unpickled the data of the
request, so one JSON string given to ``bridge.handle`` could run any code (here:
create a file).  Split work now names its function from a fixed registry and
carries its data through an unpickler that builds only plain values and the
core's records.  Every bad ``task`` request is an error naming the field,
never "internal error".
"""
from __future__ import annotations

import base64
import functools
import json
import os
import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from gamegen import random_game

from bombbuster_core import bridge
from bombbuster_core.executor import pickled

WIRES = {"blue": list(range(1, 13)), "yellow": [3.1, 7.1], "red": [5.5]}


def ask(method: str, params: Any) -> dict[str, Any]:
    reply = json.loads(bridge.handle(json.dumps({"id": 7, "method": method, "params": params})))
    assert reply["id"] == 7
    return reply


def clear_error(reply: dict[str, Any], *fields: str) -> str:
    """The reply's error message, which names ``fields`` and is no "internal error"."""
    assert "result" not in reply and "pending" not in reply, reply
    message = reply["error"]["message"]
    assert "internal error" not in message and all(f in message for f in fields), message
    return message


class _Reduce:
    """Pickles as ``fn(*args)``: what an attacker's pickle runs while it is loaded."""

    def __init__(self, fn: Any, *args: Any):
        self.fn, self.args = fn, args

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return self.fn, self.args


def exploits(target: Path) -> dict[str, str]:
    """Pickles (base64) that create ``target`` when loaded, or when called as an ``(fn, item)`` pair."""
    code = f"open({str(target)!r}, 'w').close()"
    payloads = {
        "exec on load": _Reduce(exec, code),
        "os.system on load": _Reduce(os.system, f"touch {target}"),
        "partial on load": _Reduce(functools.partial(exec, code)),
        "eval inside a list": [1, _Reduce(eval, f"{code} or 1")],
        "(exec, code) pair": (exec, code),
        "(open, path) pair": (open, str(target)),
    }
    return {name: base64.b64encode(pickle.dumps(p, protocol=2 + i % 4)).decode()
            for i, (name, p) in enumerate(payloads.items())}


NAMES = sorted(exploits(Path("x")))


@pytest.fixture
def target(tmp_path: Path) -> Path:
    path = tmp_path / "pwned"
    yield path
    assert not path.exists(), "the request ran code"


@pytest.mark.parametrize("name", NAMES)
def test_a_crafted_pickle_as_task_params_runs_nothing(target: Path, name: str) -> None:
    payload = exploits(target)[name]
    clear_error(ask("task", {"task": "executor.call", "params": payload}), "params")
    clear_error(ask("task", {"task": "executor.call", "params": {"function": "entropy_batch", "item": payload}}),
                "item")


def _pending(method: str, params: dict[str, Any]) -> dict[str, Any]:
    reply = ask(method, {**params, "split": True})
    assert "pending" in reply, reply
    return reply["pending"]


# A request whose branches travel as "executor.call" tasks: the columns engine's entropy ranking runs
# in process now (one boolean run, engines/columns/support.py), the signatures engine's branches
# still go out one analysis each, through the same pickled items and answers.
ENTROPY = {"table": random_game(random.Random("entropy-0"), players=4, me=0, setup_tokens=True, turns=4)[0],
           "player": 0, "mode": "entropy", "engine": "signatures"}
BIG = {"table": random_game(random.Random("1-5-0"), players=5, wires=WIRES, me=False, setup_tokens=True,
                            turns=0)[0]}


@pytest.mark.parametrize("name", NAMES)
def test_a_crafted_pickle_as_split_answers_runs_nothing(target: Path, name: str) -> None:
    payload = exploits(target)[name]
    pending = _pending("suggest", ENTROPY)
    answers = [{"digest": pending["digest"], "results": [payload] * len(pending["tasks"])}]
    clear_error(ask("suggest", {**ENTROPY, "split": True, "answers": answers}), "answers")
    pending = _pending("analyze", BIG)  # the mirrored sweep travels back pickled
    assert [t["task"] for t in pending["tasks"]] == ["columns.sweep", "columns.sweep"]
    for results in ([payload, "kept"], [payload, payload]):
        answers = [{"digest": pending["digest"], "results": results}]
        clear_error(ask("analyze", {**BIG, "split": True, "answers": answers}), "answers")


def test_split_tasks_name_their_function_and_carry_no_code() -> None:
    pending = _pending("suggest", ENTROPY)
    for task in pending["tasks"]:
        assert task["task"] == "executor.call" and task["params"]["function"] == "entropy"
        assert "result" in ask("task", task)


@pytest.mark.parametrize("params, fields", [
    ({"task": "executor.call"}, ["missing field 'params'"]),
    ({"params": {}}, ["missing field 'task'"]),
    ({"task": "executor.call", "params": ""}, ["params"]),
    ({"task": "executor.call", "params": {}}, ["params", "function"]),
    ({"task": "executor.call", "params": {"function": "entropy_batch"}}, ["item"]),
    ({"task": "executor.call", "params": {"function": "os.system", "item": ""}}, ["function", "os.system"]),
    ({"task": "executor.call", "params": {"function": ["x"], "item": ""}}, ["function"]),
    ({"task": "executor.call", "params": {"function": "entropy_batch", "item": ""}}, ["item"]),
    ({"task": "executor.call", "params": {"function": "entropy_batch", "item": "not base64 at all!"}}, ["item"]),
    ({"task": "executor.call", "params": {"function": "entropy_batch", "item": 3}}, ["item"]),
    ({"task": "executor.call", "params": {"function": "entropy_batch", "item": pickled(3)}}, ["item"]),
    ({"task": "executor.call", "params": {"function": "entropy_batch", "item": pickled((1, 2, 3))}}, ["item"]),
    ({"task": "executor.call", "params": {"function": "analysis", "item": pickled(b"x" * 10)[:-8]}}, ["item"]),
    ({"task": "executor.call", "params": {"function": "analysis", "item": "x"}, "extra": 1}, ["extra"]),
    ({"task": "columns.sweep", "params": {"mirrored": True}}, ["missing field 'table'"]),
    ({"task": "columns.sweep", "params": {"table": {}}}, ["missing field 'mirrored'"]),
    ({"task": "columns.sweep", "params": {"table": BIG["table"], "mirrored": "yes"}}, ["mirrored"]),
    ({"task": "columns.sweep", "params": []}, ["params"]),
    ({"task": "signatures.block", "params": {"max_signatures": 4}}, ["missing field 'spec'"]),
    ({"task": "signatures.block", "params": {"spec": 3, "max_signatures": 4}}, ["spec"]),
    ({"task": "signatures.block", "params": {"spec": {"copies": [[1, 2]]}, "max_signatures": 4}}, ["spec"]),
    ({"task": "signatures.block", "params": {"spec": {"copies": [], "sizes": [], "domains": [], "counts": []},
                                              "max_signatures": "4"}}, ["max_signatures"]),
    ({"task": "engines.x", "params": {}}, ["unknown task 'engines.x'"]),
    ({"task": "columns", "params": {}}, ["unknown task 'columns'"]),
    ({"task": "sampling.x", "params": {}}, ["unknown task 'sampling.x'"]),
])
def test_malformed_task_requests_name_the_field(params: dict[str, Any], fields: list[str]) -> None:
    clear_error(ask("task", params), *fields)


def test_an_id_of_5000_digits_is_a_clear_error() -> None:
    reply = json.loads(bridge.handle('{"id": ' + "1" * 5000 + ', "method": "ping"}'))
    assert reply["id"] is None and reply["error"]["message"].startswith("field 'id': the number 1111")
    assert "too large" in reply["error"]["message"]


@pytest.mark.parametrize("engine", ["brute", "signatures"])
def test_every_call_function_splits_equal_to_serial(engine: str) -> None:
    """Per-value analyses (beliefs back) and entropy branches (numbers back) of the engines that
    run them one by one: the records they carry load, and the result is the serial one."""
    wires = {"blue": [1, 2, 3, 4], "yellow": [2.1], "red": [3.5]}
    table = random_game(random.Random("tiny0"), players=3, wires=wires, me=False, setup_tokens=True, turns=2)[0]
    functions = set()
    for params in ({"player": 0}, {"player": 1, "mode": "entropy"}):
        params = {"table": table, "engine": engine, **params}
        answers: list[dict[str, Any]] = []
        while "pending" in (reply := ask("suggest", {**params, "split": True, "answers": answers})):
            tasks = reply["pending"]["tasks"]
            functions |= {t["params"]["function"] for t in tasks}
            answers.append({"digest": reply["pending"]["digest"], "results": [ask("task", t)["result"] for t in tasks]})
        assert json.dumps(reply["result"]) == json.dumps(ask("suggest", params)["result"])
    assert functions == {"analysis", "entropy"}
