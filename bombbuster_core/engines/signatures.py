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
   dicts from packed vector to weight.  Blocks are ordered by their number
   of distinct vectors, the largest last: the forward pass only joins with
   it (earlier forward sums are kept to what the later blocks can hold, by
   per-key ranges from their slot domains), and every backward table keeps
   only vectors that a forward table completes.
3. A signature of block b with resource r survives iff ``a + r + x = deck``
   for some a in ``alpha[b]``, x in ``beta[b+1]``; its weight times the sum
   of ``alpha[a] * beta[x]`` over those pairs is its exact posterior weight,
   projected onto the slots it lays out.  The backward step of block b
   meets exactly those triples, so it yields these completion weights too
   (rather than iterating the smaller of the two tables once more per r).

Phase 2 is a chain of three-table joins ``a + r + x = deck``.  Iterating all
pairs of two tables was the bottleneck; :func:`_join` splits both sides key
by key and drops pairs of groups whose partial sums already miss the third
table (about 40x faster on a 24-hidden-slot state: bench/bench_signatures.py,
section 3).

Weights: a deal's prior weight is ``prod_k m_k! / prod_{s,k} c_sk!`` (see
docs/architecture.md, "Probability model") = ``(prod_k m_k! / prod_s n_s!) * prod_s
multinomial_s``; the engine sums products of multinomials and applies that
constant factor once at the end (the division is exact).

Count vectors are packed into one int, a field of ``bit_length(m_k) + 1``
bits per key: adding two vectors is one addition, and "sum <= deck" is one
subtraction and mask test on the spare top bit of every field.

Signatures are cached in memory across analyses, keyed by a block's own
constraints (:class:`BlockSpec`), so an event on one stand leaves the other
stands' signatures cached.  Phases 1 and 3 run per block through an
:class:`~bombbuster_core.executor.Executor` (serial by default; phase 2 is
sequential).  A
:class:`Budget` bounds the work; beyond it the engine raises
:class:`EngineLimit` rather than approximate.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from math import factorial, prod

from ..beliefs import Beliefs, EngineLimit, Inconsistent, Unsupported
from ..executor import SerialExecutor, json_task
from ..facts import Pos, Problem
from ..record import Record
from ..wires import Key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..executor import Executor

# One block's signature: a packed count vector per stand of the block, and its weight.
Signature = tuple[tuple[int, ...], int]
Table = dict[int, int]  # packed resource vector -> total weight


class Budget(Record):
    # A step is one vector pair tested or one entry grouped in phase 2: about 0.7 us of CPU on the
    # 2-core machine, so the default step limit is about 2 s; phase 1 makes about 250k signatures/s.
    __slots__ = ("max_signatures", "max_states", "max_steps")
    max_signatures: int  # signatures of one block (phase 1)
    max_states: int  # entries of one forward or backward table (phase 2)
    max_steps: int  # steps of phase 2

    def __init__(self, max_signatures: int = 100_000, max_states: int = 200_000, max_steps: int = 3_000_000):
        super().__init__(max_signatures, max_states, max_steps)


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


class BlockSpec(Record):
    """Everything phase 1 needs about one block, and nothing else: the cache key.

    ``domains[t][j]`` is the sorted tuple of keys slot j of the block's stand t
    may hold (None: any key).  ``counts`` are the block's count facts with
    slots as (local stand, slot).  ``copies`` fixes the keys and the packing.
    """

    __slots__ = ("copies", "sizes", "domains", "counts")
    copies: tuple[tuple[Key, int], ...]
    sizes: tuple[int, ...]
    domains: tuple[tuple[tuple[Key, ...] | None, ...], ...]
    counts: tuple[tuple[tuple[tuple[int, int], ...], tuple[Key, ...], int, int], ...]

    def __init__(self, copies: tuple[tuple[Key, int], ...], sizes: tuple[int, ...],
                 domains: tuple[tuple[tuple[Key, ...] | None, ...], ...],
                 counts: tuple[tuple[tuple[tuple[int, int], ...], tuple[Key, ...], int, int], ...]):
        super().__init__(copies, sizes, domains, counts)

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


def _key_ranges(spec: BlockSpec) -> tuple[list[int], list[int]]:
    """Per key, bounds on how many copies the block can hold, from its slot domains alone (cheap).

    Key i can take c copies on a stand iff some slot j has keys < i able to fill slots < j,
    a run of c slots from j that may hold i, and keys > i able to fill the rest.
    """
    keys, copies = [k for k, _ in spec.copies], [m for _, m in spec.copies]
    K = len(keys)
    lo, hi = [0] * K, [0] * K
    for domains in spec.domains:
        n = len(domains)
        run, ways = _runs_and_ways(domains, keys, copies)
        before = [[j == 0 for j in range(n + 1)] for _ in range(K + 1)]  # keys < i can fill slots < j
        for i in range(K):
            for j in range(n + 1):
                before[i + 1][j] = any(before[i][j - c] and run[j - c][i] >= c
                                       for c in range(min(copies[i], j) + 1))
        for i in range(K):
            counts = [c for c in range(min(copies[i], n) + 1)
                      if any(before[i][j] and run[j][i] >= c and ways[i + 1][j + c] for j in range(n + 1 - c))]
            lo[i] += min(counts, default=0)
            hi[i] += max(counts, default=0)
    return [min(x, m) for x, m in zip(lo, copies)], [min(x, m) for x, m in zip(hi, copies)]


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
    shared = T > 1  # only then can copies run out (one stand's options respect the copies already)

    def fill(t: int, i: int, j: int) -> None:
        if j == sizes[t]:
            if t + 1 < T:
                fill(t + 1, 0, 0)
            elif all(lo[f] <= counts[f] <= hi[f] for f in range(len(facts))):
                out.append((tuple(rows), full[0] // dens[0] if not shared else
                            prod(full[u] // dens[u] for u in range(T))))
                if len(out) > max_signatures:
                    raise _BlockTooLarge(f"more than {max_signatures} signatures")
            return
        opts = options[t][j]
        for o in range(first[t][j][i], len(opts)):
            ki, c, nj, code, c_fact, incs, needs = opts[o]
            if shared and used[ki] + c > copies[ki]:
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
    """LRU cache of phase-1 results by :class:`BlockSpec`, bounded in total signatures held.

    A cached signature costs about 180 bytes (measured); the default bound
    keeps the cache under about 90 MB, which a browser tab can afford.
    """

    def __init__(self, max_signatures: int = 500_000):
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


class _OverBudget(Exception):
    """More vector pairs examined than the step budget allows."""


class _Steps:
    """Vector pairs (and group pairs) examined so far, against the step budget."""

    def __init__(self, limit: int):
        self.left = limit

    def charge(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            raise _OverBudget


SMALL_JOIN = 16  # up to this many pairs, testing each pair beats splitting further (measured)


def _split_order(left: Table, right: Table, packing: Packing) -> list[tuple[int, int]]:
    """(shift, mask) of the keys to split a join on, least varied first (judged on samples).

    Splitting first on keys with few values keeps the groups few while the
    test on them still drops pairs (measured: a little faster than key order,
    much faster than most varied first).  Keys with one value in both samples
    are left out: they split nothing, and each pair's full sum is tested at
    the end anyway.
    """
    samples = [list(table)[::max(1, len(table) // 64)] for table in (left, right)]  # spread: tables are ordered
    varied = []
    for shift, mask in zip(packing.shifts, packing.masks):
        spread = [len({(code >> shift) & mask for code in sample}) for sample in samples]
        if max(spread) > 1:
            varied.append((spread[0] * spread[1], shift, mask))
    return [(shift, mask) for _, shift, mask in sorted(varied)]


def _join(left: Table, right: Table, packing: Packing, steps: _Steps, *, keep: Table | None = None,
          room: tuple[int, int] = (0, 0), limit: int | None = None) -> tuple[Table, Table]:
    """Sums ``s = a + r`` (a in left, r in right) with summed weights ``left[a] * right[r]``: either

    * with ``keep``, those with ``deck - s`` in keep (the solutions of ``a + r + x = deck``), and
      also, per entry a of left, the sum of ``right[r] * keep[x]`` (the weight of completing a); or
    * without, those with ``low <= s <= high`` in every field, ``room = (low, high)``, high <= deck.

    Testing all pairs costs ``|left| * |right|`` although few survive.  Both
    sides are instead split key by key (a trie walked in step): a pair of
    groups whose sum on the keys so far already fails is dropped whole.
    Fields never carry, so masked sums are sums of masked vectors.  Stops
    early once the sums outgrow ``limit`` (if given).
    """
    deck, deck_guarded, guard = packing.deck, packing.deck_guarded, packing.guard
    low, high = room
    high_guarded = high | guard
    out: Table = {}
    completing: Table = {}
    pending = [(list(left.items()), list(right.items()))]
    one_side = min(len(left), len(right)) <= 1  # a linear scan then: nothing to gain by splitting
    targets = [] if one_side or keep is None else [deck - x for x in keep]
    wanted: set[int] = set()
    fields = _split_order(left, right, packing)
    prefix = 0
    for level in range(len(fields) + 1):
        split = []
        for la, lr in pending:
            if len(la) * len(lr) > SMALL_JOIN and level < len(fields) and not one_side:
                split.append((la, lr))
                continue
            steps.charge(len(la) * len(lr))
            for a, wa in la:
                completions = 0
                for r, wr in lr:
                    s = a + r
                    # s <= deck first: then no field of s reaches its guard bit, and no test below borrows.
                    if (deck_guarded - s) & guard != guard:
                        continue
                    if keep is None:
                        if (high_guarded - s) & guard == guard and ((s | guard) - low) & guard == guard:
                            out[s] = out.get(s, 0) + wa * wr
                        continue
                    wx = keep.get(deck - s)
                    if wx:
                        out[s] = out.get(s, 0) + wa * wr
                        completions += wr * wx
                if completions:
                    completing[a] = completing.get(a, 0) + completions
            if limit is not None and len(out) > limit:
                return out, completing
        if not split:
            break
        shift, mask = fields[level]
        prefix |= mask << shift
        if keep is not None:
            steps.charge(len(targets))
            wanted = {t & prefix for t in targets}
        field_low, field_high = (low >> shift) & mask, (high >> shift) & mask
        groups: dict[int, dict[int, list[tuple[int, int]]]] = {}  # id(list) -> its entries by prefix

        def by_prefix(entries: list[tuple[int, int]]) -> dict[int, list[tuple[int, int]]]:
            found = groups.get(id(entries))
            if found is None:
                steps.charge(len(entries))
                found = groups[id(entries)] = {}
                for entry in entries:
                    found.setdefault(entry[0] & prefix, []).append(entry)
            return found

        pending = []
        for la, lr in split:
            ga, gr = by_prefix(la), by_prefix(lr)
            steps.charge(len(ga) * len(gr))
            for pa, sa in ga.items():
                for pr, sr in gr.items():
                    # The keys split on before were tested at earlier levels.
                    if (pa + pr in wanted if keep is not None
                            else field_low <= ((pa + pr) >> shift) & mask <= field_high):
                        pending.append((sa, sr))
    return out, completing


def _phase3(job: tuple[list[Signature], Table, tuple[tuple[Key, int], ...], tuple[int, ...]]
            ) -> tuple[int, list[list[dict[int, int]]]]:
    """Executor task: (total weight, per stand per slot {key index: weight}) of one block's survivors,
    given the weight of completing each of its resource vectors."""
    sigs, completions, copies, sizes = job
    packing = Packing(copies)
    shifts, masks, key_of_bit = packing.shifts, packing.masks, packing.key_of_bit
    K = len(copies)
    # diffs[t][i][j]: weight of runs of key i starting at slot j minus those ending before j.
    diffs = [[[0] * (n + 1) for _ in range(K)] for n in sizes]
    total = 0
    for rows, w in sigs:
        weight = w * completions.get(sum(rows), 0)
        if not weight:
            continue
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


def _too_large(what: str, code: str, **fields: Any) -> EngineLimit:
    return EngineLimit(f"too large for the signatures engine ({what}); use --engine columns", code, **fields)


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
            raise _too_large(f"{count} signatures on {_describe(problem, blocks[b])}", "signatures_count",
                             signatures=count, limit=budget.max_signatures)
    computed = executor.map(_phase1, [(spec, budget.max_signatures) for spec in missing])
    for (spec, b), sigs in zip(missing.items(), computed):
        if isinstance(sigs, str):
            raise _too_large(f"{sigs} on {_describe(problem, blocks[b])}", "signatures_count", signatures=None,
                             limit=budget.max_signatures)  # past the limit: how far, the phase-1 task's text says
        cache.put(spec, sigs)
        known[spec] = sigs
    return [known[spec] for spec in specs]


def _refuse_unmodelled(problem: Problem) -> None:
    """Signatures are per-block count vectors: they cannot see order or value relations
    between slots (of one stand or of two blocks), so such a problem is refused, never guessed."""
    if problem.orders:
        raise Unsupported("the signatures engine does not model order relations (Order facts: moved wires); "
                          "use --engine columns", "signatures_orders")
    if problem.values:
        kinds = sorted({type(v).__name__ for v in problem.values})
        raise Unsupported(f"the signatures engine does not model value relations ({', '.join(kinds)} facts: "
                          "x-count tokens, equal/different labels); use --engine columns", "signatures_values",
                          kinds=kinds)


def phase1_tasks(problem: Problem, budget: Budget | None = None, cache: SignatureCache | None = None) -> list[str]:
    """JSON tasks (for :func:`~bombbuster_core.executor.run_json_task`) of the blocks not yet cached."""
    _refuse_unmodelled(problem)
    cache = CACHE if cache is None else cache
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
        (CACHE if cache is None else cache).put(spec, [(tuple(rows), w) for rows, w in sigs])


def _phase2(tables: list[Table], specs: list[BlockSpec], names: list[str], packing: Packing,
            budget: Budget) -> list[Table]:
    """Per block (in the given order, largest last): the weight of completing each resource vector.

    Forward over all but the last block (it is only joined with, at the last
    forward step; earlier sums are kept to what the blocks after them can
    hold, by key ranges from their slot domains); then backward, each table
    kept to vectors that the forward table before it completes.  A backward
    join of block b meets exactly the triples ``a + r + x = deck`` that
    complete b's vectors r, so it yields their completion weights too.
    """
    B = len(tables)
    copies = [m for _, m in specs[0].copies]
    steps = _Steps(budget.max_steps)
    alpha: list[Table] = [{}] * B
    alpha[0] = {0: 1}
    beta: Table = {0: 1}
    completions: list[Table] = [{}] * B
    # room[b]: (low, high) for the sums after block b: deck - (rest's max) <= s <= deck - (rest's min).
    rest_lo, rest_hi = [0] * len(copies), [0] * len(copies)
    room: list[tuple[int, int]] = [(0, 0)] * B
    for b in range(B - 1, 0, -1):
        block_lo, block_hi = _key_ranges(specs[b])
        rest_lo = [x + y for x, y in zip(rest_lo, block_lo)]
        rest_hi = [x + y for x, y in zip(rest_hi, block_hi)]
        room[b - 1] = (sum(max(m - h, 0) << at for m, h, at in zip(copies, rest_hi, packing.shifts)),
                       sum(max(m - lo, 0) << at for m, lo, at in zip(copies, rest_lo, packing.shifts)))
    b = 0

    def check(table: Table, where: str) -> Table:
        if len(table) > budget.max_states:
            raise _too_large(f"more than {budget.max_states} partial decks {where} {names[b]}", "signatures_decks",
                             limit=budget.max_states)
        return table

    try:
        for b in range(B - 2):
            alpha[b + 1] = check(_join(alpha[b], tables[b], packing, steps, room=room[b],
                                       limit=budget.max_states)[0], "up to")
        if B >= 2:
            b = B - 2
            alpha[b + 1] = check(_join(alpha[b], tables[b], packing, steps, keep=tables[B - 1],
                                       limit=budget.max_states)[0], "up to")
        for b in range(B - 1, 0, -1):
            beta, completions[b] = _join(tables[b], beta, packing, steps, keep=alpha[b], limit=budget.max_states)
            check(beta, "from")
    except _OverBudget:
        raise _too_large(f"more than {budget.max_steps} steps, at {names[b]}", "signatures_steps",
                         limit=budget.max_steps) from None
    completions[0] = {r: beta[packing.deck - r] for r in tables[0] if packing.deck - r in beta}
    return completions


def _phase3_all(block_sigs: list[list[Signature]], sizes: list[tuple[int, ...]], completions: list[Table],
                copies: tuple[tuple[Key, int], ...], executor: Executor
                ) -> tuple[int, list[list[list[dict[int, int]]]]]:
    """Phase 3 of every block through the executor: (total, per block, stand, slot {key index: weight}).

    With several workers, a block holding a large share of the signatures is
    split into one piece per worker so that the workers stay busy.
    """
    jobs, job_block = [], []
    every = sum(map(len, block_sigs))
    for b, sigs in enumerate(block_sigs):
        pieces = executor.workers if len(sigs) * executor.workers > every else 1
        step = -(-len(sigs) // pieces)
        for start in range(0, len(sigs), step):
            jobs.append((sigs[start:start + step], completions[b], copies, sizes[b]))
            job_block.append(b)
    totals = [0] * len(block_sigs)
    merged: list[list[list[dict[int, int]]]] = [[[{} for _ in range(n)] for n in block_sizes]
                                               for block_sizes in sizes]
    for b, (total, slots) in zip(job_block, executor.map(_phase3, jobs)):
        totals[b] += total
        for into_stand, stand in zip(merged[b], slots):
            for into, slot in zip(into_stand, stand):
                for i, w in slot.items():
                    into[i] = into.get(i, 0) + w
    assert all(t == totals[0] for t in totals), "blocks disagree on the total weight"
    return totals[0], merged


def analyze(problem: Problem, *, budget: Budget | None = None, executor: Executor | None = None,
            cache: SignatureCache | None = None) -> Beliefs:
    """Exact worlds and slot marginals.

    Raises :class:`Inconsistent` when no deal fits, :class:`EngineLimit` past the budget,
    :class:`Unsupported` (an EngineLimit) on order or value facts, which it does not model.
    """
    _refuse_unmodelled(problem)
    budget = budget or DEFAULT_BUDGET
    executor = executor or DEFAULT_EXECUTOR
    cache = CACHE if cache is None else cache
    if any(not f.slots and not f.lo <= 0 <= f.hi for f in problem.counts):
        raise Inconsistent  # a fact about no slot that needs some (blocks only see facts with slots)
    copies = tuple(sorted(problem.copies.items()))
    packing = Packing(copies)
    blocks = _blocks(problem)
    specs = [_spec(problem, block, copies) for block in blocks]
    sigs = _signatures(problem, blocks, specs, budget, executor, cache)

    resources: list[Table] = []
    for block_sigs in sigs:
        table: Table = {}
        for rows, w in block_sigs:
            table[sum(rows)] = table.get(sum(rows), 0) + w
        if not table:
            raise Inconsistent
        resources.append(table)
    # Blocks with few distinct vectors first keep the forward tables small.
    order = sorted(range(len(blocks)), key=lambda b: len(resources[b]))
    completions = _phase2([resources[b] for b in order], [specs[b] for b in order],
                          [_describe(problem, blocks[b]) for b in order], packing, budget)
    total, projected = _phase3_all([sigs[b] for b in order], [specs[b].sizes for b in order], completions,
                                   copies, executor)
    if not total:
        raise Inconsistent
    # Back from products of multinomials to prior weights (see the module docstring).
    numerator = prod(factorial(m) for _, m in copies)
    denominator = prod(factorial(st.size) for st in problem.stands)
    worlds, rest = divmod(total * numerator, denominator)
    assert not rest, "signature weights are not a whole number of deals"
    keys = [k for k, _ in copies]
    weights: dict[Pos, dict[Key, int]] = {}
    for b, block_slots in zip(order, projected):
        for s, stand in zip(blocks[b], block_slots):
            for j, row in enumerate(stand):
                weights[(s, j)] = {keys[i]: w * numerator // denominator for i, w in sorted(row.items())}
    return Beliefs(problem, worlds, weights, {s: worlds for s in range(len(problem.stands))})
