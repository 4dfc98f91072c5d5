"""Inference engines: each turns a :class:`~bombbuster_core.facts.Problem` into exact :class:`~bombbuster_core.beliefs.Beliefs`."""
from __future__ import annotations

from typing import Callable

from ..beliefs import Beliefs
from ..facts import Problem
from . import brute, columns, signatures

Engine = Callable[[Problem], Beliefs]

ENGINES: dict[str, Engine] = {"columns": columns.analyze, "brute": brute.analyze,
                              "signatures": signatures.analyze}
DEFAULT = "columns"
