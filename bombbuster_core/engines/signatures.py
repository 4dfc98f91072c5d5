"""Engine "signatures": the three-phase signature dynamic program, cached and parallel.

A second exact engine, independent of "columns", so each checks the other.

A *signature* of a stand is its count vector (copies of each sort key); as
stands are sorted, it fixes every slot.  Stands linked by a count fact (a
player's two stands) form one *block* whose signatures are joint.

1. Per block, generate every signature that satisfies the block's own slot
   domains and count facts, by backtracking with pruning (a slot-by-slot
   feasibility table makes every domain-valid branch complete).  Each
   carries the exact weight ``prod_s n_s! / prod c!`` (a product of
   multinomials, an integer).
2. Forward tables ``alpha[b]`` (resource vectors used by blocks before b,
   with total weight) and backward tables ``beta[b]`` (blocks b onwards),
   dicts from packed vector to weight; forward entries that the blocks after
   them cannot complete are dropped.
3. A signature of block b with resource r survives iff ``a + r + x = deck``
   for some a in ``alpha[b]``, x in ``beta[b+1]``; its weight times the sum
   of those products (found by iterating the smaller table) is its exact
   posterior weight, projected onto the slots it lays out.

Weights: a deal's prior weight is ``prod_k m_k! / prod_{s,k} c_sk!`` (see
README, "Probability model") = ``(prod_k m_k! / prod_s n_s!) * prod_s
multinomial_s``; the engine sums products of multinomials and applies that
constant factor once at the end (the division is exact).

Count vectors are packed into one int, a field of ``bit_length(m_k) + 1``
bits per key: adding two vectors is one addition, and "sum <= deck" is one
subtraction and mask test on the spare top bit of every field.

Signatures are cached in memory across analyses, keyed by a block's own
constraints (:class:`BlockSpec`), so an event on one stand leaves the other
stands' signatures cached.  Phases 1 and 3 run per block through an
:class:`~bombbuster_core.executor.Executor` (serial by default).  A
:class:`Budget` bounds the work; beyond it the engine raises
:class:`EngineLimit` rather than approximate.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from math import factorial, prod
from typing import Any

from ..beliefs import Beliefs, Inconsistent
from ..executor import Executor, SerialExecutor, json_task
from ..facts import Pos, Problem
from ..wires import Key

# One block's signature: a packed count vector per stand of the block, and its weight.
Signature = tuple[tuple[int, ...], int]
Table = dict[int, int]  # packed resource vector -> total weight


class EngineLimit(Exception):
    """The problem exceeds the engine's budget; no approximate answer is given."""


@dataclass(frozen=True)
class Budget:
    # Defaults: each limit is reached in about 2 s on the 2-core machine (bench/bench_signatures.py).
    max_signatures: int = 100_000  # signatures of one block (phase 1)
    max_states: int = 200_000  # entries of one forward or backward table (phase 2)
    max_steps: int = 5_000_000  # vector pairs combined in phases 2 and 3 together


class Packing:
    """Bit layout of count vectors over a deck's sort keys (ascending keys in ascending bits)."""

    def __init__(self, copies: tuple[tuple[Key, int], ...]):
        self.shifts: list[int] = []
        self.masks: list[int] = []
        self.key_of_bit: list[int] = []  # bit position -> key index whose field holds it
        self.deck = self.guard = 0
        at = 0
        for i, (_, m) in enumerate(copies):
            width = m.bit_length() + 1  # spare top bit: a sum of two vectors <= deck never leaves its field
            self.shifts.append(at)
            self.masks.append((1 << width) - 1)
            self.key_of_bit += [i] * width
            self.deck |= m << at
            self.guard |= 1 << (at + width - 1)
            at += width
        # For a sum s of two vectors <= deck: s <= deck in every field iff
        # (deck_guarded - s) & guard == guard (no field borrows its guard bit).
        self.deck_guarded = self.deck | self.guard


@dataclass(frozen=True)
class BlockSpec:
    """Everything phase 1 needs about one block, and nothing else: the cache key.

    ``domains[t][j]`` is the sorted tuple of keys slot j of the block's stand t
    may hold (None: any key).  ``counts`` are the block's count facts with
    slots as (local stand, slot).  ``copies`` fixes the keys and the packing.
    """

    copies: tuple[tuple[Key, int], ...]
    sizes: tuple[int, ...]
    domains: tuple[tuple[tuple[Key, ...] | None, ...], ...]
    counts: tuple[tuple[tuple[tuple[int, int], ...], tuple[Key, ...], int, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {"copies": self.copies, "sizes": self.sizes, "domains": self.domains, "counts": self.counts}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> BlockSpec:
        return cls(tuple((k, m) for k, m in raw["copies"]), tuple(raw["sizes"]),
                   tuple(tuple(None if d is None else tuple(d) for d in stand) for stand in raw["domains"]),
                   tuple((tuple((t, j) for t, j in slots), tuple(keys), lo, hi)
                         for slots, keys, lo, hi in raw["counts"]))


class _BlockTooLarge(Exception):
    """Phase 1 of a block passed ``max_signatures``; the argument says by how much."""


# ---------------------------------------------------------------- phase 1


def _runs_and_ways(domains: tuple[tuple[Key, ...] | None, ...], keys: list[Key], copies: list[int]
                   ) -> tuple[list[list[int]], list[list[int]]]:
    """For one stand: ``run[j][i]``, how many slots from j may all hold key i, and
    ``ways[i][j]``, how many sorted fillings of slots j.. by keys i.. the domains allow."""
    n, K = len(domains), len(keys)
    allowed = [[True] * K if d is None else [k in d for k in keys] for d in domains]
    run = [[0] * K for _ in range(n + 1)]
    for j in range(n - 1, -1, -1):
        run[j] = [run[j + 1][i] + 1 if allowed[j][i] else 0 for i in range(K)]
    ways = [[int(j == n) for j in range(n + 1)] for _ in range(K + 1)]
    for i in range(K - 1, -1, -1):
        for j in range(n + 1):
            ways[i][j] = sum(ways[i + 1][j + c] for c in range(min(copies[i], run[j][i]) + 1))
    return run, ways


def signature_count(spec: BlockSpec) -> int | None:
    """The exact number of signatures of a one-stand block without count facts (else None), cheaply."""
    if len(spec.sizes) != 1 or spec.counts:
        return None
    return _runs_and_ways(spec.domains[0], [k for k, _ in spec.copies], [m for _, m in spec.copies])[1][0][0]


def block_signatures(spec: BlockSpec, max_signatures: int) -> list[Signature]:
    """Every signature of the block that fits its own facts, with its weight.

    Raises :class:`_BlockTooLarge` past ``max_signatures`` (at once when the
    count is known without generating: one stand, no count fact).
    """
    packing = Packing(spec.copies)
    keys = [k for k, _ in spec.copies]
    copies = [m for _, m in spec.copies]
    K, T = len(keys), len(spec.sizes)
    index = {k: i for i, k in enumerate(keys)}
    facts = [(frozenset(slots), frozenset(index[k] for k in fkeys if k in index), lo, hi)
             for slots, fkeys, lo, hi in spec.counts]
    lo = [f[2] for f in facts]
    hi = [f[3] for f in facts]

    # options[t][j]: (key index, copies c >= 1, next slot, packed c, c!, count increments, count needs),
    # every way to start at slot j a run of one key that the rest of the stand can complete.
    options: list[list[list[tuple]]] = []
    first: list[list[list[int]]] = []  # first[t][j][i]: first option at slot j with key index >= i
    for t, n in enumerate(spec.sizes):
        run, ways = _runs_and_ways(spec.domains[t], keys, copies)
        if T == 1 and not facts and ways[0][0] > max_signatures:
            raise _BlockTooLarge(f"{ways[0][0]} signatures")  # exact already: refuse before generating
        inside = [[(t, j) in f[0] for j in range(n)] for f in facts]
        prefix = [[sum(row[:j]) for j in range(n + 1)] for row in inside]
        later = [sum(1 for u, _ in f[0] if u > t) for f in facts]
        top = [max(f[1], default=-1) for f in facts]
        stand_options, stand_first = [], []
        for j in range(n):
            opts = []
            for i in range(K):
                for c in range(1, min(copies[i], run[j][i]) + 1):
                    if not ways[i + 1][j + c]:
                        continue
                    incs = tuple((f, prefix[f][j + c] - prefix[f][j]) for f, fact in enumerate(facts)
                                 if i in fact[1] and prefix[f][j + c] > prefix[f][j])
                    # A fact's count can still grow by its slots after this run (if it has a later key)
                    # and on the block's later stands; it must reach lo.
                    needs = []
                    for f in range(len(facts)):
                        room = (prefix[f][n] - prefix[f][j + c] if top[f] > i else 0) + later[f]
                        if lo[f] - room > 0:
                            needs.append((f, lo[f] - room))
                    opts.append((i, c, j + c, c << packing.shifts[i], factorial(c), incs, tuple(needs)))
            stand_options.append(opts)
            stand_first.append([next((o for o, opt in enumerate(opts) if opt[0] >= i), len(opts))
                                for i in range(K + 1)])
        options.append(stand_options)
        first.append(stand_first)

    sizes = spec.sizes
    full = [factorial(n) for n in sizes]
    out: list[Signature] = []
    rows, dens, used, counts = [0] * T, [1] * T, [0] * K, [0] * len(facts)

    def fill(t: int, i: int, j: int) -> None:
        if j == sizes[t]:
            if t + 1 < T:
                fill(t + 1, 0, 0)
            elif all(lo[f] <= counts[f] <= hi[f] for f in range(len(facts))):
                out.append((tuple(rows), prod(full[u] // dens[u] for u in range(T))))
                if len(out) > max_signatures:
                    raise _BlockTooLarge(f"more than {max_signatures} signatures")
            return
        opts = options[t][j]
        for o in range(first[t][j][i], len(opts)):
            ki, c, nj, code, c_fact, incs, needs = opts[o]
            if used[ki] + c > copies[ki]:
                continue
            ok = True
            for f, d in incs:
                counts[f] += d
                if counts[f] > hi[f]:
                    ok = False
            for f, need in needs:
                if counts[f] < need:
                    ok = False
            if ok:
                used[ki] += c
                rows[t] += code
                dens[t] *= c_fact
                fill(t, ki + 1, nj)
                used[ki] -= c
                rows[t] -= code
                dens[t] //= c_fact
            for f, d in incs:
                counts[f] -= d

    fill(0, 0, 0)
    return out


def _phase1(job: tuple[BlockSpec, int]) -> list[Signature] | str:
    """Executor task: a block's signatures, or past the budget how many there are."""
    try:
        return block_signatures(*job)
    except _BlockTooLarge as e:
        return str(e)


@json_task("signatures.block")
def _phase1_json(params: dict[str, Any]) -> list[list[Any]] | None:
    """Browser-worker form of phase 1 (see :mod:`bombbuster_core.executor`)."""
    sigs = _phase1((BlockSpec.from_json(params["spec"]), params["max_signatures"]))
    return None if isinstance(sigs, str) else [[list(rows), w] for rows, w in sigs]


class SignatureCache:
    """LRU cache of phase-1 results by :class:`BlockSpec`, bounded in total signatures held."""

    def __init__(self, max_signatures: int = 2_000_000):
        self.max_signatures = max_signatures
        self._entries: OrderedDict[BlockSpec, list[Signature]] = OrderedDict()
        self._held = 0
        self.hits = self.misses = 0

    def __contains__(self, spec: BlockSpec) -> bool:
        return spec in self._entries

    def get(self, spec: BlockSpec) -> list[Signature] | None:
        sigs = self._entries.get(spec)
        if sigs is None:
            self.misses += 1
            return None
        self.hits += 1
        self._entries.move_to_end(spec)
        return sigs

    def put(self, spec: BlockSpec, sigs: list[Signature]) -> None:
        if spec in self._entries or len(sigs) > self.max_signatures:
            return
        self._entries[spec] = sigs
        self._held += len(sigs)
        while self._held > self.max_signatures:
            _, old = self._entries.popitem(last=False)
            self._held -= len(old)

    def clear(self) -> None:
        self._entries.clear()
        self._held = self.hits = self.misses = 0


# ---------------------------------------------------------------- phases 2 and 3


def _combine(left: Table, right: Table, packing: Packing, keep: Table | None, limit: int) -> Table:
    """All sums ``a + r <= deck`` with summed weights; with ``keep``, only sums that ``keep`` completes.

    Stops early, with more than ``limit`` entries, once the table outgrows ``limit``.
    """
    out: Table = {}
    deck, deck_guarded, guard = packing.deck, packing.deck_guarded, packing.guard
    for a, wa in left.items():
        for r, wr in right.items():
            s = a + r
            if (deck_guarded - s) & guard == guard and (keep is None or deck - s in keep):
                out[s] = out.get(s, 0) + wa * wr
        if len(out) > limit:
            break
    return out


def _phase3(job: tuple[list[Signature], Table, Table, tuple[tuple[Key, int], ...], tuple[int, ...]]
            ) -> tuple[int, list[list[dict[int, int]]]]:
    """Executor task: (total weight, per stand per slot {key index: weight}) of one block's survivors."""
    sigs, alpha, beta, copies, sizes = job
    packing = Packing(copies)
    deck, deck_guarded, guard = packing.deck, packing.deck_guarded, packing.guard
    shifts, masks, key_of_bit = packing.shifts, packing.masks, packing.key_of_bit
    K = len(copies)

    def completions(r: int) -> int:
        """Sum over a in alpha, x in beta with a + r + x = deck of alpha[a] * beta[x]."""
        total = 0
        if len(alpha) <= len(beta):
            for a, wa in alpha.items():
                s = a + r
                if (deck_guarded - s) & guard == guard:  # s <= deck in every field
                    total += wa * beta.get(deck - s, 0)
        else:
            for x, wx in beta.items():
                y = deck - x
                if ((y | guard) - r) & guard == guard:  # r <= y in every field
                    total += wx * alpha.get(y - r, 0)
        return total

    # diffs[t][i][j]: weight of runs of key i starting at slot j minus those ending before j.
    diffs = [[[0] * (n + 1) for _ in range(K)] for n in sizes]
    known: dict[int, int] = {}
    total = 0
    for rows, w in sigs:
        r = sum(rows)
        e = known.get(r)
        if e is None:
            e = known[r] = completions(r)
        if not e:
            continue
        weight = w * e
        total += weight
        for t, row in enumerate(rows):
            diff, j = diffs[t], 0
            while row:
                i = key_of_bit[(row & -row).bit_length() - 1]
                c = (row >> shifts[i]) & masks[i]
                row -= c << shifts[i]
                diff[i][j] += weight
                diff[i][j + c] -= weight
                j += c
    slots: list[list[dict[int, int]]] = []
    for t, n in enumerate(sizes):
        stand: list[dict[int, int]] = [{} for _ in range(n)]
        for i in range(K):
            acc = 0
            for j in range(n):
                acc += diffs[t][i][j]
                if acc:
                    stand[j][i] = acc
        slots.append(stand)
    return total, slots


# ---------------------------------------------------------------- the engine


DEFAULT_BUDGET = Budget()
DEFAULT_EXECUTOR: Executor = SerialExecutor()
CACHE = SignatureCache()


def configure(*, budget: Budget | None = None, executor: Executor | None = None) -> None:
    """Set the budget and executor used when ``analyze`` is called without them (e.g. by the CLI)."""
    global DEFAULT_BUDGET, DEFAULT_EXECUTOR
    if budget is not None:
        DEFAULT_BUDGET = budget
    if executor is not None:
        DEFAULT_EXECUTOR = executor


def _blocks(problem: Problem) -> list[list[int]]:
    """Stands linked by count facts, as sorted lists, in order of their first stand."""
    parent = list(range(len(problem.stands)))

    def root(s: int) -> int:
        while parent[s] != s:
            parent[s] = parent[parent[s]]
            s = parent[s]
        return s

    for fact in problem.counts:
        stands = sorted({s for s, _ in fact.slots})
        for s in stands[1:]:
            parent[root(s)] = root(stands[0])
    groups: dict[int, list[int]] = {}
    for s in range(len(problem.stands)):
        groups.setdefault(root(s), []).append(s)
    return list(groups.values())


def _spec(problem: Problem, block: list[int], copies: tuple[tuple[Key, int], ...]) -> BlockSpec:
    local = {s: t for t, s in enumerate(block)}
    every = frozenset(problem.copies)
    domains = tuple(tuple(None if (s, j) not in problem.domains or problem.domains[(s, j)] >= every
                          else tuple(sorted(problem.domains[(s, j)] & every))
                          for j in range(problem.stands[s].size)) for s in block)
    counts = sorted((tuple(sorted((local[s], j) for s, j in f.slots)), tuple(sorted(f.keys & every)), f.lo, f.hi)
                    for f in problem.counts if f.slots and next(iter(f.slots))[0] in local)
    return BlockSpec(copies, tuple(problem.stands[s].size for s in block), domains, tuple(counts))


def _describe(problem: Problem, block: list[int]) -> str:
    names = ["the set-aside pool" if problem.stands[s].player is None
             else f"player {problem.stands[s].player}'s stand {problem.stands[s].index}" for s in block]
    return " + ".join(names)


def _too_large(what: str) -> EngineLimit:
    return EngineLimit(f"too large for the signatures engine ({what}); use --engine columns")


def _signatures(problem: Problem, blocks: list[list[int]], specs: list[BlockSpec], budget: Budget,
                executor: Executor, cache: SignatureCache) -> list[list[Signature]]:
    known: dict[BlockSpec, list[Signature]] = {}
    missing: dict[BlockSpec, int] = {}  # spec -> first block that has it (interchangeable stands share one)
    for b, spec in enumerate(specs):
        if spec in known or spec in missing:
            continue
        sigs = cache.get(spec)
        if sigs is None:
            missing[spec] = b
        else:
            known[spec] = sigs
    for spec, b in missing.items():  # refuse before generating anything when a count is known to be too large
        count = signature_count(spec)
        if count is not None and count > budget.max_signatures:
            raise _too_large(f"{count} signatures on {_describe(problem, blocks[b])}")
    computed = executor.map(_phase1, [(spec, budget.max_signatures) for spec in missing])
    for (spec, b), sigs in zip(missing.items(), computed):
        if isinstance(sigs, str):
            raise _too_large(f"{sigs} on {_describe(problem, blocks[b])}")
        cache.put(spec, sigs)
        known[spec] = sigs
    return [known[spec] for spec in specs]


def phase1_tasks(problem: Problem, budget: Budget | None = None, cache: SignatureCache | None = None) -> list[str]:
    """JSON tasks (for :func:`~bombbuster_core.executor.run_json_task`) of the blocks not yet cached."""
    cache = cache or CACHE
    budget = budget or DEFAULT_BUDGET
    copies = tuple(sorted(problem.copies.items()))
    specs = [_spec(problem, block, copies) for block in _blocks(problem)]
    return [json.dumps({"task": "signatures.block", "params": {"spec": spec.to_json(),
                                                                "max_signatures": budget.max_signatures}})
            for spec in dict.fromkeys(specs) if spec not in cache]


def accept_phase1(task: str, answer: str, cache: SignatureCache | None = None) -> None:
    """Store a worker's answer to a :func:`phase1_tasks` task in the cache (over-budget answers are dropped)."""
    sigs = json.loads(answer).get("result")
    if sigs is not None:
        spec = BlockSpec.from_json(json.loads(task)["params"]["spec"])
        (cache or CACHE).put(spec, [(tuple(rows), w) for rows, w in sigs])


def analyze(problem: Problem, *, budget: Budget | None = None, executor: Executor | None = None,
            cache: SignatureCache | None = None) -> Beliefs:
    """Exact worlds and slot marginals; :class:`Inconsistent` when no deal fits, :class:`EngineLimit` past the budget."""
    budget = budget or DEFAULT_BUDGET
    executor = executor or DEFAULT_EXECUTOR
    cache = CACHE if cache is None else cache
    copies = tuple(sorted(problem.copies.items()))
    packing = Packing(copies)
    blocks = _blocks(problem)
    specs = [_spec(problem, block, copies) for block in blocks]
    sigs = _signatures(problem, blocks, specs, budget, executor, cache)

    resources: list[Table] = []
    for block_sigs in sigs:
        table: Table = {}
        for rows, w in block_sigs:
            r = sum(rows)
            table[r] = table.get(r, 0) + w
        if not table:
            raise Inconsistent
        resources.append(table)
    # Blocks with few distinct vectors first keep the forward tables small.
    order = sorted(range(len(blocks)), key=lambda b: len(resources[b]))
    B = len(order)
    steps = 0

    def charge(n: int, after: int) -> None:
        nonlocal steps
        steps += n
        if steps > budget.max_steps:
            raise _too_large(f"more than {budget.max_steps} steps, at {_describe(problem, blocks[order[after]])}")

    # Forward over all but the last block (the largest: it is only looked up), the step before it kept
    # to sums that block completes; then backward, kept to vectors the forward tables complete.
    alpha: list[Table] = [{}] * B
    alpha[0] = {0: 1}
    for b in range(B - 1):
        charge(len(alpha[b]) * len(resources[order[b]]), b)
        alpha[b + 1] = _combine(alpha[b], resources[order[b]], packing,
                                resources[order[B - 1]] if b == B - 2 else None, budget.max_states)
        if len(alpha[b + 1]) > budget.max_states:
            raise _too_large(f"more than {budget.max_states} partial decks up to "
                             f"{_describe(problem, blocks[order[b]])}")
    beta: list[Table] = [{}] * (B + 1)
    beta[B] = {0: 1}
    for b in range(B - 1, 0, -1):
        charge(len(resources[order[b]]) * len(beta[b + 1]), b)
        beta[b] = _combine(resources[order[b]], beta[b + 1], packing, alpha[b], budget.max_states)
        if len(beta[b]) > budget.max_states:
            raise _too_large(f"more than {budget.max_states} partial decks from "
                             f"{_describe(problem, blocks[order[b]])} on")
    work = [len(resources[order[b]]) * min(len(alpha[b]), len(beta[b + 1])) for b in range(B)]
    for b in range(B):
        charge(work[b], b)

    # Phase 3 per block; with several workers, a block holding a large share of the work is split
    # into one piece per worker so that the workers stay busy.
    jobs, job_block = [], []
    for b in range(B):
        block_sigs = sigs[order[b]]
        pieces = executor.workers if work[b] * executor.workers > sum(work) and len(block_sigs) > 1 else 1
        step = -(-len(block_sigs) // pieces)
        for start in range(0, len(block_sigs), step):
            jobs.append((block_sigs[start:start + step], alpha[b], beta[b + 1], copies,
                         tuple(problem.stands[s].size for s in blocks[order[b]])))
            job_block.append(b)
    totals = [0] * B
    merged: list[list[list[dict[int, int]]]] = [[[{} for _ in range(problem.stands[s].size)] for s in blocks[order[b]]]
                                               for b in range(B)]
    for b, (piece_total, slots) in zip(job_block, executor.map(_phase3, jobs)):
        totals[b] += piece_total
        for into, stand in zip(merged[b], slots):
            for into_slot, slot in zip(into, stand):
                for i, w in slot.items():
                    into_slot[i] = into_slot.get(i, 0) + w
    total = totals[0]
    if not total:
        raise Inconsistent
    # Back from products of multinomials to prior weights (see the module docstring).
    numerator = prod(factorial(m) for _, m in copies)
    denominator = prod(factorial(st.size) for st in problem.stands)
    worlds, rest = divmod(total * numerator, denominator)
    assert not rest and all(t == total for t in totals), "signature weights do not add up"
    keys = [k for k, _ in copies]
    weights: dict[Pos, dict[Key, int]] = {}
    for b, block_slots in enumerate(merged):
        for s, stand in zip(blocks[order[b]], block_slots):
            for j, row in enumerate(stand):
                weights[(s, j)] = {keys[i]: w * numerator // denominator for i, w in sorted(row.items())}
    return Beliefs(problem, worlds, weights, {s: worlds for s in range(len(problem.stands))})

