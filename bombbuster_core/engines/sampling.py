"""Exact posterior deal sampler: backward sampling through the columns engine's DP.

``sample_problem(problem, n, rng)`` draws ``n`` deals — per problem stand
(deal segment, set-aside pools included) its sorted keys — each with
exactly its posterior probability: the shuffle prior of docs/architecture.md
"Probability model" conditioned on every fact of the problem.
``sample_table(table, n, rng)`` lays them out as the table's stands are now
(every slot at its current position after moves; the sim/ deal format).
No rejection, no Markov chain, no re-analysis per slot: one forward sweep,
then each deal is a walk backwards through its weighted graph.

The graph.  :class:`Sampler` runs the forward sweep of the columns engine
(``Plan(prep, mirrored=False)``: same preprocessing, same layers, same
tables) one copy at a time, but state by state, recording for every state
the edges that reach it: (predecessor step, predecessor code, action) with
the predecessor's forward weight times the edge's multiplicity.  An edge is
one copy landing on one stand (multiplicity 1; an interchangeable group's
run of r equal fills: r), a block of run-rule runs placed at a key's start
(multiplicity m!/((m-B)! prod k!), as ``sweep._blocks``), composed with the
deterministic maps that follow a key (run flags cleared, unfilled states
dropped, order facts, SameValueCount resolution, value checks, count facts
closed: each maps a state to one state or drops it, so the composition keeps
the edge's multiplicity).  The per-state code below mirrors the engine's
sweep operations one for one; tests/test_sampling.py checks that the states
and weights it reaches at every key boundary equal ``Plan.sweep()``'s
exactly, on every random problem of the suite.

Exactness.  The sweep is a weighted DAG whose sink weights sum to the
problem's worlds: the forward weight of a node is the sum over the paths
reaching it of the product of their multiplicities.  Drawing a sink with
probability proportional to its weight and then, from each node, a
predecessor edge with probability proportional to (predecessor weight x
multiplicity) draws each source-to-sink path with probability (product of
its multiplicities) / worlds: the telescoping product of the backward
choices.  A path's key-boundary states fix, for every stand, how many copies
of each key it holds, i.e. the deal; the paths of one deal carry together
exactly its prior weight prod m_k!/prod c_sk! (the engine's own argument:
one-at-a-time placements of a key's copies in every order, or a block's
multinomial share), and a deal that violates a fact has no path.  So each
deal is drawn with probability weight / worlds.

Interchangeable stands (a group) are stored sorted, with orbit totals.  A
copy landing on one of r group stands of equal fill reaches one sorted
state, with multiplicity r; the path drawn is a path of orbits, with its
right probability (the unsorted paths over it number exactly the product of
those multiplicities).  The deal is then un-sorted forwards in time: each
group copy goes to one of the r stands of that fill chosen uniformly
(``rng.randrange(r)``), which draws uniformly among the unsorted paths over
the orbit path — each choice leaves the same number of completions, by the
symmetry swapping two stands of equal fill.  Every unsorted path has weight
1, so this is the exact conditional law.

Fixed stands (every slot known) are copied from their domains.  The one-off
preparation is one forward sweep run state by state with its edges (3-6x
the engine's whole analysis: 0.7 s on the 5-player public start with setup
tokens, ~90 MB; bench/bench_sampling.py); each deal then costs one
dictionary lookup per copy placed and one ``randrange`` where a state has
more than one predecessor (5,000-30,000 deals/s on the 5-player benchmark
states, CPython).  All fact types the columns engine takes are supported (it
refuses none): domains, counts, orders, SameValueCount, SameValue, run
rules.  Variants (``analyze_excluding``) play no part here.
"""
from __future__ import annotations

import random
from bisect import bisect_right
from itertools import accumulate
from math import factorial

from ..beliefs import EngineLimit, Inconsistent
from ..facts import Problem
from ..wires import Key
from .columns.estimate import estimated_states
from .columns.plan import Plan
from .columns.prepare import Prepared, Zero
from .columns.sweep import Layer, Work, about

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from ..table import Table

Deal = tuple[tuple[Key, ...], ...]  # per problem stand, its sorted keys

# An edge's action: a stand id (one copy on a single stand), ("g", stands, i, j) (one
# copy on the run i..j of equal fills of a group, listed in code order), ("b", ((stand,
# k), ...)) (run-rule blocks), or None (no copy: a key boundary map only).
_Action = "int | tuple | None"


def _share(m: int, b: int, den: int) -> int:
    """Orders of a key's m copies that place blocks of b copies (run lengths' factorials
    multiplying to ``den``) as units before the other m - b: m! / ((m - b)! den)."""
    return factorial(m) // (factorial(m - b) * den)


# Work bound of the preparation, in states of the forward sweep: estimated before
# it (:func:`~.columns.estimate.estimated_states`) and counted as the graph is built (the
# estimate misses what counters add).  Every state keeps its
# predecessor edges, so memory is the limit: ~500 bytes per state
# (CPython), i.e. 2 million is ~1 GB and ~15 s.  The largest legal setup
# (M35 5p public start, a value token on every stand) estimates 381,000:
# prepared in 2.7 s, 240 MB.
BUDGET: float = 2_000_000


class Sampler:
    """One forward sweep of ``problem``, kept as a graph to walk backwards.

    ``budget``: estimated states of the sweep beyond which it raises
    :class:`EngineLimit` (None: this module's :data:`BUDGET`; ``math.inf``: no
    limit).  Raises :class:`Inconsistent` when no deal fits.
    """

    def __init__(self, problem: Problem, budget: float | None = None):
        self.problem = problem
        try:
            prep = Prepared(problem)
            plan = Plan(prep, False)
            limit = BUDGET if budget is None else budget
            n = estimated_states(plan, limit)
            if n > limit:
                raise EngineLimit(f"too large to sample: about {about(n)} states "
                                  f"(sampler budget {about(limit)})", "sample_budget", states=n, budget=limit)
            self._build(prep, plan, Work(limit, limit))
        except Zero:
            raise Inconsistent from None
        if not self.worlds:
            raise Inconsistent

    # ------------------------------------------------------------ preparation
    def _build(self, prep: Prepared, plan: Plan, work: Work) -> None:
        """The graph, its states counted against ``work`` as they are made (the estimate
        misses what some facts add)."""
        self.prep, self.plan = prep, plan
        keys = prep.keys
        self._stand_of = {1 << plan.shift[s]: s for s in prep.free}
        self._stand_at = {plan.shift[s]: s for s in prep.free}
        self._group_of = {}
        self.groups = [tuple(g) for g in prep.groups]
        for gi, g in enumerate(self.groups):
            for pos, s in enumerate(g):
                self._group_of[s] = (gi, pos)
        # steps[i]: code -> (cumulative predecessor weights, or None for one predecessor;
        # edges (pred step, pred code, multiplicity, action));
        # step 0 is the empty state.  step_key[i]: the key placed at step i.
        self.states: list[dict[int, int]] = [{0: prep.one}]
        self.steps: list[dict[int, tuple[list[int], list[tuple[int, int, Any]]]]] = [{}]
        self.step_key: list[Key | None] = [None]
        self.boundaries = [0]  # step index of each key boundary (index 0: before the first key)
        for t, layer in enumerate(plan.layers):
            key = keys[t]
            pre_step = len(self.states) - 1
            m = layer.copies
            blocks = self._block_edges(layer, pre_step) if layer.runs else {}
            if m == 0:
                edges = {code: [(pre_step, code, 1, None)] for code in self.states[pre_step]}
                self._push(layer, edges, key, final=True)
            for placed in range(m):
                left = m - placed
                prev_step = len(self.states) - 1
                edges: dict[int, list] = {}
                for code in self.states[prev_step]:
                    for nc, mult, action in self._successors(layer, code, left):
                        e = edges.get(nc)
                        if e is None:
                            edges[nc] = [(prev_step, code, mult, action)]
                        else:
                            e.append((prev_step, code, mult, action))
                for nc, e in blocks.get(placed + 1, {}).items():
                    edges.setdefault(nc, []).extend(e)
                self._push(layer, edges, key, final=placed == m - 1)
                work.add(len(edges))
            self.boundaries.append(len(self.states) - 1)
        last = self.states[-1]
        self.final_codes = list(last)
        self.final_cum = list(accumulate(last.values()))
        self.worlds = (self.final_cum[-1] if self.final_cum else 0) * prep.multiplier
        self.fixed = {s: tuple(keys[next(iter(d))] for d in prep.domains[s]) for s in prep.fixed}
        self.n_stands = len(self.problem.stands)

    def _push(self, layer: Layer, edges: dict[int, list], key: Key, final: bool) -> None:
        """Record one step: the states ``edges`` reach (after the key's boundary maps when
        ``final``), their weights and their predecessor tables."""
        if final:
            mapped: dict[int, list] = {}
            identity = True
            for code, e in edges.items():
                fc = self._post(layer, code)
                if fc is None:
                    identity = False
                    continue
                if fc != code:
                    identity = False
                if fc in mapped:
                    mapped[fc].extend(e)
                else:
                    mapped[fc] = list(e)
            if identity and not layer.copies and len(mapped) == len(edges):
                return  # a key with nothing to place and nothing to check: no step
            edges = mapped
        states = self.states
        weights: dict[int, int] = {}
        table: dict[int, tuple[list[int] | None, list]] = {}
        for code, e in edges.items():
            if len(e) == 1:  # one predecessor: nothing to draw
                ps, pc, mult, _ = e[0]
                weights[code] = states[ps][pc] * mult
                table[code] = (None, e)
                continue
            acc = 0
            cum = []
            for ps, pc, mult, _ in e:
                acc += states[ps][pc] * mult
                cum.append(acc)
            weights[code] = acc
            table[code] = (cum, e)
        states.append(weights)
        self.steps.append(table)
        self.step_key.append(key)

    def _group_action(self, code: int, s: int) -> tuple:
        """A copy on group stand s (the last of its run of equal fills): ("g", group, i, j)."""
        gi, j = self._group_of[s]
        g = self.groups[gi]
        shift, size = self.plan.shift, self.plan.size
        mask = (1 << size[s].bit_length()) - 1
        f = (code >> shift[s]) & mask
        i = j
        while i > 0 and (code >> shift[g[i - 1]]) & mask == f:
            i -= 1
        return ("g", gi, i, j)

    def _action(self, code: int, d: int) -> Any:
        s = self._stand_of[d]
        return self._group_action(code, s) if s in self._group_of else s

    def _successors(self, layer: Layer, code: int, left: int) -> list[tuple[int, int, Any]]:
        """One copy from state ``code`` with ``left`` copies to place: (new code,
        multiplicity, action) — ``sweep._place`` / ``_place_general`` / ``_place_counting``
        for one state."""
        out: list[tuple[int, int, Any]] = []
        spare = left
        for sh, mask, short in layer.needs:
            spare -= short[(code >> sh) & mask]
        counting = layer.counting or ()
        for st in counting:
            spare -= max(st.need - ((code >> st.shift) & st.mask), 0)
        if spare < 0:
            return out
        pick = 2 if spare else 3  # every move, or only those filling a must-fill slot
        for mover in layer.movers:
            for d in mover[pick][(code >> mover[0]) & mover[1]]:
                out.append((code + d, 1, self._action(code, d)))
        for mover in layer.weighted:
            for d, times in mover[pick][(code >> mover[0]) & mover[1]]:
                out.append((code + d, times, self._action(code, d)))
        if layer.masked:  # pragma: no cover - only variants mask moves
            raise AssertionError("masked moves without variants")
        for st in counting:
            f = (code >> st.shift) & st.mask
            d = st.put[f]
            if not d or (spare == 0 and f >= st.need) or (st.flag and (code >> st.flag) & 1):
                continue
            nc = code + d
            for tr in st.counts[f]:
                if (nc >> tr.shift) & tr.mask < tr.cap:
                    nc += 1 << tr.shift
                elif tr.bounded:
                    break
            else:
                out.append((nc, 1, self._action(code, d)))
        return out

    def _block_edges(self, layer: Layer, pre_step: int) -> dict[int, dict[int, list]]:
        """``sweep._blocks`` state by state: copies placed -> new code -> edges from the key's start."""
        m = layer.copies
        out: dict[int, dict[int, list]] = {}
        needs, counting = layer.needs, layer.counting or ()
        for code in self.states[pre_step]:
            opts: list[tuple[int, int, int, tuple]] = [(code, 0, 1, ())]
            for sh, mask, table in layer.runs:
                runs = table[(code >> sh) & mask]
                if runs is not None:
                    s = self._stand_at[sh]
                    opts += [(c + d, b + k, den * fk, act + ((s, k),))
                             for k, d, keep, fk in runs for c, b, den, act in opts if b + k <= m]
            for c, b, den, act in opts[1:]:
                spare = m - b
                for sh, mask, short in needs:
                    spare -= short[(c >> sh) & mask]
                for st in counting:
                    spare -= max(st.need - ((c >> st.shift) & st.mask), 0)
                if spare < 0:
                    continue
                f = _share(m, b, den)
                out.setdefault(b, {}).setdefault(c, []).append((pre_step, code, f, ("b", act)))
        return out

    @staticmethod
    def _post(layer: Layer, code: int) -> int | None:
        """The maps after a key's last copy (as in ``sweep.step``), for one state: its
        code afterwards, or None when a fact drops it."""
        if layer.runs:
            code &= layer.unflag
        if not layer.copies and (layer.needs or layer.counting):
            if any(short[(code >> sh) & mask] for sh, mask, short in layer.needs):
                return None
            if layer.counting is not None and \
                    not all((code >> st.shift) & st.mask >= st.need for st in layer.counting):
                return None
        for xs, xm, xj, ys, ym, yj in layer.orders:
            if (code >> xs) & xm > xj and (code >> ys) & ym <= yj:
                return None
        for ss, sm, j, fsh, csh, cm, cap, clear in layer.resolves:
            if (code >> fsh) & 1:
                if (code >> csh) & cm == cap:
                    return None
            elif (code >> ss) & sm > j:
                code &= clear
        if layer.checks:
            for ch in layer.checks:
                if (code >> ch.shift) & ch.mask not in ch.packed:
                    return None
            code &= ~sum(ch.mask << ch.shift for ch in layer.checks)
        for tr in layer.closes:
            if (code >> tr.shift) & tr.mask < tr.lo:
                return None
            code &= ~(tr.mask << tr.shift)
        return code

    # ------------------------------------------------------------ drawing
    def boundary_states(self) -> list[dict[int, int]]:
        """The forward states at every key boundary (as ``Plan.sweep()`` returns them)."""
        return [self.states[i] for i in self.boundaries]

    def draw(self, rng: random.Random) -> Deal:
        """One deal, exactly from the posterior: per problem stand its sorted keys."""
        steps, step_key = self.steps, self.step_key
        cum = self.final_cum
        code = self.final_codes[bisect_right(cum, rng.randrange(cum[-1])) if len(cum) > 1 else 0]
        step = len(steps) - 1
        path = []
        while step:
            cum, edges = steps[step][code]
            ps, code, _, action = edges[bisect_right(cum, rng.randrange(cum[-1]))] if cum else edges[0]
            if action is not None:
                path.append((step_key[step], action))
            step = ps
        return self._lay_out(path, rng)

    def _lay_out(self, path: list, rng: random.Random) -> Deal:
        """Replay the drawn path forwards (un-sorting groups, see the module docstring)."""
        rows: dict[int, list[Key]] = {s: [] for s in self.prep.free}
        # Per group, the stand now at each position of the sorted code (see the module docstring).
        perms = [list(g) for g in self.groups]
        for key, action in reversed(path):
            if type(action) is int:
                rows[action].append(key)
            elif action[0] == "g":
                _, gi, i, j = action
                perm = perms[gi]
                if j > i:
                    k = i + rng.randrange(j - i + 1)
                    perm[k], perm[j] = perm[j], perm[k]
                rows[perm[j]].append(key)
            else:
                for s, k in action[1]:
                    rows[s].extend([key] * k)
        fixed = self.fixed
        return tuple(fixed[s] if s in fixed else tuple(rows[s]) for s in range(self.n_stands))

    def sample(self, n: int, rng: random.Random) -> list[Deal]:
        return [self.draw(rng) for _ in range(n)]

    # ------------------------------------------------------------ for tests
    def distribution(self) -> dict[Deal, Any]:
        """The exact law of :meth:`draw` (Fractions), by walking every backward path and
        every un-sorting choice with its probability.  Exponential: tiny problems only."""
        from fractions import Fraction

        out: dict[Deal, Fraction] = {}
        total = self.final_cum[-1]
        prev = 0
        for code, c in zip(self.final_codes, self.final_cum):
            self._paths(len(self.steps) - 1, code, Fraction(c - prev, total), [], out)
            prev = c
        return out

    def _paths(self, step: int, code: int, p: Any, path: list, out: dict) -> None:
        from fractions import Fraction

        if not step:
            self._layouts(list(reversed(path)), 0, {s: () for s in self.prep.free}, [list(g) for g in self.groups],
                          p, out)
            return
        cum, edges = self.steps[step][code]
        prev = 0
        for c, (ps, pc, _, action) in zip(cum or [1], edges):
            more = path + [(self.step_key[step], action)] if action is not None else path
            self._paths(ps, pc, p * Fraction(c - prev, cum[-1]) if cum else p, more, out)
            prev = c

    def _layouts(self, path: list, i: int, rows: dict, perms: list, p: Any, out: dict) -> None:
        while i < len(path):
            key, action = path[i]
            i += 1
            if type(action) is int:
                rows = {**rows, action: rows[action] + (key,)}
            elif action[0] == "g":
                _, gi, a, j = action
                for k in range(a, j + 1):
                    ps = [list(q) for q in perms]
                    perm = ps[gi]
                    perm[k], perm[j] = perm[j], perm[k]
                    self._layouts(path, i, {**rows, perm[j]: rows[perm[j]] + (key,)}, ps, p / (j - a + 1), out)
                return
            else:
                rows = dict(rows)
                for s, k in action[1]:
                    rows[s] = rows[s] + (key,) * k
        deal = tuple(self.fixed[s] if s in self.fixed else rows[s] for s in range(self.n_stands))
        out[deal] = out.get(deal, 0) + p


def sample_problem(problem: Problem, n: int, rng: random.Random, budget: float | None = None) -> list[Deal]:
    """``n`` independent exact posterior deals of ``problem``: per problem stand (deal
    segment, set-aside pools included) its sorted keys.  Raises Inconsistent if no deal
    fits, EngineLimit past ``budget``."""
    return Sampler(problem, budget).sample(n, rng)


class TableSampler:
    """A table's deals in the issue-11 format, after one preparation (:class:`Sampler`)."""

    def __init__(self, table: Table, budget: float | None = None):
        from ..facts import compile_table

        self.table = table
        self.problem = compile_table(table)
        self.sampler = Sampler(self.problem, budget)
        board = table.board()
        self.rows = [row for rows in board.stands for row in rows]
        self.nano = list(board.nano) if table.nano else None
        self.set_aside = list(range(len(board.segments), len(self.problem.stands)))

    def convert(self, deal: Deal) -> dict[str, Any]:
        from ..wires import key_json

        out: dict[str, Any] = {
            "stands": [[key_json(deal[seg][j]) for seg, j in row] for row in self.rows],
            "set_aside": [key_json(k) for k in sorted(k for sid in self.set_aside for k in deal[sid])]}
        if self.nano is not None:
            out["nano"] = [key_json(deal[seg][j]) for seg, j in self.nano]
        return out

    def deals(self, n: int, rng: random.Random) -> Iterator[dict[str, Any]]:
        """The ``n`` deals one at a time, each drawn as it is asked for: memory does not grow with n."""
        for _ in range(n):
            yield self.convert(self.sampler.draw(rng))

    def sample(self, n: int, rng: random.Random) -> list[dict[str, Any]]:
        return list(self.deals(n, rng))


def sample_table(table: Table, n: int, rng: random.Random, budget: float | None = None) -> list[dict[str, Any]]:
    """``n`` exact posterior deals of a table: ``{"stands": [[key, ...] per physical stand,
    every slot at its current position], "set_aside": [keys, ascending]}`` plus ``"nano":
    [keys in draw order]`` for M43's remaining wires (issue 11's deal shape)."""
    return TableSampler(table, budget).sample(n, rng)
