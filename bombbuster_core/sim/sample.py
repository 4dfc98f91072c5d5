"""Exact deal sampler: complete deals drawn with exactly the posterior probabilities of a table.

``sample(table, n, rng)`` returns ``n`` independent deals consistent with
the table, each drawn with exactly its posterior probability (the shuffle
prior of README "Probability model" conditioned on every fact of the
table).  A deal is ``{"stands": [[key, ...] per stand], "set_aside": [key,
...]}`` — stands in the order players/stands, every slot (cut ones
included) at its current position, keys as JSON numbers — plus ``"nano":
[key, ...]`` for the wires still in Nano (M43).

How (this first version): sequential conditioning through the exact
engine.  P(deal) = Π_i P(slot_i = k_i | slots before i), and each factor is
an exact marginal of the problem restricted to the keys already drawn
(:meth:`facts.Problem.restrict`).  A slot whose marginal is one key needs no
draw.  The ``n`` draws share their common prefixes: at each node the draws
are split among the slot's keys by exact integer categorical draws
(``rng.randrange(total weight)``), one analysis per distinct prefix, and the
deals are shuffled at the end, which leaves them i.i.d.  No rejection, no
Markov chain: every step is an exact ratio of integers.  A backward-sampling
version through the columns engine's tables can replace :func:`sample_problem`
with the same interface.
"""
from __future__ import annotations

import random
from bisect import bisect_right
from itertools import accumulate

from ..beliefs import Beliefs
from ..engines import DEFAULT, ENGINES
from ..facts import Pos, Problem, compile_table
from ..table import Table
from ..wires import Key, key_json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Assignment = dict[Pos, Key]


def sample_problem(problem: Problem, n: int, rng: random.Random, engine: str = DEFAULT) -> list[Assignment]:
    """``n`` exact posterior draws of every position of ``problem``; raises Inconsistent if none fits."""
    analyse = ENGINES[engine]
    order = [(sid, j) for sid, stand in enumerate(problem.stands) for j in range(stand.size)]
    out: list[Assignment] = []

    def draw(p: Problem, beliefs: Beliefs, count: int) -> None:
        pos = next((q for q in order if len(beliefs.weights[q]) > 1), None)
        if pos is None:
            deal = {q: next(iter(beliefs.weights[q])) for q in order}
            out.extend(dict(deal) for _ in range(count))
            return
        row = beliefs.weights[pos]
        keys = sorted(row)
        bounds = list(accumulate(row[k] for k in keys))
        split = [0] * len(keys)
        for _ in range(count):
            split[bisect_right(bounds, rng.randrange(bounds[-1]))] += 1
        for k, c in zip(keys, split):
            if c:
                q = p.restrict(pos, frozenset((k,)))
                draw(q, analyse(q), c)

    if n > 0:
        draw(problem, analyse(problem), n)
    rng.shuffle(out)
    return out


def sample(table: Table, n: int, rng: random.Random, engine: str = DEFAULT) -> list[dict[str, Any]]:
    """``n`` deals of the table drawn exactly from its posterior (module docstring for the shape)."""
    problem = compile_table(table)
    board = table.board()
    segments = len(board.segments)
    set_aside = [sid for sid in range(segments, len(problem.stands))]
    deals = []
    for a in sample_problem(problem, n, rng, engine):
        deal: dict[str, Any] = {
            "stands": [[key_json(a[w]) for w in row] for rows in board.stands for row in rows],
            "set_aside": sorted((key_json(a[(sid, j)]) for sid in set_aside
                                 for j in range(problem.stands[sid].size)), key=float)}
        if table.nano:
            deal["nano"] = [key_json(a[w]) for w in board.nano]
        deals.append(deal)
    return deals
