"""Cuts: single-slot calls (the dual cut, and the X-or-Y ray's call), solo cuts, "reveal your reds".

Every single-slot call on every teammate slot reads one analysis: the
beliefs under "the player holds the called value(s)" (conditioning.py).
Solo cuts and the red reveal are listed only when certain in this view.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..beliefs import Beliefs
from ..facts import Pos
from ..table import SlotRef
from ..wires import YELLOW, Key, Value, value_of
from .analyses import Condition, possible, probability
from .conditioning import Holding
from .position import Position
from .ranking import Suggestion, value_name


class Cuts:
    """The cuts of one position, with the odds of each call under "the player holds it"."""

    def __init__(self, position: Position, holding: Holding):
        self.position, self.holding = position, holding
        # Every held value is called on every teammate slot: the calls on one slot under one
        # condition share its keys and weights, the Fractions made of them and P(legal); the calls
        # of one value share its keys.
        self._laws: dict[tuple[Condition, Pos], list[tuple[Key, Value, int]]] = {}
        self._fractions: dict[tuple[int, int], Fraction] = {}
        self._p_legal: dict[Condition, Fraction] = {}
        self._called: dict[tuple[Value, ...], frozenset[Key]] = {}

    def call(self, kind: str, target: SlotRef, values: tuple[Value, ...]) -> Suggestion | None:
        """Calling ``values`` on ``target``; None when the player cannot hold them."""
        position = self.position
        condition = self.holding(values)
        b = position.analyses.beliefs(condition)
        if b is None:
            return None
        called = self._called.get(values)
        if called is None:
            called = self._called[values] = frozenset().union(*(position.deck.keys_of_value(v) for v in values))
        outcomes: list[tuple[str, Any, Fraction]] = []
        # Deal weights over the slot's one denominator, summed as integers: the same exact
        # probabilities as summing Fractions.
        pos = position.pos(target)
        den = b.denominators[pos[0]]
        failures: dict[Value, int] = {}
        success = red = 0
        fraction = self._fraction
        for key, value, w in self._law(condition, pos):
            if key in called:
                # A yellow tile shows its printed n.1.
                # A blue success shows nothing beyond the value (named when two were called).
                shown = value == YELLOW or len(values) > 1
                outcomes.append(("success", key if shown else None, fraction(w, den)))
                success += w
            elif key in position.red_keys:
                red += w
            else:
                failures[value] = failures.get(value, 0) + w
        p_success, p_red = fraction(success, den), fraction(red, den)
        if position.policy.failure_token:
            outcomes += [("token", v, fraction(w, den)) for v, w in failures.items()]
        elif failures:
            outcomes.append(("failure", None, fraction(sum(failures.values()), den)))
        if p_red:
            outcomes.append(("red", None, p_red))
        if condition not in self._p_legal:
            self._p_legal[condition] = position.analyses.p_condition(condition)
        return Suggestion(kind, (target,), values, p_success, p_red, p_success == 1, outcomes,
                          p_legal=self._p_legal[condition], tiebreak=position.rng.random())

    def _law(self, condition: Condition, pos: Pos) -> list[tuple[Key, Value, int]]:
        """The slot's possible keys under ``condition``, in order, with their values and deal weights."""
        law = self._laws.get((condition, pos))
        if law is None:
            weights = self.position.analyses.beliefs(condition).weights[pos]  # type: ignore[union-attr]
            law = self._laws[(condition, pos)] = [(k, value_of(k), weights[k]) for k in sorted(weights)]
        return law

    def _fraction(self, weight: int, den: int) -> Fraction:
        """``weight / den`` as a Fraction, made once (Fractions are immutable: shared by the calls)."""
        f = self._fractions.get((weight, den))
        if f is None:
            f = self._fractions[(weight, den)] = Fraction(weight, den)
        return f

    def dual_cuts(self, values: list[Value]) -> list[Suggestion]:
        """Every legal dual cut: each uncut teammate slot x each value the player may hold."""
        out = []
        for q, s in self.position.teammate_stands():
            for ref in self.position.uncut_on(q, s):
                for v in values:
                    sug = self.call("dual_cut", ref, (v,))
                    if sug is not None:
                        out.append(sug)
        return out

    def solo_cuts(self, root: Beliefs, values: list[Value]) -> list[Suggestion]:
        """Solo cuts available with certainty: every remaining copy of v is known to be the player's."""
        position = self.position
        out = []
        seen = set(position.visible(position.player))
        others = [position.pos(s) for q in range(len(position.table.players)) for s in position.uncut(q)
                  if s not in seen]
        others += position.board.nano
        for v in values:
            keys = position.deck.keys_of_value(v)
            if any(possible(root, pos, keys) for pos in others):
                continue
            mine = [(s, probability(root, position.pos(s), keys)) for s in position.visible(position.player)]
            if any(0 < p < 1 for _, p in mine):
                continue  # the player surely holds them all, but where is not known in this view
            slots = tuple(s for s, p in mine if p == 1)
            if slots:
                out.append(Suggestion("solo_cut", slots, (v,), Fraction(1), Fraction(0), True,
                                      [("success", None, Fraction(1))], tiebreak=position.rng.random(),
                                      why=f"solo cut: every remaining {value_name(v)} ({len(slots)}) is in this hand",
                                      why_code="solo_cut"))
        return out

    def reveal_red(self, root: Beliefs) -> list[Suggestion]:
        """"Reveal your reds" when every wire left in the player's hand is surely red."""
        position = self.position
        mine = position.uncut(position.player)
        if mine and all(probability(root, position.pos(s), position.red_keys) == 1 for s in mine):
            return [Suggestion("reveal_red", tuple(mine), (), Fraction(1), Fraction(0), True,
                               [("success", None, Fraction(1))], tiebreak=position.rng.random(),
                               why="every wire left in this hand is red: reveal them", why_code="reveal_red")]
        return []
