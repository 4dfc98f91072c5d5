"""Engine "brute": enumerate every count matrix.  For tests and tiny tables only.

Deliberately simple, so it can serve as the reference the fast engines are
checked against: distribute each key's copies over the stands in every
possible way, lay each stand out sorted, keep the deals that satisfy every
slot domain and count fact, and weight each by ``prod_k m_k! / prod_s
c[s][k]!``.  Its cost grows exponentially with the table.
"""
from __future__ import annotations

from math import factorial, prod

from ..beliefs import Beliefs, Inconsistent
from ..facts import Pos, Problem

MAX_DEALS = 2_000_000  # refuse tables whose enumeration would take minutes


class TooLarge(Exception):
    """The table is too big to enumerate."""


def _splits(copies: int, room: list[int]):
    """Every way to put ``copies`` identical tiles into stands with ``room`` free slots."""
    if len(room) == 1:
        if copies <= room[0]:
            yield (copies,)
        return
    for c in range(min(copies, room[0]) + 1):
        for rest in _splits(copies - c, room[1:]):
            yield (c,) + rest


def analyze(problem: Problem) -> Beliefs:
    keys = problem.keys
    sizes = [st.size for st in problem.stands]
    rows: list[list[int]] = [[] for _ in sizes]
    weights: dict[Pos, dict[int, int]] = {(s, j): {} for s, n in enumerate(sizes) for j in range(n)}
    total = 0
    deals = 0
    numerator = prod(factorial(problem.copies[k]) for k in keys)

    def consistent() -> bool:
        for fact in problem.counts:
            if not fact.lo <= sum(rows[s][j] in fact.keys for s, j in fact.slots) <= fact.hi:
                return False
        return True

    def place(i: int, weight_den: int) -> None:
        nonlocal total, deals
        if i == len(keys):
            deals += 1
            if deals > MAX_DEALS:
                raise TooLarge(f"more than {MAX_DEALS} deals to enumerate")
            if not consistent():
                return
            w = numerator // weight_den
            total += w
            for s, row in enumerate(rows):
                for j, k in enumerate(row):
                    weights[(s, j)][k] = weights[(s, j)].get(k, 0) + w
            return
        k = keys[i]
        room = [n - len(r) for n, r in zip(sizes, rows)]
        for split in _splits(problem.copies[k], room):
            ok = True
            for s, c in enumerate(split):
                start = len(rows[s])
                if any(k not in problem.domain((s, j)) for j in range(start, start + c)):
                    ok = False
                    break
            if not ok:
                continue
            for s, c in enumerate(split):
                rows[s].extend([k] * c)
            place(i + 1, weight_den * prod(factorial(c) for c in split))
            for s, c in enumerate(split):
                del rows[s][len(rows[s]) - c:]

    place(0, 1)
    if not total:
        raise Inconsistent
    weights = {pos: {k: w for k, w in sorted(row.items())} for pos, row in weights.items()}
    return Beliefs(problem, total, weights, {s: total for s in range(len(sizes))})
