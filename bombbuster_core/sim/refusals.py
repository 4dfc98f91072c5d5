"""Why the simulator's search did not run, or its search and lookahead refused a table: a code and
its fields the page words in its language (``search.refused.CODE``, docs/i18n.md), beside the
English the CLI prints (issue 32 item 4)."""
from __future__ import annotations

from typing import Any

SEARCH_REFUSAL_CODES = (
    "not_a_turn",            # a choice or a setup decision, not a turn
    "mission_cards_hidden",  # mission: the replay cannot rebuild a game whose mission cards are hidden
    "mission_own_rules",     # mission: rules of its own, rebuilt from the simulator's own view only
    "certain_move",          # greedy plays a certain move first
    "before_endgame",        # endgame: more wires uncut than the search waits for
    "single_candidate",      # one candidate move
    "view_too_large",        # the view is past the sampler's budget
    "no_move",               # every wire of the player's is cut
    "not_own_view",          # a review's decision of another player than 'me'
    "needs_me",              # mode: the table has no 'me'
    "stand_special",         # mode, player: an X or flipped stand
    "nano_or_counts_red",    # mode: Nano or counts-as-red Number cards
    "rules_not_played",      # mode, rules (tags)
    "event_not_played",      # mode, event (index), type
    "simulator_error",       # detail: a SimError that is no refusal of the table (an illegal move, a malformed
                             # request): a fault of the simulator or of the page's request, its English kept
)


class Refusal(str):
    """A reason the search or lookahead gives: its English (this string, as the CLI prints it),
    with ``code`` (one of SEARCH_REFUSAL_CODES) and ``fields`` (values, no words) for the page."""

    code: str
    fields: dict[str, Any]

    def __new__(cls, text: str, code: str, /, **fields: Any) -> Refusal:
        assert code in SEARCH_REFUSAL_CODES, code
        refusal = super().__new__(cls, text)
        refusal.code, refusal.fields = code, fields
        return refusal

    def __reduce__(self) -> tuple[Any, ...]:
        # Whole after pickling: a str subclass would otherwise rebuild from its text alone.
        return _rebuilt, (str(self), self.code, self.fields)

    def json(self) -> dict[str, Any]:
        """The refusal as a result's ``reason_why`` or an error reply carries it: ``{code, fields}``."""
        return {"code": self.code, "fields": self.fields}


def _rebuilt(text: str, code: str, fields: dict[str, Any]) -> Refusal:
    return Refusal(text, code, **fields)


def reason_fields(refusal: Refusal) -> dict[str, Any]:
    """Why the search did not run, as a result says it: ``reason`` (the CLI's English) and
    ``reason_why`` (its code and fields, the page's)."""
    return {"reason": str(refusal), "reason_why": refusal.json()}


def refusal_of(error: BaseException) -> Refusal | None:
    """The Refusal a SimError was raised with (``SimError(refusal)``), or None (another error)."""
    return next((arg for arg in error.args[:1] if isinstance(arg, Refusal)), None)


def coded(error: BaseException) -> Refusal:
    """A SimError as the page hears it: its Refusal, or else ``simulator_error`` with the error's English
    as ``detail``.  Such an error names no fact of the player's table (an illegal move in a rollout, a
    malformed request of the page's): its text is the simulator's own, for a bug report."""
    return refusal_of(error) or Refusal(str(error), "simulator_error", detail=str(error))
