"""The detonator dial (rules.md §4) after a table's events, for the readers that need only it: the
Rewinder's advice and the ranking's stakes.

The dial's value (:class:`~bombbuster_core.public_state.Dial`) and where each mission moves it are
public_state.py's, which reads it with the rest of the game's public state.
"""
from __future__ import annotations

from .public_state import Dial, public_state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .table_model import Table

__all__ = ["Dial", "dial"]


def dial(table: Table) -> Dial | None:
    """The dial after the table's events; None where the mission moves it by rules the events do
    not record (public_state.DIAL_UNREAD says why)."""
    return public_state(table).dial
