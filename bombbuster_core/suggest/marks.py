"""The advice of the cards that mark the player's own wires: Post-it, Label =, Label ≠, Single Wire Label.

Each possible mark is a fact about the deal, written as a signed sum of slot
conditions whose deal counts add (a label's "same value" is the disjoint sum
over v of "both are v"; the x1 token's fact the sum over v of "it is v, the
others are not").  The public table given the fact is analysed (its
conditions packed with the columns engine) and the mark scored by the entropy
mode's H before minus after (``bits``) and the fact's own information
-log2 P(fact) (``information``), both exact ratios of world counts.  The
marks are the owner's choice among wires only their view shows.
"""
from __future__ import annotations

import math
from fractions import Fraction

from ..events import InfoToken
from ..facts import Pos
from ..wires import RED
from .advice import INFO_NOW, Context, OverBudget, Row, fraction_json
from .analyses import BATCH, Condition, combine, probability
from .entropy import branch_entropy

MarkFact = list[tuple[int, Condition]]  # a fact as a signed sum of slot conditions (disjoint: deal counts add)
Mark = tuple[Row, MarkFact]  # the mark's JSON row and its fact


def post_it(ctx: Context, incomplete: list[str]) -> Row:
    """Card 4: a value token on one own uncut blue wire."""
    refused = value_tokens_only(ctx)
    if refused:
        return {"verdict": "keep", "candidates": [], "why": refused}
    deck = ctx.position.deck
    marks = [({"target": ref.json(), "value": v}, [(1, frozenset(((pos, deck.keys_of_value(v)),)))])
             for ref, pos, v, cut in ctx.own_wires() if isinstance(v, int) and not cut]
    return scored_marks(ctx, "Post-it", marks, incomplete)


def label_equal(ctx: Context, incomplete: list[str]) -> Row:
    """Card 12: two adjacent own wires of one gameplay value."""
    return scored_marks(ctx, "Label =", labels(ctx, True), incomplete)


def label_different(ctx: Context, incomplete: list[str]) -> Row:
    """Card 1: two adjacent own wires of different gameplay values."""
    return scored_marks(ctx, "Label ≠", labels(ctx, False), incomplete)


def single_wire_label(ctx: Context, incomplete: list[str]) -> Row:
    """Card 2.2: blue wires, cut or not, whose value this stand surely holds once (cut wires included).
    The x1 token's fact, as facts.py reads it: the wire is not red and no other wire of its
    stand has its value: the disjoint sum over v of "it is v, the others are not"."""
    position = ctx.position
    deck = position.deck
    wires = ctx.own_wires()
    root, public = position.analyses.beliefs(), ctx.public().beliefs()
    assert root is not None and public is not None
    marks = []
    for ref, pos, v, _ in wires:
        if not isinstance(v, int):
            continue
        others = [q for r, q, _, _ in wires if r.stand == ref.stand and q != pos]
        if any(probability(root, q, deck.keys_of_value(v)) for q in others):
            continue
        fact: MarkFact = []
        for w in deck.values():
            keys = deck.keys_of_value(w)
            if w != RED and probability(public, pos, keys):
                fact.append((1, frozenset({(pos, keys)} | {(q, position.all_keys - keys) for q in others})))
        marks.append(({"target": ref.json(), "value": v}, fact))
    return scored_marks(ctx, "Single Wire Label", marks, incomplete)


def labels(ctx: Context, equal: bool) -> list[Mark]:
    """Adjacent own pairs (at most one cut) of equal (or different) known values, with their facts."""
    wires = ctx.own_wires()
    out = []
    for (a, pa, va, cut_a), (b, pb, vb, cut_b) in zip(wires, wires[1:]):
        if a.stand != b.stand or va is None or vb is None or (cut_a and cut_b) or (va == vb) != equal:
            continue
        same = same_value(ctx, pa, pb)
        fact = same if equal else [(1, frozenset()), *((-sign, c) for sign, c in same)]
        out.append(({"targets": [a.json(), b.json()], "values": [va, vb]}, fact))
    return out


def same_value(ctx: Context, a: Pos, b: Pos) -> MarkFact:
    """"a and b have one gameplay value": the disjoint sum over v of "both are v"."""
    deck = ctx.position.deck
    root = ctx.public().beliefs()
    assert root is not None
    out: MarkFact = []
    for v in deck.values():
        keys = deck.keys_of_value(v)
        if probability(root, a, keys) and probability(root, b, keys):
            out.append((1, frozenset(((a, keys), (b, keys)))))
    return out


def value_tokens_only(ctx: Context) -> str | None:
    """Why the table's tokens are not plain value tokens (a mission's parity, count or false ones)."""
    for e in ctx.position.table.events:
        if isinstance(e, InfoToken) and (e.false or e.token.kind != "value"):
            return ("this table's info tokens are not plain value tokens (parity, count or false tokens of "
                    "missions 17, 21, 24, 33, 40, 52): the Post-it's token is not modelled")
    return None


def scored_marks(ctx: Context, what: str, marks: list[Mark], incomplete: list[str]) -> Row:
    """Each mark scored in public view; ranked by bits, then information."""
    if not ctx.own_view:
        return {"verdict": "keep", "candidates": [],
                "why": f"the {what} marks the player's own wires: ask in that player's view (their 'me')"}
    public = ctx.public()
    conditions = list(dict.fromkeys(c for _, fact in marks for _, c in fact if c and c not in public.memo))
    if ctx.position.engine == "columns" and conditions:
        try:
            ctx.spend(-(-len(conditions) // BATCH))
            public.packed(conditions)  # one variant each, BATCH a run
        except OverBudget:
            pass  # scored one by one below, as far as the budget goes
    rows = []
    for done, (row, fact) in enumerate(marks):
        try:
            scored = score(ctx, fact)
        except OverBudget:
            incomplete.append(f"{what}: {len(marks) - done} of {len(marks)} marks not scored (budget)")
            break
        if scored is not None:
            rows.append({**row, **scored})
    rows.sort(key=lambda r: (-r["bits"], -r["information"]))
    if not rows:
        return {"verdict": "keep", "candidates": [], "why": f"no wire the {what} may mark"}
    best = rows[0]
    now = best["information"] >= INFO_NOW
    return {"verdict": "use now" if now else "keep", "candidates": rows,
            "why": f"the best mark tells the table {best['information']:.2f} bits "
                   f"({best['bits']:.2f} by the entropy mode's measure)"
                   + ("" if now else f"; under {INFO_NOW:g}: keep")}


def score(ctx: Context, fact: MarkFact) -> Row | None:
    """The public view given a mark's fact (its deals counted exactly): the entropy mode's H
    before minus after (``bits``) and -log2 P(fact) (``information``, exact as a ratio of
    worlds).  None: the fact cannot hold."""
    public = ctx.public()
    before = public.beliefs()
    assert before is not None
    parts = []
    for sign, condition in fact:
        if condition not in public.memo:
            ctx.spend()
        parts.append((sign, public.beliefs(condition)))
    after = combine(public.base, parts)
    if after is None:
        return None
    positions = ctx.position.player_positions()
    p = Fraction(after.worlds, before.worlds)
    return {"bits": round(branch_entropy(before, positions) - branch_entropy(after, positions), 6) + 0.0,
            "information": round(-math.log2(p), 6) + 0.0, "p_fact_public": float(p),
            "p_fact_public_exact": fraction_json(p)["exact"]}
