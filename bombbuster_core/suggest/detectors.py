"""Detectors: the best uses of the Double, Triple and Super Detectors, with exact odds.

A detector names one blue value and two, three or all uncut slots of one
teammate stand; it succeeds if some slot holds the value, and explodes only
if every slot is red (rules §5).  :meth:`Detectors.search` is a branch and
bound over candidate slot sets: bounds from the marginals under "the player
holds v", exact odds (joint events) only for the candidates that reach the
top of the heap.  With the columns engine a candidate's exact odds come from
one pass over key v of the run that conditioned on "holds v"
(:meth:`Detectors.run_joint`); with other engines from one conditioned
analysis per pair of neighbouring slots.  Each kind's search spends at most
``Policy.equipment_budget`` engine runs; a search cut short is noted in the
position's ``incomplete`` list.
"""
from __future__ import annotations

import heapq
from bisect import bisect_left
from fractions import Fraction
from itertools import accumulate, combinations, count
from typing import Any

from ..table import SlotRef
from ..wires import Key, Value
from .analyses import Condition, probability
from .conditioning import Holding
from .position import Position
from .ranking import Suggestion, exact_key

DETECTOR_SIZE = {"double_detector": 2, "triple_detector": 3, "super_detector": 0}  # 0 = the whole stand
Family = tuple[int, int, int]  # (teammate, stand, value): the candidates of one detector call


class Detectors:
    """The detector searches of one position (blue values only; one teammate stand per use)."""

    def __init__(self, position: Position, holding: Holding):
        self.position, self.holding = position, holding
        self.analyses, self.board, self.deck = position.analyses, position.board, position.deck
        self.policy, self.rng = position.policy, position.rng
        self.runs_before_kind = 0
        self._slot_probabilities: dict[Family, list[Fraction] | None] = {}
        self._key_weights: dict[Family, tuple[int, list[int], list[int], list[int]] | None] = {}
        self._cumulative: dict[tuple[Condition, int], list[tuple[list[Key], list[int]]]] = {}

    def search(self, kind: str, values: list[Value]) -> list[Suggestion]:
        """The best ``per_kind`` uses of a detector, at most one per (stand, value), by branch and bound.

        Every candidate set W enters the heap with an upper bound on P(success)
        from marginals alone (exact when no two slots of W can both hold v); a
        popped bound is replaced by the exact value, which needs joint analyses,
        so an exact candidate on top of the heap beats every bound below it.
        """
        size = DETECTOR_SIZE[kind]
        cap = Fraction(self.policy.red_cap)
        self.runs_before_kind = self.analyses.runs
        heap: list[tuple[tuple[float, Fraction], float, int, Any]] = []
        order = count()  # keeps heap entries comparable without comparing their payloads

        def push(value: Fraction, exact: bool, family: Family, w: tuple[int, ...]) -> None:
            heapq.heappush(heap, (exact_key(-value), self.rng.random(), next(order), (exact, family, w)))

        for q, s in self.position.teammate_stands():
            run = self.position.sorted_run(q, s)
            if run is None:
                # Wires moved in or out: the v-wires need not be contiguous, which the bounds and
                # joints below rely on.  Say so rather than rank on a wrong model.
                # Addressed as every engine message is (0-based): the page names the stand its own way.
                self.position.incomplete.add("moved_wires", f"{kind}: not searched on player {q} stand {s} (moved wires)",
                                             kind=kind, player=q, stand=s)
                continue
            sid = run[0]
            uncut = [j for j in range(self.board.segments[sid].size) if (sid, j) not in self.board.cut]
            for v in values:
                if not isinstance(v, int):
                    continue  # detectors call blue values only
                family = (q, s, v)
                weights = self.key_weights(family)
                if weights is None or len(uncut) < max(size, 1):
                    continue
                # The bounds in integer deal weights over the stand's one denominator: the same
                # order as the probabilities, without a Fraction per candidate.
                den, hits, at_most, below = weights
                for w in [tuple(uncut)] if size == 0 else combinations(uncut, size):
                    chances = [hits[j] for j in w]
                    top = max(chances)
                    # A wire that cannot be v adds nothing (a smaller detector does as well), and a
                    # wire that surely is v makes a plain dual cut certain.
                    if top == den or (size and min(chances) == 0) or sum(p > 0 for p in chances) < 2:
                        continue
                    # Exactly, P(success) = sum of P(w = v) - sum over neighbours a < b in W of P(a = v = b)
                    # (see success), and P(a = v = b) = P(key a >= v, key b <= v) is at least
                    # P(key b <= v) - P(key a < v).  Also some w is v only if first key <= v <= last key,
                    # which has probability P(first <= v) - P(last < v).
                    # Finally, success = sum over i of P(w_i = v, key of w_i-1 < v) (w_i starts the hit),
                    # and each term is at most min(P(w_i = v), P(key of w_i-1 < v)).
                    joints = sum(max(0, at_most[b] - below[a]) for a, b in zip(w, w[1:]))
                    starts = hits[w[0]] + sum(min(hits[b], below[a]) for a, b in zip(w, w[1:]))
                    bound = min(sum(chances) - joints, at_most[w[0]] - below[w[-1]], starts)
                    if bound <= top:
                        continue  # cannot beat a plain dual cut on its likeliest wire
                    push(Fraction(bound, den), self.exclusive(family, w, hits), family, w)
        accepted: list[Suggestion] = []
        over_cap: list[Suggestion] = []
        done: set[Family] = set()
        while heap and len(accepted) < self.policy.per_kind:
            if self.over_budget():
                self.position.incomplete.add("search_budget", kind, kind=kind)
                break
            _, _, _, (exact, family, w) = heapq.heappop(heap)
            if family in done:
                continue
            if not exact:
                push(self.success(family, w), True, family, w)
                continue
            sug = self.use(kind, family, w)
            if sug.p_success <= max(self.p_slot(family, j) for j in w):
                continue  # no better than a plain dual cut on its likeliest wire
            if sug.p_red <= cap:
                accepted.append(sug)
                done.add(family)  # one suggestion per (stand, value): its best set within the cap
            elif len(over_cap) < self.policy.per_kind:
                over_cap.append(sug)
        return accepted + over_cap[: self.policy.per_kind - len(accepted)]

    def over_budget(self) -> bool:
        budget = self.policy.equipment_budget
        return budget is not None and self.analyses.runs - self.runs_before_kind >= budget

    def slot_probabilities(self, family: Family) -> list[Fraction] | None:
        """P(slot = v) for every slot of the family's stand, given that the player holds v (kept:
        the exact odds and the comparison with a plain dual cut read them)."""
        if family not in self._slot_probabilities:
            weights = self.key_weights(family)
            self._slot_probabilities[family] = None if weights is None else [
                Fraction(hit, weights[0]) for hit in weights[1]]
        return self._slot_probabilities[family]

    def p_slot(self, family: Family, slot: int) -> Fraction:
        pv = self.slot_probabilities(family)
        return pv[slot] if pv is not None else Fraction(0)

    def key_weights(self, family: Family) -> tuple[int, list[int], list[int], list[int]] | None:
        """Per slot of the stand, given that the player holds v: the weight of the deals in which it
        holds v, a key <= v and a key < v, over the one denominator of the stand (returned first);
        None when the player cannot hold v.  Kept: the bounds and slot_probabilities read them."""
        if family not in self._key_weights:
            q, s, v = family
            condition = self.holding((v,))
            b = self.analyses.beliefs(condition)
            if b is None:
                self._key_weights[family] = None
            else:
                sid, key = self.position.run_of(q, s), 10 * v  # blue v's one key
                hits, at_most, below = [], [], []
                for keys, cumulative in self.cumulative(condition, sid):
                    i = bisect_left(keys, key)
                    at = cumulative[i + 1] - cumulative[i] if i < len(keys) and keys[i] == key else 0
                    hits.append(at)
                    at_most.append(cumulative[i] + at)
                    below.append(cumulative[i])
                self._key_weights[family] = (b.denominators[sid], hits, at_most, below)
        return self._key_weights[family]

    def cumulative(self, condition: Condition, sid: int) -> list[tuple[list[Key], list[int]]]:
        """Per slot of the segment under ``condition``: its possible keys in order and the running
        sums of their deal weights (from 0): every value's weights below and at its key by bisection."""
        if (condition, sid) not in self._cumulative:
            b = self.analyses.beliefs(condition)
            assert b is not None
            rows = []
            for j in range(self.board.segments[sid].size):
                row = b.weights[(sid, j)]
                keys = sorted(row)
                rows.append((keys, [0, *accumulate(row[k] for k in keys)]))
            self._cumulative[(condition, sid)] = rows
        return self._cumulative[(condition, sid)]

    def exclusive(self, family: Family, w: tuple[int, ...], pv: list[Fraction] | list[int]) -> bool:
        """No two slots of ``w`` can both be v (the v-wires of a sorted stand are contiguous).
        ``pv``: each slot's P(slot = v), or its deal weight: only which are 0 matters."""
        return all(self.pair_exclusive(family, a, b, pv) for a, b in combinations(sorted(w), 2))

    def pair_exclusive(self, family: Family, a: int, b: int, pv: list[Fraction] | list[int]) -> bool:
        return b - a + 1 > self.deck.copies[10 * family[2]] or any(pv[j] == 0 for j in range(a, b + 1))

    def run_joint(self, family: Family) -> tuple[dict[tuple[int, int], Fraction], int] | None:
        """Given that the player holds v: the weight of the deals in which the stand's
        v-wires are exactly its slots f0 .. f1 - 1, by (f0, f1), and the total weight.

        "Holds v" and "slots a, b are v" both depend only on the fills before and
        after key v, so the columns run that gave the beliefs under "holds v"
        answers every set of slots of the stand from one pass over that key.
        None with other engines: the joints then take one conditioned analysis each.
        """
        q, s, v = family
        return self.analyses.run_joint(self.holding((v,)), self.position.run_of(q, s), 10 * v)

    def both(self, family: Family, a: int, b: int) -> Fraction:
        """P(slots a < b of the stand both hold v) = P(a holds v) * P(b holds v | a holds v)."""
        pv = self.slot_probabilities(family)
        assert pv is not None
        if self.pair_exclusive(family, a, b, pv):
            return Fraction(0)
        q, s, v = family
        sid, keys = self.position.run_of(q, s), self.deck.keys_of_value(v)
        given = self.analyses.beliefs(self.holding((v,)) | {((sid, a), keys)})
        return pv[a] * probability(given, (sid, b), keys) if given is not None else Fraction(0)

    def success(self, family: Family, w: tuple[int, ...]) -> Fraction:
        """P(some slot of ``w`` holds v), exactly.

        The v-wires of a sorted stand form one run I.  With the columns engine,
        :meth:`run_joint` gives the law of I's ends: sum it over the runs that
        meet W.  Otherwise, for sorted w_1 < ... < w_m,
        ``|W & I| - #{i : w_i, w_i+1 both in I} = [W meets I]``; taking
        expectations needs only single marginals and the joints of neighbouring
        slots of W, one conditioned analysis each (this path stays for the
        engines that keep no sweeps).
        """
        joint = self.run_joint(family)
        if joint is not None:  # the v-wires are slots f0 .. f1 - 1: success if one of w is among them
            cells, total = joint
            return Fraction(sum((x for (f0, f1), x in cells.items() if any(f0 <= j < f1 for j in w)), Fraction(0)), total)
        pv = self.slot_probabilities(family)
        assert pv is not None
        q, s, v = family
        if len(w) > 3:  # a whole stand: one analysis "no slot of w holds v" beats a joint per neighbour pair
            keys, sid = self.deck.keys_of_value(v), self.position.run_of(q, s)
            none_is_v = frozenset(((sid, j), self.position.all_keys - keys) for j in w)
            return 1 - self.analyses.p_condition(none_is_v, self.holding((v,)))
        ordered = sorted(w)
        return sum((pv[j] for j in ordered), Fraction(0)) - sum(
            (self.both(family, a, b) for a, b in zip(ordered, ordered[1:])), Fraction(0))

    def use(self, kind: str, family: Family, w: tuple[int, ...]) -> Suggestion:
        """The detector ``kind`` on slots ``w`` of the family's stand, with exact odds."""
        q, s, v = family
        run = self.position.sorted_run(q, s)
        assert run is not None
        targets = tuple(SlotRef(q, s, run[1] + j) for j in w)
        holding = self.holding((v,))
        p_success = self.success(family, w)
        p_red = self.all_red(targets, holding)
        outcomes = [(outcome, None, p) for outcome, p in
                    (("success", p_success), ("failure", 1 - p_success - p_red), ("red", p_red)) if p]
        return Suggestion(kind, targets, (v,), p_success, p_red, p_success == 1, outcomes,
                          p_legal=self.analyses.p_condition(holding), tiebreak=self.rng.random())

    def all_red(self, targets: tuple[SlotRef, ...], given: Condition) -> Fraction:
        """P(every target is red): a detector explodes only then (rules §5; [U] for triple and super)."""
        if not self.position.red_keys:
            return Fraction(0)
        b = self.analyses.beliefs(given)
        assert b is not None
        if any(probability(b, self.position.pos(t), self.position.red_keys) == 0 for t in targets):
            return Fraction(0)
        red = self.position.red_keys
        return self.analyses.p_condition(frozenset((self.position.pos(t), red) for t in targets), given)
