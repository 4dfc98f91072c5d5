"""Engine "brute": enumerate every count matrix.  For tests and tiny tables only.

Deliberately simple, so it can serve as the reference the fast engines are
checked against: distribute each key's copies over the stands in every
possible way, lay each stand out sorted, keep the deals that satisfy every
slot domain, count fact, order fact (``key(lo) <= key(hi)``) and value fact
(gameplay values: :func:`~bombbuster_core.wires.value_of`), and weight each
by ``prod_k m_k! / prod_s c[s][k]!``.  Its cost grows exponentially with the table.
"""
from __future__ import annotations

from functools import lru_cache
from math import factorial, prod

from ..beliefs import Beliefs, EngineLimit, Inconsistent
from ..facts import Pos, Problem, SameValue, SameValueCount
from ..wires import value_of

MAX_DEALS = 2_000_000  # refuse tables whose enumeration would take minutes
MAX_STEPS = 10_000_000  # splits tried, dead ends included: bounds the search, not only its results (~1 min)


class TooLarge(EngineLimit):
    """The table is too big to enumerate (an engine limit: the CLI says so, exit 2)."""


def splits(copies: int, room: list[int]):
    """Every way to put ``copies`` identical tiles into stands with ``room`` free slots."""
    if len(room) == 1:
        if copies <= room[0]:
            yield (copies,)
        return
    for c in range(min(copies, room[0]) + 1):
        for rest in splits(copies - c, room[1:]):
            yield (c,) + rest


@lru_cache(maxsize=4096)
def _ways(copies: int, room: tuple[int, ...]) -> int:
    """How many splits :func:`splits` yields (``room`` sorted: the count does not depend on the order)."""
    ways = [1] + [0] * copies  # ways[c]: splits of c copies over the stands so far
    for r in room:
        ways = [sum(ways[c - x] for x in range(min(r, c) + 1)) for c in range(copies + 1)]
    return ways[copies]


def too_large(problem: Problem) -> tuple[str, str] | None:
    """Why the enumeration would pass its limits, decided before it starts (None: it will not):
    the limit's code (beliefs.LIMIT_CODES) and the CLI's words.

    The search below tries, for each key in turn and each partial deal that got
    there, every split of the key's copies over the room left; its steps are those
    splits, its deals the partial deals that reach the last key.  Partial deals that
    leave the same fills behind are counted together here, by their number (a key's
    copies placed stand by stand), and a key's steps are counted before its splits
    are made, so the 4-5-player presets are refused after a few keys (the search
    took 43-94 s to find out).
    """
    sizes = [st.size for st in problem.stands]
    nodes: dict[tuple[int, ...], int] = {(0,) * len(sizes): 1}  # fills -> partial deals with them
    steps = 0
    for k in problem.keys:
        copies = problem.copies[k]
        steps += sum(n * _ways(copies, tuple(sorted(size - f for size, f in zip(sizes, fills))))
                     for fills, n in nodes.items())
        if steps > MAX_STEPS:
            return "brute_steps", f"more than {MAX_STEPS:,} steps of its search"
        # fit[s][f]: the slots from f on stand s that may hold k, in a row (a run of k starts at the fill)
        fit = []
        for s, size in enumerate(sizes):
            row = [0] * (size + 1)
            for j in range(size - 1, -1, -1):
                row[j] = row[j + 1] + 1 if k in problem.domain((s, j)) else 0
            fit.append(row)
        # the splits that fit, stand by stand: (fills, copies left) -> partial deals
        layer = {(fills, copies): n for fills, n in nodes.items()}
        for s in range(len(sizes)):
            after: dict[tuple[tuple[int, ...], int], int] = {}
            for (fills, left), n in layer.items():
                f = fills[s]
                for c in range(min(left, fit[s][f]) + 1):
                    nxt = (fills[:s] + (f + c,) + fills[s + 1:], left - c)
                    after[nxt] = after.get(nxt, 0) + n
            layer = after
        nodes = {fills: n for (fills, left), n in layer.items() if not left}
    if sum(nodes.values()) > MAX_DEALS:
        return "brute_deals", f"more than {MAX_DEALS:,} deals to enumerate"
    return None


def analyze(problem: Problem) -> Beliefs:
    why = too_large(problem)
    if why is not None:
        code, words = why
        raise TooLarge(f"too large for the brute engine: {words}; use --engine columns", code,
                       limit=MAX_STEPS if code == "brute_steps" else MAX_DEALS)
    keys = problem.keys
    sizes = [st.size for st in problem.stands]
    rows: list[list[int]] = [[] for _ in sizes]
    weights: dict[Pos, dict[int, int]] = {(s, j): {} for s, n in enumerate(sizes) for j in range(n)}
    total = 0
    numerator = prod(factorial(problem.copies[k]) for k in keys)

    def key(pos: Pos) -> int:
        return rows[pos[0]][pos[1]]

    def consistent() -> bool:
        for fact in problem.counts:
            if not fact.lo <= sum(key(pos) in fact.keys for pos in fact.slots) <= fact.hi:
                return False
        for order in problem.orders:
            if not key(order.lo) <= key(order.hi):
                return False
        for v in problem.values:
            if isinstance(v, SameValueCount):
                if sum(value_of(key(pos)) == value_of(key(v.at)) for pos in v.slots) != v.count:
                    return False
            elif isinstance(v, SameValue):
                if (value_of(key(v.a)) == value_of(key(v.b))) != v.equal:
                    return False
            else:  # pragma: no cover - Problem admits no other value fact
                raise TypeError(f"unknown value fact {v!r}")
        return True

    def place(i: int, weight_den: int) -> None:
        nonlocal total
        if i == len(keys):
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
        for split in splits(problem.copies[k], room):
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
