"""The detonator dial (rules.md §4) as a value: where it started and how far it has moved.

Read from a table's events for every mission by public_state.py, which says
where a mission moves it by rules the events do not record (then there is no
dial: :func:`dial` gives None).  The Rewinder's advice and the ranking's
stakes read it here.
"""
from __future__ import annotations

from .record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .table import Table


class Dial(Record):
    """The dial: ``start`` spaces from the skull at the start, ``moved`` spaces on from there now
    (negative: behind its start, moved back by a mission's rule)."""

    __slots__ = ("start", "moved")
    start: int
    moved: int

    def __init__(self, start: int, moved: int):
        super().__init__(start, moved)

    @property
    def spaces_left(self) -> int:
        """Spaces from the dial to the skull (0: it reached it)."""
        return self.start - self.moved

    @property
    def failures_left(self) -> int:
        """Failures the team survives from here (0: the next one explodes, or it has)."""
        return max(self.spaces_left - 1, 0)


def dial(table: Table) -> Dial | None:
    """The dial after the table's events; None where the mission moves it by rules the events do
    not record (public_state.DIAL_UNREAD says why)."""
    from .public_state import public_state  # public_state reads the table module, which reads it

    return public_state(table).dial
