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

    from typing import Any

    from .facts import Pos, Problem
    from .wires import Key


class Inconsistent(Exception):
    """No deal fits the facts."""


# Each engine limit's code, with its fields (numbers and identifiers, never English), which the
# page words in its language (``limit.CODE``, docs/i18n.md); the message is the CLI's English.
LIMIT_CODES = (
    "states_budget",            # states, budget: an analysis's estimated states (columns, a support run)
    "sweep_budget",             # states (the sweep's share), budget: one sweep went past its share
    "sample_budget",            # states, budget: the sampler's table
    "brute_steps",              # limit: the brute engine's search steps
    "brute_deals",              # limit: the brute engine's deals
    "signatures_count",         # signatures (null: more than limit), limit: one block of stands
    "signatures_decks",         # limit: partial decks of the blocks joined
    "signatures_steps",         # limit: steps of the blocks' joins
    "signatures_orders",        # (none): moved wires' order facts
    "signatures_values",        # kinds (fact classes): x-count tokens, equal/different labels
    "entropy_boolean_budget",   # branches, budget: the entropy mode's one boolean run
    "entropy_branches_budget",  # branches, states, budget: the entropy mode's branch analyses
)


class EngineLimit(Exception):
    """The problem exceeds the engine's budget; no approximate answer is given.  ``code`` (one
    of LIMIT_CODES) and ``fields`` say which limit, for the page; the message is the CLI's."""

    def __init__(self, message: str, code: str, /, **fields: Any):
        super().__init__(message)
        assert code in LIMIT_CODES, code
        self.code, self.fields = code, fields

    def __reduce__(self) -> tuple[Any, ...]:
        # Whole after pickling (a sweep's or a worker's refusal): the default rebuilds from the message alone.
        return _rebuilt_limit, (type(self), str(self), self.code, self.fields)

    def json(self) -> dict[str, Any]:
        """The limit as a note, a reason or an error reply carries it: ``{code, fields}``."""
        return {"code": self.code, "fields": self.fields}


def _rebuilt_limit(kind: type[EngineLimit], message: str, code: str, fields: dict[str, Any]) -> EngineLimit:
    """An EngineLimit (or subclass) from its pickled parts (fields are keywords, which pickling cannot pass)."""
    return kind(message, code, **fields)


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
