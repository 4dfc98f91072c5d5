"""The Post-it's two refusals in the page's language (issue 32 item 4): the core gives each a code
and fields (suggest/marks.py NoPostIt: M52's false tokens, false tokens on a table naming no
mission) beside its English, and the card advice words them, the event numbered as the log does."""
from __future__ import annotations

from typing import Any

import pytest

from bombbuster_core import equipment as eq
from bombbuster_core.suggest import Policy, suggest
from bombbuster_core.table import Table, load_table

from e2e_helpers import open_app, words
from test_languages import language, localized  # noqa: F401 (fixtures)

HANDS = [[1, 1, 1, 1, 2, 3], [1, 2, 2, 3, 3, 3]]
CUT = {"type": "dual_cut", "actor": 0, "target": {"player": 1, "stand": 0, "slot": 1}, "value": 2,
       "success": True, "actor_slot": {"stand": 0, "slot": 4}}
FALSE = {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 3, "false": True}


def post_it_row(mission: int | None, events: tuple = ()) -> tuple[dict[str, Any], dict[str, Any]]:
    """The core's Post-it advice on a two-player table, every card unlocked (its refusal comes
    before any mark is scored), and the table."""
    table = {"format": 1, "wires": {"blue": [1, 2, 3]}, "meta": {"mission": mission},
             "players": [{"name": "Ann", "stands": [6]}, {"name": "Bob", "stands": [6]}],
             "me": {"player": 0, "stands": [HANDS[0]]}, "events": [CUT, *events]}
    with pytest.MonkeyPatch.context() as patch:
        cards = tuple(eq.CARDS)
        patch.setattr(Table, "equipment_board", lambda self: eq.BoardState(
            cards, tuple(p.character for p in self.players), {v: 4 for v in [*range(1, 13), "yellow"]}))
        result = suggest(load_table(table), policy=Policy(equipment_budget=None))
    return next(c for c in result["equipment"]["cards"] if c["card"] == "4"), table


def test_the_post_its_refusals_in_every_language(localized, server, language):  # noqa: F811
    page = localized
    open_app(page, server.url)
    m52, m52_table = post_it_row(52)
    unnamed, unnamed_table = post_it_row(None, (FALSE,))
    assert (m52["code"], unnamed["code"]) == ("post_it_all_false", "post_it_false_unnamed")
    shown = page.evaluate("""async (rows) => {
      const { cardsSection } = await import(new URL("js/cardadvice.js", location.href));
      return rows.map(([card, table]) => {
        const screen = { table, playerName: (p) => table.players[p].name, slotName: (s) => `slot ${s.slot + 1}`,
                         state: () => ({}) };
        const advice = { player: 0, moving: true, cards: [card], your_turn_only: [] };
        return cardsSection({ kind: "done", advice }, screen).querySelector(".sug-why").textContent;
      });
    }""", [[m52, m52_table], [unnamed, unnamed_table]])
    assert shown == [words(language, "advice.post_it_all_false", mission=52),
                     words(language, "advice.post_it_false_unnamed", event=2)], shown  # the log's event 2
    if language != "en":  # none of the core's English left
        assert m52["why"] not in shown and unnamed["why"] not in shown
