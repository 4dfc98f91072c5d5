"""The General Radar's advice (card 8, character E1): which value to ask, and what the answer tells.

Per value and stand, P(yes) in the table's view and in public view: 1 -
worlds(no uncut v on the stand) / worlds, every value's variants packed in
one count.  Per value, the joint law of the answer vector in public view, by
inclusion and exclusion over the stands whose answer is uncertain (each term
"these stands hold no uncut v", packed), and its entropy: the information the
table gains, exactly.  Values are searched best bound first (the sum of the
stands' own answer entropies bounds the joint's: subadditivity), so the top
value listed is the best, exactly, and a value never computed shows its bound.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from ..beliefs import Beliefs
from ..facts import Pos
from ..wires import Key
from .advice import INFO_NOW, Context, OverBudget, Row, because, fraction_json
from .analyses import Analyses, probability
from .notes import Notes
from .ranking import entropy_bits

StandRef = tuple[int, int]  # (player, stand)
Stand = tuple[StandRef, frozenset[Pos]]  # a stand and the wires the radar counts
Law = list[tuple[tuple[bool, ...], Fraction]]  # answer vector (a yes/no per stand) -> probability


def advise(ctx: Context, incomplete: Notes) -> Row:
    """The values to ask, best first, each with its per-stand odds and (when computed) answer law."""
    position = ctx.position
    deck = position.deck
    stands = radar_stands(ctx)
    public = ctx.public()
    view_root, public_root = position.analyses.beliefs(), public.beliefs()
    assert view_root is not None and public_root is not None
    values = [v for v in deck.values() if isinstance(v, int)  # no uncut v left: every answer is no
              and any(probability(public_root, pos, deck.keys_of_value(v)) for _, slots in stands for pos in slots)]
    try:
        yes_view = p_yes(ctx, position.analyses, view_root, stands, values)
        yes_public = p_yes(ctx, public, public_root, stands, values)
    except OverBudget:
        incomplete.add("card_budget", "general radar: not computed (budget)", card="8")
        return {"verdict": "keep", "candidates": [], **because("budget", "not computed within the budget")}
    rows: list[Row] = [{"value": v, "yes": yes_view[v], "yes_public": yes_public[v],
                        "bound": sum(entropy_bits([p, 1 - p]) for p in yes_public[v])} for v in values]
    rows.sort(key=lambda r: (-r["bound"], r["value"]))
    best = -1.0
    for r in rows:
        if r["bound"] <= best:
            r["bits_at_most"] = round(r["bound"], 6)  # subadditivity: cannot beat the best computed
            continue
        try:
            law = answer_law(ctx, stands, deck.keys_of_value(r["value"]), r["yes_public"])
        except OverBudget:
            incomplete.add("radar_law_budget", f"general radar: the joint law of value {r['value']} (budget)",
                           card="8", value=r["value"])
            r["bits_at_most"] = round(r["bound"], 6)
            continue
        r["law"] = law
        r["bits"] = entropy_bits(p for _, p in law)
        best = max(best, r["bits"])
    rows.sort(key=lambda r: (-r.get("bits", -1.0), -r["bound"], r["value"]))
    candidates = [candidate(stands, r) for r in rows]
    top = rows[0].get("bits", 0.0) if rows else 0.0
    now = top >= INFO_NOW
    return {"verdict": "use now" if now else "keep", "candidates": candidates,
            **(because("radar_value" if now else "radar_value_keep", f"value {rows[0]['value']} tells the team "
                       f"{top:.2f} bits" + ("" if now else f" (under {INFO_NOW:g} bit: keep)"),
                       value=rows[0]["value"], bits=round(top, 6)) if rows
               else because("radar_none", "no value left to ask"))}


def radar_stands(ctx: Context) -> list[Stand]:
    """Every stand with the wires the radar counts (uncut, not X or flipped: rules §5, facts.py)."""
    board = ctx.position.board
    return [((p, s), frozenset(w for w in board.uncut(p, s) if not board.special(w)))
            for p, pl in enumerate(ctx.position.table.players) for s in range(len(pl.stands))]


def p_yes(ctx: Context, analyses: Analyses, root: Beliefs, stands: list[Stand],
          values: list[int]) -> dict[int, list[Fraction]]:
    """Per value, per stand P(it holds an uncut v), exactly: 1 - worlds(no v on it) / worlds
    (every value's variants packed together)."""
    deck = ctx.position.deck
    asked = [(v, i) for v in values for i, (_, slots) in enumerate(stands)
             if any(probability(root, pos, deck.keys_of_value(v)) for pos in slots)]
    worlds = ctx.none_worlds(analyses, [[(stands[i][1], deck.keys_of_value(v))] for v, i in asked])
    out = {v: [Fraction(0)] * len(stands) for v in values}
    for (v, i), none in zip(asked, worlds[1:]):
        out[v][i] = 1 - Fraction(none, worlds[0])
    return out


def answer_law(ctx: Context, stands: list[Stand], keys: frozenset[Key], yes: list[Fraction]) -> Law:
    """The public law of the answer vector: P(exactly the stands of A say no, among the
    uncertain U) = sum over T with A <= T <= U of (-1)^|T - A| worlds(T hold no v) / worlds."""
    uncertain = [i for i, p in enumerate(yes) if 0 < p < 1]
    subsets = [t for r in range(len(uncertain) + 1) for t in combinations(uncertain, r)]
    worlds = ctx.none_worlds(ctx.public(), [[(stands[i][1], keys) for i in t] for t in subsets[1:]])
    none = dict(zip(subsets, worlds))
    law = []
    for a in subsets:
        total = sum(((-1) ** (len(t) - len(a)) * none[t] for t in subsets if set(a) <= set(t)), 0)
        if total:
            answers = tuple(yes[i] == 1 or (i in uncertain and i not in a) for i in range(len(stands)))
            law.append((answers, Fraction(total, worlds[0])))
    return sorted(law, key=lambda x: -x[1])


def candidate(stands: list[Stand], r: Row) -> Row:
    """One value's JSON: its bits (or bound), per-stand odds and, when computed, the answer law."""
    row: Row = {"value": r["value"], "bits": round(r["bits"], 6) if "bits" in r else None}
    if "bits_at_most" in r:
        row["bits_at_most"] = r["bits_at_most"]
    row["stands"] = [{"player": p, "stand": s, "p_yes": float(y), "p_yes_exact": fraction_json(y)["exact"],
                      "p_yes_public": float(yp), "p_yes_public_exact": fraction_json(yp)["exact"]}
                     for ((p, s), _), y, yp in zip(stands, r["yes"], r["yes_public"])]
    if "law" in r:  # each answer vector lists the stands' yes/no in the order of "stands"
        row["answers"] = [{"yes": list(answers), **fraction_json(p)} for answers, p in r["law"]]
    return row
