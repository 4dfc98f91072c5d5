""""The player holds v": the condition a call's odds are read under.

A call is legal only if the caller holds an uncut wire of the called value,
so in public view (or for a player other than the observer) the odds of a
call are those of the deals in which the player holds it.  :class:`Holding`
makes that condition (empty when the view already knows it) and runs the
analyses under it for every value at once: with the columns engine in one
packed run, with other engines one analysis per value, through an executor.
"""
from __future__ import annotations

from typing import Iterable

from ..facts import CountIn
from ..wires import Value
from .analyses import Condition, Executor, Fact, Progress, probability
from .position import Position


class Holding:
    """The conditions "the player holds each of these values" of one position, memoised."""

    def __init__(self, position: Position):
        self.position = position
        self._conditions: dict[tuple[Value, ...], Condition] = {}

    def __call__(self, values: Iterable[Value]) -> Condition:
        """The condition "the player holds an uncut wire of each value", empty when already certain."""
        values = tuple(values)
        if values not in self._conditions:
            position = self.position
            root = position.analyses.beliefs()
            assert root is not None
            mine = frozenset(position.pos(s) for s in position.visible(position.player))
            facts: set[Fact] = set()
            for v in values:
                keys = position.deck.keys_of_value(v)
                if not any(probability(root, pos, keys) == 1 for pos in mine):
                    facts.add(CountIn(mine, keys, 1, len(mine)))
            self._conditions[values] = frozenset(facts)
        return self._conditions[values]

    def prefetch(self, values: list[Value], executor: Executor | None, progress: Progress | None,
                 pairs: Iterable[tuple[Value, Value]] = ()) -> None:
        """Public view (or another player): the beliefs given "holds v" for every uncertain value v,
        and given "holds v and w" for the ``pairs`` the X-or-Y ray will call.

        With the columns engine they come from one run (all "holds no v" at
        once, and "holds neither v nor w" for each pair: inclusion and
        exclusion), whose sweeps are kept for the detectors' joints; other
        engines run one analysis per condition, side by side with an
        executor, reporting ``progress``.
        """
        conditions = [self((v,)) for v in values] + [self(pair) for pair in pairs]
        analyses = self.position.analyses
        if self.position.engine == "columns":
            analyses.packed((c for c in conditions if c), keep=True)
        else:
            analyses.prefetch(conditions, executor or map, progress)
