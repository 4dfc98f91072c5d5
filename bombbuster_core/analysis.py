"""Analyse a table: events -> facts -> engine -> beliefs -> the JSON result.

This is the public face of the core used by the CLI and the worker bridge.
The result shape is documented in docs/table-format.md ("Analysis result").
"""
from __future__ import annotations

from .beliefs import Beliefs, Inconsistent
from .engines import DEFAULT, ENGINES
from .explain import conflict
from .facts import compile_table
from .public_state import public_state
from .table import Table
from .wires import key_str

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


CONTRADICTS_NAMED = 3  # more reasons than this make a sentence nobody reads: the list stays in "contradicts"
# Every `code` an inconsistent analysis carries: the page words each from its catalogues (docs/i18n.md).
REASON_CODES = ("setup_impossible", "contradicts_one", "contradicts_together", "impossible_with_earlier",
                "impossible_alone")


class EngineChoiceError(ValueError):
    pass


def beliefs(table: Table, engine: str = DEFAULT) -> Beliefs:
    """Exact beliefs for a table; raises :class:`Inconsistent` when no deal fits."""
    if engine not in ENGINES:
        raise EngineChoiceError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    return ENGINES[engine](compile_table(table))


def first_impossible_event(table: Table, engine: str = DEFAULT) -> int | None:
    """Index of the first event after which no deal remains (None: already without events).

    Facts only ever accumulate, so consistency is monotone in the prefix
    length and a binary search needs only log2(#events) analyses.
    """
    def ok(n: int) -> bool:
        try:
            beliefs(table.prefix(n), engine)
            return True
        except Inconsistent:
            return False

    if not ok(0):
        return None
    lo, hi = 0, len(table.events)  # ok(lo), not ok(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return hi - 1


def analyze(table: Table, engine: str = DEFAULT) -> dict[str, Any]:
    """The CLI's ``analyze`` JSON for a validated table."""
    try:
        result = beliefs(table, engine)
    except Inconsistent:
        i = first_impossible_event(table, engine)
        if i is None:
            why = "no deal fits the wires in play, the stand sizes and my wires"
            return {"consistent": False, "error": why, "event": i, "code": "setup_impossible", "fields": {}}
        e = table.events[i]
        against = conflict(table, i, engine)
        # "code" and "fields" let the page word the reason in its language ("error" is the CLI's English);
        # the reasons themselves are in "contradicts", each with its event index or wire.
        code, why = (("contradicts_one", f"it contradicts {against[0]['text']}") if len(against) == 1
                     else ("contradicts_together", f"it contradicts these together: {'; '.join(r['text'] for r in against)}")
                     if 0 < len(against) <= CONTRADICTS_NAMED
                     else ("impossible_with_earlier", "no deal of the wires fits it together with the events before it")
                     if against
                     else ("impossible_alone", "no deal of the wires fits it, whatever came before"))
        return {"consistent": False, "error": f"event {i} ({e.type}) is impossible: {why}", "event": i,
                "contradicts": against, "code": code, "fields": {"event": i, "type": e.type}}
    out = {"consistent": True, "worlds": result.worlds, "slots": slot_rows(table, result),
           "state": public_state(table).json()}
    board = table.equipment_board()
    if board is not None:  # only a table that lists its cards: old tables' answers are unchanged
        out["equipment"] = board.json()
    return out


def slot_rows(table: Table, result: Beliefs) -> list[dict[str, Any]]:
    """Every slot now on the table, in order (after moves), with its wire's probabilities."""
    board = table.board()
    rows = []
    for p, stands in enumerate(board.stands):
        for s, row in enumerate(stands):
            for j, wire in enumerate(row):
                probs = result.probabilities(wire)
                rows.append({"player": p, "stand": s, "slot": j, "cut": wire in board.cut,
                             "p": {key_str(k): v for k, v in probs.items()}})
    return rows
