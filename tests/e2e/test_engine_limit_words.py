"""Engine limits and the search's refusals in the page's language (issue 32 item 4): the core
gives a code and its fields (beliefs.LIMIT_CODES, sim/refusals.py SEARCH_REFUSAL_CODES) beside
its English, and the page words them — a card's note of an engine limit, a card not computed, an
error reply refused by an engine limit, the search's refusal of a table and its reason for not
searching — with no English of the core left on a French or German page."""
from __future__ import annotations

import json

from bombbuster_core.beliefs import EngineLimit
from bombbuster_core.bridge import handle
from bombbuster_core.engines import columns
from bombbuster_core.facts import compile_table
from bombbuster_core.table import load_table

from e2e_helpers import open_app, sample_table, words
from test_languages import language, localized  # noqa: F401 (fixtures)

SMALL = {"players": [{"stands": [5]}] * 4, "wires": {"blue": [1, 2, 3, 4, 5]},
         "me": {"player": 0, "stands": [[1, 2, 3, 4, 5]]}}


def reply(method: str, params: dict) -> dict:
    return json.loads(handle(json.dumps({"id": 1, "method": method, "params": params})))


def a_real_limit() -> EngineLimit:
    """The columns engine's own refusal of the sample table under a budget of 1,000 states."""
    try:
        columns.analyze(compile_table(load_table(sample_table())), budget=1000)
    except EngineLimit as refused:
        return refused
    raise AssertionError("the sample table fits 1,000 states")


def test_engine_limits_and_search_refusals_in_every_language(localized, server, language):  # noqa: F811
    page = localized
    open_app(page, server.url)
    limit = a_real_limit()
    entropy = reply("suggest", {"table": SMALL, "mode": "entropy", "state_budget": 250})["error"]
    unplayed = {**sample_table(), "meta": {**sample_table().get("meta", {}), "rules": ["parity_tokens"]}}
    refused = reply("search", {"table": unplayed})["error"]
    assert (entropy["code"], refused["code"]) == ("entropy_boolean_budget", "rules_not_played")
    shown = page.evaluate("""async ([limit, entropy, refused]) => {
      const { cardsSection } = await import(new URL("js/cardadvice.js", location.href));
      const { incompleteNotes } = await import(new URL("js/suggestions.js", location.href));
      const { engineErrorWords, searchRefusalWords } = await import(new URL("js/ui.js", location.href));
      const { EngineError } = await import(new URL("js/engine.js", location.href));
      const table = { players: [{ name: "Ann", stands: [13] }, { name: "Bob", stands: [13] }] };
      const screen = { table, playerName: (p) => table.players[p].name, slotName: (s) => `slot ${s.slot + 1}`,
                       state: () => ({}) };
      // A card not computed, as suggest/equipment.py gives it: the limit's code and fields, its English in `why`.
      const card = { card: "4", name: "Post-it", source: "card", verdict: "keep", candidates: [],
        why: `not computed: ${limit.message}`, code: "not_computed", fields: { limit: limit.json },
        incomplete: [limit.message], incomplete_why: [{ code: "engine_limit", fields: { limit: limit.json } }] };
      const advice = { player: 0, moving: true, cards: [card], your_turn_only: [] };
      const section = cardsSection({ kind: "done", advice }, screen);
      return {
        why: section.querySelector(".sug-why").textContent,
        notes: incompleteNotes(card.incomplete, card.incomplete_why, table),
        entropy: engineErrorWords(new EngineError(entropy.message, entropy), table),
        refused: engineErrorWords(new EngineError(refused.message, refused), table),
        certain: searchRefusalWords({ code: "certain_move", fields: {} }, table),
      };
    }""", [{"message": str(limit), "json": limit.json()}, entropy, refused])
    states = page.evaluate("async (n) => (await import(new URL('js/ui.js', location.href))).scientific(n)",
                           limit.fields["states"])
    worded_limit = words(language, "limit.states_budget", states=states, budget="1,000" if language == "en" else
                         page.evaluate("(n) => n.toLocaleString(document.documentElement.lang)", 1000))
    assert shown["notes"] == [words(language, "incomplete.engine_limit", reason=worded_limit)], shown
    assert shown["why"] == words(language, "advice.not_computed", reason=worded_limit), shown
    assert shown["entropy"] == words(language, "limit.entropy_boolean_budget", branches=127, budget=250), shown
    assert shown["refused"] == words(language, "search.refused.rules_not_played", rules="parity_tokens",
                                     mode=words(language, "mode.search")), shown
    assert shown["certain"] == words(language, "search.refused.certain_move"), shown
    if language != "en":  # none of the core's English left
        english = [str(limit), entropy["message"], refused["message"], "a certain move", "too large"]
        assert not [text for text in english for said in shown.values()
                    for line in (said if isinstance(said, list) else [said]) if text in line], shown
