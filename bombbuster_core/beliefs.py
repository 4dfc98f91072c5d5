"""Beliefs: what an engine concludes about a problem — exact and serialisable.

Every engine returns the same thing: the total weight of the deals that fit
the facts (``worlds``, an exact integer) and, for every slot, the exact
weight of the deals in which that slot holds each key.  Probabilities are
``weight / denominator`` with one exact integer denominator per stand, so
callers may take Fractions (tests) or floats (output) from the same result.
"""
from __future__ import annotations

from .record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fractions import Fraction

    from .facts import Pos, Problem
    from .wires import Key


class Inconsistent(Exception):
    """No deal fits the facts."""


class EngineLimit(Exception):
    """The problem exceeds the engine's budget; no approximate answer is given."""


class Unsupported(EngineLimit):
    """The engine does not model a fact type of the problem; it refuses rather than guess."""


class Beliefs(Record):
    __slots__ = ("problem", "worlds", "weights", "denominators")
    problem: Problem
    worlds: int
    weights: dict[Pos, dict[Key, int]]  # only non-zero entries
    denominators: dict[int, int]  # stand id -> denominator of its slots' weights

    def __init__(self, problem: Problem, worlds: int, weights: dict[Pos, dict[Key, int]],
                 denominators: dict[int, int]):
        super().__init__(problem, worlds, weights, denominators)

    def exact(self, pos: Pos) -> dict[Key, Fraction]:
        from fractions import Fraction  # only tests need it; it costs the CLI ~10 ms to import

        den = self.denominators[pos[0]]
        return {k: Fraction(w, den) for k, w in sorted(self.weights[pos].items())}

    def probabilities(self, pos: Pos) -> dict[Key, float]:
        den = self.denominators[pos[0]]
        return {k: w / den for k, w in sorted(self.weights[pos].items())}

    def support(self, pos: Pos) -> frozenset[Key]:
        """The minimal domain: keys some consistent deal puts in this slot."""
        return frozenset(self.weights[pos])
