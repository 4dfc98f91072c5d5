"""The advice of the cards that mark the player's own wires: Post-it, Label =, Label ≠, Single Wire Label.

Each possible mark is a fact about the deal, written as a signed sum of slot
conditions whose deal counts add (a label's "same value" is the disjoint sum
over v of "both are v"; the x1 token's fact the sum over v of "it is v, the
others are not").  The public table given the fact is analysed (its
conditions packed with the columns engine) and the mark scored by the entropy
mode's H before minus after (``bits``) and the fact's own information
-log2 P(fact) (``information``), both exact ratios of world counts.  The
marks are the owner's choice among wires only their view shows.

The Post-it places the mission's kind of token (rules.md §6: even/odd and
x1-x3 tokens replace the number tokens for it too): an even/odd token is one
slot condition like a value token; an x-count token ("its stand holds c wires
of its value, cut ones included") is not a slot condition, so that mark is
scored on the public table with the token recorded, analysed whole (the
fact the engines compile from a recorded token, so no second reading of it).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ..beliefs import Beliefs, Inconsistent, Unsupported
from ..engines import ENGINES
from ..events import InfoToken, Token
from ..facts import Pos, compile_table, counted_wires, parity_keys
from ..missions import mission
from ..wires import RED, value_of
from .advice import INFO_NOW, Context, OverBudget, Row, because, fraction_json
from .analyses import BATCH, Condition, combine, probability
from .entropy import branch_entropy
from .notes import Notes

MarkFact = list[tuple[int, Condition]]  # a fact as a signed sum of slot conditions (disjoint: deal counts add)
# The mark's JSON row and its fact: slot conditions, or a token recorded on the table (an x-count token)
Mark = tuple[Row, MarkFact | InfoToken]
MAX_COUNT_TOKEN = 3  # x1-x3: there is no x4 token (rules.md §6), so a value held 4 times on a stand gets none


class NoPostIt(Exception):
    """Why this table's Post-it is not advised: the message (the CLI's) and its ``code`` (ADVICE_CODES)
    and ``fields``, which the page words."""

    def __init__(self, message: str, code: str, **fields: Any):
        super().__init__(message)
        self.code, self.fields = code, fields


def post_it(ctx: Context, incomplete: Notes) -> Row:
    """Card 4: a token of the mission's kind on one own blue wire: its value, its parity (uncut
    wires), or its count on the stand (x1-x3; cut wires too, rules.md §6)."""
    try:
        kind = post_it_token(ctx)
    except NoPostIt as refused:
        return {"verdict": "keep", "candidates": [], **because(refused.code, str(refused), **refused.fields)}
    position = ctx.position
    deck, wires = position.deck, ctx.own_wires()
    root = position.analyses.beliefs()
    assert root is not None
    unknown: set[int] = set()  # stands with a wire the token counts whose value this view does not know
    marks: list[Mark] = []
    for ref, pos, v, cut in wires:
        if not isinstance(v, int) or (cut and kind != "count"):
            continue
        if kind == "value":
            marks.append(({"target": ref.json(), "value": v}, [(1, frozenset(((pos, deck.keys_of_value(v)),)))]))
        elif kind == "parity":
            odd = v % 2 == 1
            marks.append(({"target": ref.json(), "value": v, "parity": "odd" if odd else "even"},
                          [(1, frozenset(((pos, parity_keys(position.all_keys, odd)),)))]))
        else:
            # the wires the token counts, as a recorded one: the owner's X wires yes, own flipped ones no
            counted = [{value_of(k) for k in root.weights[q]} for q in counted_wires(position.board, pos)]
            if any(len(values) != 1 for values in counted):
                unknown.add(ref.stand)
                continue
            count = sum(values == {v} for values in counted)
            if count <= MAX_COUNT_TOKEN:
                marks.append(({"target": ref.json(), "value": v, "count": count},
                              InfoToken(ref, Token("count", count))))
    for s in sorted(unknown):
        incomplete.add("count_unknown", f"Post-it: stand {s + 1} holds a wire this view does not know, so its "
                       "x-count tokens are not offered", card="4", player=position.player, stand=s)
    return scored_marks(ctx, "4", "Post-it", marks, incomplete)


def post_it_token(ctx: Context) -> str:
    """The kind of token a Post-it places here: "value", "parity" or "count" (rules.md §6), from
    the table's mission (``meta.mission``), else from the tokens already on the table.
    Raises NoPostIt where the rules settle no reading or the player may not use it."""
    table = ctx.position.table
    if table.mission is not None:
        tags = set(mission(table.mission).rule_tags(len(table.players)))
        if "false_tokens" in tags:
            if table.mission == 52:
                raise NoPostIt("M52: every token is false, and the rules do not say what a Post-it's "
                               "token says there (rules.md §6): not advised", "post_it_all_false", mission=52)
            return "value"  # M17: only Rhett's tokens are false, and he uses no equipment (equipment.py)
        return "parity" if "parity_tokens" in tags else "count" if "count_tokens" in tags else "value"
    kinds = set()
    for i, e in enumerate(table.events):
        token = getattr(e, "token", None)  # an info token's, or a failed cut's
        if isinstance(e, InfoToken):
            if e.false:
                raise NoPostIt("this table has false tokens (M17 or M52) but names no mission (meta.mission), "
                               "and a Post-it's token differs between the two: not advised",
                               "post_it_false_unnamed", event=i)
            if i < len(table.uses) and "2.2" in table.uses[i].cards:
                continue  # the Single Wire Label's x1 token, in any mission
        if isinstance(token, Token):
            kinds.add(token.kind)
    return "parity" if "parity" in kinds else "count" if "count" in kinds else "value"


def label_equal(ctx: Context, incomplete: Notes) -> Row:
    """Card 12: two adjacent own wires of one gameplay value."""
    return scored_marks(ctx, "12", "Label =", labels(ctx, True), incomplete)


def label_different(ctx: Context, incomplete: Notes) -> Row:
    """Card 1: two adjacent own wires of different gameplay values."""
    return scored_marks(ctx, "1", "Label ≠", labels(ctx, False), incomplete)


def single_wire_label(ctx: Context, incomplete: Notes) -> Row:
    """Card 2.2: blue wires, cut or not, whose value this stand surely holds once (cut wires included).
    The x1 token's fact, as facts.py compiles a recorded one: the wire is not red and no other
    wire the token counts (facts.counted_wires: not the owner's own flipped wires) has its value:
    the disjoint sum over v of "it is v, the others are not"."""
    position = ctx.position
    deck = position.deck
    root, public = position.analyses.beliefs(), ctx.public().beliefs()
    assert root is not None and public is not None
    marks = []
    for ref, pos, v, _ in ctx.own_wires():
        if not isinstance(v, int):
            continue
        others = counted_wires(position.board, pos) - {pos}
        if any(probability(root, q, deck.keys_of_value(v)) for q in others):
            continue
        fact: MarkFact = []
        for w in deck.values():
            keys = deck.keys_of_value(w)
            if w != RED and probability(public, pos, keys):
                fact.append((1, frozenset({(pos, keys)} | {(q, position.all_keys - keys) for q in others})))
        marks.append(({"target": ref.json(), "value": v}, fact))
    return scored_marks(ctx, "2.2", "Single Wire Label", marks, incomplete)


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


def scored_marks(ctx: Context, card: str, what: str, marks: list[Mark], incomplete: Notes) -> Row:
    """Each mark of ``card`` (its ID; ``what``: its English name) scored in public view; ranked by
    bits, then information."""
    if not ctx.own_view:
        return {"verdict": "keep", "candidates": [],
                **because("marks_own_view", f"the {what} marks the player's own wires: ask in that player's view "
                          "(their 'me')", card=what)}
    public = ctx.public()
    conditions = list(dict.fromkeys(c for _, fact in marks if isinstance(fact, list)
                                    for _, c in fact if c and c not in public.memo))
    if ctx.position.engine == "columns" and conditions:
        try:
            ctx.spend(-(-len(conditions) // BATCH))
            public.packed(conditions)  # one variant each, BATCH a run
        except OverBudget:
            pass  # scored one by one below, as far as the budget goes
    rows = []
    for done, (row, fact) in enumerate(marks):
        try:
            scored = score(ctx, fact) if isinstance(fact, list) else score_recorded(ctx, fact)
        except OverBudget:
            incomplete.add("marks_budget", f"{what}: {len(marks) - done} of {len(marks)} marks not scored (budget)",
                           card=card, left=len(marks) - done, total=len(marks))
            break
        except Unsupported as refused:  # an x-count token under an engine without count facts
            incomplete.add("marks_unsupported", f"{what}: {len(marks) - done} of {len(marks)} marks not scored: {refused}",
                           card=card, left=len(marks) - done, total=len(marks), limit=refused.json())
            break
        if scored is not None:
            rows.append({**row, **scored})
    rows.sort(key=lambda r: (-r["bits"], -r["information"]))
    if not rows:
        return {"verdict": "keep", "candidates": [],
                **(because("no_mark_scored", f"no {what} mark could be scored (incomplete says why)", card=what) if marks
                   else because("no_mark_possible", f"no wire the {what} may mark", card=what))}
    best = rows[0]
    now = best["information"] >= INFO_NOW
    return {"verdict": "use now" if now else "keep", "candidates": rows,
            **because("best_mark" if now else "best_mark_keep",
                      f"the best mark tells the table {best['information']:.2f} bits "
                      f"({best['bits']:.2f} by the entropy mode's measure)" + ("" if now else f"; under {INFO_NOW:g}: keep"),
                      information=best["information"], bits=best["bits"])}


def score(ctx: Context, fact: MarkFact) -> Row | None:
    """The public view given a mark's fact (its deals counted exactly): the entropy mode's H
    before minus after (``bits``) and -log2 P(fact) (``information``, exact as a ratio of
    worlds).  None: the fact cannot hold."""
    public = ctx.public()
    parts = []
    for sign, condition in fact:
        if condition not in public.memo:
            ctx.spend()
        parts.append((sign, public.beliefs(condition)))
    after = combine(public.base, parts)
    return None if after is None else scored(ctx, after)


def score_recorded(ctx: Context, token: InfoToken) -> Row | None:
    """:func:`score` for a token no slot condition says: the public table with it recorded, analysed."""
    ctx.spend()
    public, table = ctx.public(), ctx.position.table.public()
    public.runs += 1
    try:
        after = ENGINES[ctx.position.engine](compile_table(table.replace(events=table.events + (token,))))
    except Inconsistent:
        return None
    return scored(ctx, after)


def scored(ctx: Context, after: Beliefs) -> Row:
    """A mark's figures from the public view's beliefs given its fact."""
    before = ctx.public().beliefs()
    assert before is not None
    positions = ctx.position.player_positions()
    p = Fraction(after.worlds, before.worlds)
    return {"bits": round(branch_entropy(before, positions) - branch_entropy(after, positions), 6) + 0.0,
            "information": round(-math.log2(p), 6) + 0.0, "p_fact_public": float(p),
            "p_fact_public_exact": fraction_json(p)["exact"]}
