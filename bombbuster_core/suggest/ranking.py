"""The suggestion record, its JSON, and the order the list is shown in.

A :class:`Suggestion` is one move with its exact odds, made by the deciders
(cuts.py, xy_ray.py, detectors.py) and scored further by entropy.py.  The
list is ordered in four groups (:func:`ordered`): the forced moves (certain
calls, solo cuts, "reveal your reds"), the uncertain dual cuts ranked by the
mode, the equipment uses, and last the futile moves (:func:`futile`: they
cannot succeed and tell nothing, so any move that can succeed is better).
Within a group :func:`rank_key` (exact mode) weighs a failure by what it
costs at the dial (``failures_left``, public_state.py): with a space to spare, the
calls within the red cap first, most likely, then most informative, then in
a seeded random order; at the dial's last space a failure loses the game as
surely as a red, so the chance of not losing now, P(success), alone ranks
(the red cap does not apply) and the why-text says so.  :func:`shown` cuts
the list to ``top`` and writes each suggestion's why-text and JSON
(docs/suggestions.md), or only its move and odds for a caller that reads
nothing else (the simulator).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import Any, Iterable

from ..table import SlotRef
from ..wires import YELLOW, Value, key_str, value_of


@dataclass
class Suggestion:
    """One move with its exact odds; ``outcomes`` are the distinct results it can have."""

    kind: str
    targets: tuple[SlotRef, ...]
    values: tuple[Value, ...]
    p_success: Fraction
    p_red: Fraction
    certain: bool
    outcomes: list[tuple[str, Any, Fraction]]  # (outcome, key/value/None, probability)
    p_legal: Fraction = Fraction(1)
    tiebreak: float = 0.0
    why: str = ""
    why_code: str = ""  # the why-text's kind (WHY_CODES): the page words it from the move's own fields
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def p_strike(self) -> Fraction:
        return 1 - self.p_success - self.p_red

    @cached_property
    def bits(self) -> float:
        """Entropy of the outcome, which is a function of the deal: the expected information.
        Kept: the ranking, the why-text and the JSON each read it (the outcomes never change)."""
        return entropy_bits(p for _, _, p in self.outcomes)

    def json(self, explain: bool = True) -> dict[str, Any]:
        """The suggestion as JSON; without ``explain``, only the move, its odds and whether it is
        certain (the fields a simulated player decides on: no why-text, bits or outcomes)."""
        row: dict[str, Any] = {"kind": self.kind}
        if self.kind in ("dual_cut", "xy_ray"):
            row["target"] = self.targets[0].json()
        else:
            row["targets"] = [t.json() for t in self.targets]
        if self.kind == "xy_ray":
            row["values"] = list(self.values)
        elif self.values:
            row["value"] = self.values[0]
        if not explain:
            row.update({"p_success": float(self.p_success), "p_red": float(self.p_red), "certain": self.certain})
            return row
        row.update({"p_success": float(self.p_success), "p_red": float(self.p_red), "p_strike": float(self.p_strike),
                    "bits": round(self.bits, 6), "certain": self.certain, "why": self.why, "why_code": self.why_code,
                    "p_legal": float(self.p_legal),
                    "outcomes": [outcome_json(kind, what, p) for kind, what, p in self.outcomes]})
        row.update(self.extra)
        return row


def outcome_json(kind: str, what: Any, p: Fraction) -> dict[str, Any]:
    """One outcome of a move as JSON: ``what`` is the key shown (success), the token's value, or None."""
    row: dict[str, Any] = {"outcome": kind, "p": float(p)}
    if kind == "success" and what is not None:  # the cut shows which value (X or Y ray) and a yellow's key
        row["value"] = value_of(what)
        if value_of(what) == YELLOW:
            row["key"] = key_str(what)
    elif kind == "token":
        row["value"] = what
    return row


def entropy_bits(probabilities: Iterable[Fraction | float]) -> float:
    """Shannon entropy in bits of a distribution."""
    return sum(-x * math.log2(x) for x in map(_float, probabilities) if x > 0) + 0.0


def _float(p: Fraction | float) -> float:
    """float(p): a Fraction's numerator / denominator is what float() computes (correctly
    rounded), without CPython 3.11's generic Rational.__float__ (a third of a list's ranking)."""
    return p.numerator / p.denominator if isinstance(p, Fraction) else float(p)


def value_name(v: Value) -> str:
    """A value as the why-texts name it."""
    return "yellow" if v == YELLOW else str(v)


def exact_key(p: Fraction) -> tuple[float, Fraction]:
    """A sort key that orders exactly as ``p``, compared faster: its float first (rounding is
    monotone, so different floats order as the Fractions do), the Fraction only when they are equal."""
    return (_float(p), p)


def last_space(failures_left: int | None) -> bool:
    """Whether the next failure loses (the dial's last space; None: the dial is not followed)."""
    return failures_left is not None and failures_left <= 0


def futile(sug: Suggestion) -> bool:
    """The move cannot succeed and its outcome is known (0 bits): it costs a dial space (or the
    game) and teaches nothing: at the dial's last space (or an unknown dial) every move that can
    succeed ranks above it; with spaces left it is a pass (:func:`ordered`)."""
    return sug.p_success == 0 and sug.bits == 0


def rank_key(sug: Suggestion, cap: float, failures_left: int | None = None) -> tuple:
    """Within the red cap: most likely first, then most informative, then a seeded random order
    (the lists of thousands of calls are sorted by exact keys at every decision of a simulated game).
    At the dial's last space (``failures_left`` 0) a failure loses as a red does: most likely first,
    whatever the red risk (P(success) is the chance of not losing now)."""
    if last_space(failures_left) or _float(sug.p_red) <= cap:
        return (0, exact_key(-sug.p_success), -sug.bits, sug.tiebreak)
    return (1, exact_key(sug.p_red), exact_key(-sug.p_success), -sug.bits, sug.tiebreak)


# The kinds of why-text (a suggestion's ``why_code``): the page words each from the move's own
# fields (kind, values, p_success, p_red, p_legal) in its language; ``why`` is the CLI's English.
WHY_CODES = (
    "solo_cut",    # cuts.py: every remaining wire of the value is in this hand
    "reveal_red",  # cuts.py: every wire left in this hand is red
    "certain",     # the move surely succeeds (under p_legal's condition when it is below 1)
    "last_space",  # the next failure loses: ranked by its chance of success
    "futile",      # cannot succeed: a pass that costs a dial space
    "odds",        # its chances (and whether the red risk is above the cap)
)


def why_text(sug: Suggestion, cap: float, failures_left: int | None = None) -> tuple[str, str]:
    """The one-line reason shown with a suggestion (its own, or made from its odds), and its kind
    (WHY_CODES)."""
    if sug.why:
        assert sug.why_code in WHY_CODES, sug.why_code  # set together (cuts.py)
        return sug.why, sug.why_code
    if sug.certain:
        what = "this wire can only be" if sug.kind in ("dual_cut", "xy_ray") else "one of these wires is"
        # Certain only under the call's condition when the player may not hold the value(s) at all.
        held = " and ".join(value_name(v) for v in sug.values)
        condition = "" if sug.p_legal >= 1 else f" if the player holds {held} (P {float(sug.p_legal):.0%})"
        return f"certain{condition}: {what} {' or '.join(value_name(v) for v in sug.values)}", "certain"
    odds = f"red risk {float(sug.p_red):.1%}, {sug.bits:.2f} bits"
    if last_space(failures_left):
        move = "call" if sug.kind in ("dual_cut", "xy_ray") else "use"
        text, code = f"the next failure loses: this {move} succeeds {float(sug.p_success):.0%} ({odds})", "last_space"
    elif futile(sug) and failures_left is not None:
        text, code = f"cannot succeed: a pass that costs a dial space ({odds})", "futile"
    else:
        text, code = f"P(success) {float(sug.p_success):.0%}, {odds}", "odds"
    if "expected_entropy" in sug.extra:
        text += f", E[H] {sug.extra['expected_entropy']:.2f}"
    if float(sug.p_red) > cap and not last_space(failures_left):
        text += f" (red risk above the {cap:.0%} cap)"
    if sug.p_legal < 1:
        text += f"; legal only if the player holds it (P {float(sug.p_legal):.0%})"
    return text, code


def ordered(forced: list[Suggestion], calls: list[Suggestion], equipment: list[Suggestion], mode: str,
            cap: float, failures_left: int | None = None, stakes: bool = True) -> list[Suggestion]:
    """The whole list: forced moves and certain calls, then the other calls ranked by ``mode``, then
    the equipment uses (every search's, whatever its kind: one group ranked together), then the
    futile moves (with spaces left on the dial, a futile move within the red cap is a pass, ranked
    below the calls within the cap).  ``failures_left``: the dial (rank_key; None: not followed, or
    not weighed).
    ``stakes`` False: no futile group (the ranking before the stakes were weighed: Policy.stakes)."""
    certain = forced + [c for c in calls if c.certain]
    passes = [c for c in calls + equipment if stakes and futile(c)]
    dropped = {id(c) for c in passes}
    ranked = [c for c in calls if not c.certain and id(c) not in dropped]
    uses = sorted((c for c in equipment if id(c) not in dropped), key=lambda c: rank_key(c, cap, failures_left))
    if mode == "entropy":
        # The reference ranking, except that calls above the red cap come last (red_cap=1 turns that off).
        ranked.sort(key=lambda c: (float(c.p_red) > cap, c.extra["expected_entropy"], c.tiebreak))
    else:
        ranked.sort(key=lambda c: rank_key(c, cap, failures_left))
    # The futile moves among themselves: the least red risk first (at the last space every one loses).
    passes.sort(key=lambda c: (exact_key(c.p_red), c.tiebreak))
    head = sorted(certain, key=lambda c: rank_key(c, cap, failures_left))
    if failures_left is None or last_space(failures_left):
        return head + ranked + uses + passes  # the dial unknown, or a futile move loses the game: last
    # With spaces left a futile move within the red cap is a pass that costs one space: below every
    # move within the cap that can succeed (calls, then the cards' uses), above the moves whose red
    # risk is over it.  Last of all it lost greedy 0.030 [-0.058, -0.003] on M8 5p
    # (docs/results/issue34-stakes.md): a pass is what a table too red to call asks for.
    def safe(c: Suggestion) -> bool:
        return _float(c.p_red) <= cap

    return (head + [c for c in ranked if safe(c)] + [c for c in uses if safe(c)] + [c for c in passes if safe(c)]
            + [c for c in ranked if not safe(c)] + [c for c in uses if not safe(c)]
            + [c for c in passes if not safe(c)])


def shown(listing: list[Suggestion], top: int | None, cap: float, explain: bool = True,
          failures_left: int | None = None) -> list[dict[str, Any]]:
    """The JSON of the first ``top`` suggestions (all when None), each with its why-text
    (``explain``; else only the moves and their odds: Suggestion.json); ``failures_left``: the
    dial the why-texts speak of (None: not followed, or not weighed)."""
    out = listing if top is None else listing[:top]
    if not explain:
        return [s.json(explain) for s in out]
    for sug in out:
        sug.why, sug.why_code = why_text(sug, cap, failures_left)
    return [s.json() for s in out]
