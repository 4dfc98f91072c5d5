"""What every equipment card's advice shares: its budget of engine runs and the views it reads.

A :class:`Context` is one position's advice in the making: the table's own
analyses and the public view's (the table's own when it is public), world
counts of packed "these slots hold none of K" variants, the player's own
wires, and the budget: every engine run a card makes counts against
``Policy.equipment_budget`` (runs per card); :meth:`Context.spend` raises
:class:`OverBudget` before a run would pass it, and the card names what it
left out in its ``incomplete`` list.  ``INFO_NOW`` is the information cards'
verdict threshold; :func:`fraction_json` writes an exact probability.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..engines import columns
from ..facts import Pos, compile_table
from ..table import SlotRef
from ..wires import Value, value_of
from .analyses import Analyses
from .conditioning import Holding
from .position import Position

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..engines.columns import Variant

Row = dict[str, Any]
OwnWire = tuple[SlotRef, Pos, Value | None, bool]  # address, wire, value (None: unknown in this view), cut

INFO_NOW = 1.0  # bits: an information card is worth using now from one bit on (a fair yes/no question)

# Every `code` of a card's advice: beside its English `why` (the CLI's), the code and its `fields` let
# the page word the reason in its own language (docs/i18n.md).
ADVICE_CODES = (
    "turn_only", "not_computed", "not_searched", "escape_use", "no_better_use", "certain_no_free",
    "best_in_list", "no_dual_cut", "certain_needs_no_stabilizer", "stabilize", "no_teammate_wire",
    "surely_pairs", "pairs_keep", "give_own_view", "budget", "no_wire_to_give", "give_escape", "lone_pairs",
    "gift_keep", "no_double", "cuts_two", "cuts_two_free", "no_risk", "nothing_to_cut", "dial_unread",
    "dial_moved", "dial_start", "pass_turn", "escape_exists", "no_need_to_pass", "batteries",
    "no_character_used", "drop", "no_card_used", "false_bottom", "marks_own_view", "no_mark_scored",
    "no_mark_possible", "best_mark", "best_mark_keep", "radar_value", "radar_value_keep", "radar_none",
    "post_it_all_false", "post_it_false_unnamed",
)

# Why a player may use none of the board's cards (missions.cards_barred: M17's Rhett, M28's Captain
# Careless), beside the English `barred`: `barred_why` {code, fields: mission, player}; the second
# code when their character is out of the game too.
BARRED_CODES = ("captain_no_cards", "captain_no_equipment")


def barred_why(mission: int | None, player: int, character_out: bool) -> Row:
    """The code and fields of a player's ``barred`` (BARRED_CODES)."""
    return {"code": BARRED_CODES[character_out], "fields": {"mission": mission, "player": player}}


def because(code: str, why: str, **fields: Any) -> Row:
    """A card advice's reason: the English ``why`` and its ``code`` and ``fields`` (ADVICE_CODES)."""
    assert code in ADVICE_CODES, code
    return {"why": why, "code": code, "fields": fields}
_PACK = 32  # exclusion variants per packed columns count (a forward sweep only: cheaper than analyses.BATCH's)


class OverBudget(Exception):
    """A card's engine runs reached the policy's budget."""


def fraction_json(p: Fraction) -> Row:
    """A probability as suggest writes them (a float) with its exact value beside it."""
    return {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}


class Context:
    """The advice of ``position``'s player: the views, the runs of the card being advised."""

    def __init__(self, position: Position, holding: Holding):
        self.position, self.holding = position, holding
        self.own_view = position.table.me == position.player  # the player's own wires are known only in their view
        self._public: Analyses | None = None
        self._card_start = 0

    def public(self) -> Analyses:
        """The public view's analyses (the table's own when it is public)."""
        if self._public is None:
            position = self.position
            self._public = (position.analyses if position.table.me is None else
                            Analyses(compile_table(position.table.public()), position.engine))
        return self._public

    def runs(self) -> int:
        own = self.position.analyses
        return own.runs + (self._public.runs if self._public is not None and self._public is not own else 0)

    def start_card(self) -> None:
        """The next runs count against a new card's budget."""
        self._card_start = self.runs()

    def card_runs(self) -> int:
        return self.runs() - self._card_start

    def spend(self, n: int = 1) -> None:
        """Raise OverBudget if ``n`` more runs would pass the card's budget."""
        budget = self.position.policy.equipment_budget
        if budget is not None and self.card_runs() + n > budget:
            raise OverBudget

    def none_worlds(self, analyses: Analyses, variants: list[Variant]) -> list[int]:
        """Worlds of the problem and of each variant (slots holding none of keys), packed with columns."""
        base = analyses.worlds(frozenset())
        out = [base]
        if analyses.engine == "columns":
            for i in range(0, len(variants), _PACK):
                self.spend()
                analyses.runs += 1
                out += columns.worlds_excluding(analyses.base, variants[i:i + _PACK])[1:]
            return out
        for variant in variants:
            condition = frozenset((pos, analyses.base.domain(pos) - keys) for slots, keys in variant for pos in slots)
            if condition not in analyses.memo:
                self.spend()
            out.append(analyses.worlds(condition))
        return out

    def own_wires(self) -> list[OwnWire]:
        """The player's wires in stand order: address, wire, value (None: not known in this view), cut."""
        position = self.position
        root = position.analyses.beliefs()
        assert root is not None
        out = []
        for s, row in enumerate(position.board.stands[position.player]):
            for j, pos in enumerate(row):
                values = {value_of(k) for k in root.weights[pos]}
                known = values.pop() if len(values) == 1 and not position.board.special(pos) else None
                out.append((SlotRef(position.player, s, j), pos, known, pos in position.board.cut))
        return out
