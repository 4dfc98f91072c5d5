"""The notes of a suggestion's or a card's ``incomplete`` list, each with its code and fields.

A note says what a search left out (cut short by a budget, or not made where the model does not
hold).  The CLI prints the English note; beside the list, ``incomplete_why`` gives each note's
``code`` (INCOMPLETE_CODES) and ``fields`` (values, never English: card IDs, 0-based players and
stands, counts, a value) so that the page words it in its own language (docs/i18n.md).
"""
from __future__ import annotations

from typing import Any

# Every code of a note of `incomplete`: a detector kind's search cut short by the budget or not made
# on a stand whose wires moved; a card not computed within its budget; the marks a card left
# unscored; the Post-it's x-count tokens not offered on a stand this view does not fully know; the
# General Radar's joint law of a value; an engine limit (its `reason` is the engine's English).
INCOMPLETE_CODES = (
    "search_budget", "moved_wires", "card_budget", "marks_budget", "marks_unsupported", "count_unknown",
    "radar_law_budget", "engine_limit",
)


class Notes(list[str]):
    """An ``incomplete`` list (the English notes) and, in ``why``, each note's code and fields."""

    def __init__(self) -> None:
        super().__init__()
        self.why: list[dict[str, Any]] = []

    def add(self, code: str, note: str, **fields: Any) -> None:
        """Add the English ``note`` with its ``code`` (INCOMPLETE_CODES) and ``fields``; once only."""
        assert code in INCOMPLETE_CODES, code
        if note not in self:
            self.append(note)
            self.why.append({"code": code, "fields": fields})

    def json(self) -> dict[str, Any]:
        """``incomplete`` and, when it holds a note, ``incomplete_why`` beside it (parallel)."""
        return {"incomplete": list(self), **({"incomplete_why": self.why} if self else {})}
