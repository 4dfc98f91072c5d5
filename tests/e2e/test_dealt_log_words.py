"""A `dealt` event (M13/M41/M48: how many wires of a colour a hand was dealt) in the log, in the page's
language: the colour is worded from the catalogue (`option.red`, `option.yellow`), as the note beside
the stand words it, not written as the file's identifier ("Bob a reçu 2 red" before)."""
from __future__ import annotations

from e2e_helpers import open_app, words
from test_languages import language, localized  # noqa: F401 (fixtures)

TABLE = {"format": 1, "wires": {"blue": [1, 2, 3], "red": [1.5, 2.5], "yellow": [2.1]},
         "meta": {"mission": 13},
         "players": [{"name": "Ann", "stands": [8]}, {"name": "Bob", "stands": [7]}],
         "events": [{"type": "dealt", "player": 1, "value": "red", "count": 2},
                    {"type": "dealt", "player": 0, "value": "yellow", "count": 1}]}


def test_a_dealt_colour_is_worded_in_the_log(localized, server, language):  # noqa: F811
    page = localized
    open_app(page, server.url)
    shown = page.evaluate("""async (table) => {
      const { describeEvent } = await import(new URL("js/model.js", location.href));
      return table.events.map((event) => describeEvent(event, table));
    }""", TABLE)
    assert shown == [words(language, "log.dealt", who="Bob", n=2, value=words(language, "option.red")),
                     words(language, "log.dealt", who="Ann", n=1, value=words(language, "option.yellow"))], shown
