"""What a policy sees: one player's table file (:class:`View`), and the suggestions turned into actions.

A policy sees a :class:`View` -- the player's table file (their own wires in
``me`` plus the public events, and ``meta.sim``: the mission's cards on the
table and, for the player who decides, the pending decision with what is
allowed: the legal values and targets of a call, the legal solo cuts and
special actions, or a choice's options) -- and never the hidden deal.  Two
entry points: ``setup_token(view)`` (the setup decision: a slot, a
:class:`~.actions.SetupToken` with a false value, :class:`~.actions.AbsentTokens`)
and ``move(view)`` (an :mod:`.actions` action for the pending decision).
"""
from __future__ import annotations

from contextlib import contextmanager

from ..analysis import beliefs
from ..beliefs import Beliefs
from ..board import Board
from ..suggest.analyses import Analyses
from ..table import Table, TableError, load_table
from ..wires import RED, Key, Value, parse_key
from .actions import action_from_json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterator

    from .actions import Action, Slot

RED_CAP = 0.05  # the policies' red cap: no call above this P(red) while one within it exists
CERTAIN = 1 - 1e-12


class SimulatorBug(RuntimeError):
    """A table the simulator built for itself that the core refuses: a bug of the simulator."""


@contextmanager
def own_tables() -> Iterator[None]:
    """Around a decision on a table already validated: a :class:`TableError` inside comes from a table
    the simulator built (a restored game, a rollout's), never from the user's, so it is reported as
    the simulator's bug (the bridge's "internal error"), not as a fault of the user's table."""
    try:
        yield
    except TableError as refused:
        raise SimulatorBug(f"the simulator built a table the core refuses, a bug of the simulator and not of "
                           f"this table: {refused}") from refused


class View:
    """One player's table file and what follows from it."""

    def __init__(self, raw: dict[str, Any], player: int):
        self.raw, self.player = raw, player
        self._table: Table | None = None
        self._board: Board | None = None
        self._beliefs: Beliefs | None = None
        # p_value is asked thousands of times a decision (choices, equipment scores), the board and
        # the beliefs never change: each answer is computed once
        self._p_values: dict[tuple[Slot, Value], float] = {}

    @property
    def table(self) -> Table:
        if self._table is None:
            self._table = load_table(self.raw)
        return self._table

    def board(self) -> Board:
        """The table's board now (Table.board replays every event: kept for the view's life)."""
        if self._board is None:
            self._board = self.table.board()
        return self._board

    def sim(self) -> dict[str, Any]:
        return self.raw.get("meta", {}).get("sim") or {}

    def pending(self) -> dict[str, Any] | None:
        """The decision the game waits for from this player (None: a base-game turn, no limits)."""
        return self.sim().get("pending")

    def hand(self) -> list[tuple[Slot, Key]]:
        """My wires as dealt that I can see (my own flipped wires aside), deal-time addresses."""
        return [((self.player, s, j), parse_key(k)) for s, row in enumerate(self.raw["me"]["stands"])
                for j, k in enumerate(row) if k is not None]

    def cut(self) -> set[Slot]:
        return {(c.player, c.stand, c.slot) for c in self.table.cut_slots()}

    def my_uncut(self) -> list[tuple[Slot, Key]]:
        cut = self.cut()
        return [(x, k) for x, k in self.hand() if x not in cut]

    def teammates_uncut(self) -> list[Slot]:
        cut = self.cut()
        return [(p, s, j) for p, pl in enumerate(self.raw["players"]) if p != self.player
                for s, size in enumerate(pl["stands"]) for j in range(size if isinstance(size, int) else size["size"])
                if (p, s, j) not in cut]

    def has_detector(self) -> bool:
        pending = self.pending()
        if pending is not None:
            return bool(pending.get("detector"))
        if "no_double_detector" in self.raw.get("meta", {}).get("rules", ()):
            return False
        return not any(e["type"] == "detector" and e["actor"] == self.player for e in self.raw["events"])

    def tags(self) -> frozenset[str]:
        return frozenset(self.raw.get("meta", {}).get("rules", ()))

    # -- exact marginals of the view (for what suggest does not rank)
    def beliefs(self) -> Beliefs:
        if self._beliefs is None:
            self._beliefs = beliefs(self.table)
        return self._beliefs

    def adopt(self, runs: Analyses) -> None:
        """Take the beliefs from suggest's analyses of this view (``suggest(analyses=...)``): its
        root is the run :func:`~bombbuster_core.analysis.beliefs` would make again."""
        if self._beliefs is None:
            self._beliefs = runs.beliefs()

    def p_value(self, slot: Slot, value: Value) -> float:
        """P(the wire now at ``slot`` plays as ``value``) in this view (M11's Number counts as red)."""
        known = self._p_values.get((slot, value))
        if known is None:
            table = self.table
            keys = table.deck.keys_of_value(value)
            if value == RED and table.red_value is not None:
                keys = keys | table.deck.keys_of_value(table.red_value)
            known = sum(p for k, p in self.beliefs().probabilities(self.board().wire(*slot)).items() if k in keys)
            self._p_values[(slot, value)] = known
        return known

    def uncut_slots(self) -> list[Slot]:
        board = self.board()
        return [(p, s, j) for p, rows in enumerate(board.stands) for s, row in enumerate(rows)
                for j, w in enumerate(row) if w not in board.cut]

    def holds(self, value: Value) -> int:
        """How many wires of ``value`` I can see uncut now (cuttable or not)."""
        board = self.board()
        n = 0
        for s, row in enumerate(board.stands[self.player]):
            for j, w in enumerate(row):
                if w not in board.cut and not board.owner_flipped(w, self.player) and self.p_value(
                        (self.player, s, j), value) >= CERTAIN:
                    n += 1
        return n


def slot_of(ref: dict[str, int]) -> Slot:
    """A wire's address from the table format's."""
    return ref["player"], ref["stand"], ref["slot"]


# The kinds of suggest's suggestions that are a game action (the others advise a card, a radar...); suggest
# names them as actions.action_json names the action
PLAYED_KINDS = frozenset({"dual_cut", "double_detector", "solo_cut", "reveal_red"})


def action_of(suggestion: dict[str, Any], player: int) -> Action:
    """The game action of one suggestion of suggest (JSON): actions.action_from_json's reading, with
    suggest's wire addresses (``{"player", "stand", "slot"}``); a suggestion of another kind than
    :data:`PLAYED_KINDS` is refused (ValueError)."""
    kind = suggestion["kind"]
    if kind not in PLAYED_KINDS:
        raise ValueError(f"no game action for a {kind} suggestion")
    return action_from_json(suggestion, player, slot_of)


def legal_suggestion(s: dict[str, Any], pending: dict[str, Any] | None) -> bool:
    """Whether the game allows a suggestion of suggest now (``pending``: meta.sim's turn; None: the
    base game, where every suggestion is legal)."""
    if pending is None:
        return True
    kind = s["kind"]
    targets = pending["targets"]
    if kind == "dual_cut":
        return s["value"] in pending["values"] and [s["target"][k] for k in ("player", "stand", "slot")] in targets
    if kind == "double_detector":
        return (pending["detector"] and s["value"] in pending["values"]
                and all([t[k] for k in ("player", "stand", "slot")] in targets for t in s["targets"]))
    if kind == "solo_cut":
        return s["value"] in pending["solo"]
    if kind == "reveal_red":
        return bool(pending["reveal"])
    return False


def middle_token(view: View, options: list[Slot] | None = None) -> Slot:
    """The allowed wire (default: a blue one) nearest the middle of the player's longest stand (leftmost on a tie)."""
    mine = view.hand()
    allowed = set(options) if options is not None else {x for x, k in mine if k % 10 == 0}
    sizes = {s: len(row) for s, row in enumerate(view.raw["me"]["stands"])}
    for s in sorted(sizes, key=lambda s: -sizes[s]):
        ok = [x for x, _ in mine if x[1] == s and x in allowed]
        if ok:
            return min(ok, key=lambda x: (abs(2 * x[2] - (sizes[s] - 1)), x[2]))
    raise ValueError("no wire to put a token on")


def pending_options(pending: dict[str, Any]) -> list[Any]:
    """A pending choice's options, as the game compares them (lists as tuples)."""
    return [tuple(o) if isinstance(o, list) else o for o in pending["options"]]
