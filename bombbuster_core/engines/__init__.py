"""Inference engines: each turns a :class:`~bombbuster_core.facts.Problem` into exact :class:`~bombbuster_core.beliefs.Beliefs`.

Engines are imported on first use, so a command that runs the default
engine does not pay for loading the others (it matters at interpreter start
and in a freshly started browser worker).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from importlib import import_module

from ..beliefs import Beliefs
from ..facts import Problem

Engine = Callable[[Problem], Beliefs]


class _Registry(Mapping[str, Engine]):
    """Engine name -> ``analyze`` function of ``bombbuster_core.engines.<name>``."""

    def __init__(self, names: tuple[str, ...]):
        self._names = names

    def __getitem__(self, name: str) -> Engine:
        if name not in self._names:
            raise KeyError(name)
        return import_module(f"{__name__}.{name}").analyze

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


ENGINES: Mapping[str, Engine] = _Registry(("columns", "signatures", "brute"))
DEFAULT = "columns"
