"""The detonator dial as a table's events leave it (rules.md §4): what the Rewinder's advice reads.

With N players the dial starts N spaces from the skull, so the N-th failure
explodes.  A failed dual cut or detector moves it one space on, unless the
Stabilizer was in play (the failure still counts, the dial stays) or the bomb
exploded (the game is over); the Rewinder moves it one space back, never past
its start (the page's reading and the simulator's, sim/game.py ``_rewind``:
rules.md §4 gives no cap, the S3 code's ``detonatorMax = players`` does).

Followed only where those are the only moves: the missions without rules of
their own (missions.BASE_MISSIONS, a table that names no mission included).
Other missions start the dial elsewhere or move it by rules the table's events
do not spell out, so :func:`dial` says it does not follow them (None) rather
than guess.  The page's own detonator (web/js/gamestate.js) shows the dial in
every mission with the same standard moves; tests/test_dial.py holds this
module to the simulator's dial at every turn of simulated games, and the
page's dial to this module after every event of those games.
"""
from __future__ import annotations

from . import equipment as eq
from .events import Detector, DualCut, Equipment, MultiCut, Tripwire
from .missions import BASE_MISSIONS
from .record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .table import Table

class Dial(Record):
    """The dial: ``start`` spaces from the skull at the start, ``moved`` spaces on from there now."""

    __slots__ = ("start", "moved")
    start: int
    moved: int

    def __init__(self, start: int, moved: int):
        super().__init__(start, moved)

    @property
    def failures_left(self) -> int:
        """Failures the team survives from here (0: the next one explodes)."""
        return self.start - self.moved - 1


def dial(table: Table) -> Dial | None:
    """The dial after the table's events; None where the mission moves it by rules of its own
    (module docstring), or where the events hold a mission's own action (a multi-cut or a tripwire
    in a table that names no mission)."""
    if table.mission not in BASE_MISSIONS:
        return None
    moved = 0
    for e in table.events:
        if isinstance(e, (MultiCut, Tripwire)):
            return None
        if isinstance(e, (DualCut, Detector)) and not e.success and not e.exploded and not e.stabilizer:
            moved += 1
        elif isinstance(e, Equipment) and e.card == eq.NAMED["rewinder"]:
            moved = max(moved - 1, 0)
    return Dial(len(table.players), moved)
