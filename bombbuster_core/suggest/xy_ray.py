"""The X-or-Y ray: one teammate slot, two values called at once.

Which slots and value pairs are listed is chosen on the view's marginals
(:func:`picks`, before the analyses run, so that the pairs' "holds v and w"
conditions join the packed run); the odds listed are exact, read as any
single-slot call's (cuts.py) under "the player holds both values".
"""
from __future__ import annotations

from fractions import Fraction

from ..beliefs import Beliefs
from ..table import SlotRef
from ..wires import Value
from .analyses import probability
from .cuts import Cuts
from .position import Position
from .ranking import Suggestion

Pick = tuple[SlotRef, tuple[Value, Value]]


def picks(position: Position, root: Beliefs, values: list[Value]) -> list[Pick]:
    """The best ``per_kind`` slots, each with the two held values most likely there, from the
    marginals: within the red cap first, then most likely, then least red risk."""
    if len(values) < 2:
        return []
    found = []
    for q, s in position.teammate_stands():
        for ref in position.uncut_on(q, s):
            probs = {v: probability(root, position.pos(ref), position.deck.keys_of_value(v)) for v in values}
            best = sorted(values, key=lambda v: -probs[v])[:2]
            if probs[best[0]] == 1 or probs[best[1]] == 0:
                continue  # a plain dual cut does as well
            found.append((-(probs[best[0]] + probs[best[1]]), probability(root, position.pos(ref), position.red_keys),
                          ref, tuple(best)))
    cap = Fraction(position.policy.red_cap)
    found.sort(key=lambda t: (t[1] > cap, t[0], t[1]))
    return [(ref, pair) for _, _, ref, pair in found[: position.policy.per_kind]]


def rays(cuts: Cuts, chosen: list[Pick]) -> list[Suggestion]:
    """The X-or-Y ray calls of the ``chosen`` picks, with exact odds (those the player may make)."""
    out = []
    for ref, pair in chosen:
        sug = cuts.call("xy_ray", ref, pair)
        if sug is not None:
            out.append(sug)
    return out
