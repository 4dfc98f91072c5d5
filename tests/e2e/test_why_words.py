"""A suggestion's reason in the page's language (issue 32 item 4): the core gives each why-text a
kind (``why_code``, suggest/ranking.py WHY_CODES) and the page words it from the move's own fields —
a certain detector use, a call at the dial's last space (issue 34's "the next failure loses"), a
futile move ranked as a pass — with none of the core's English left on a French or German page.

The rows are the core's own output: records of tests/data/suggest_recorded.jsonl.gz, which
tests/test_suggest_recorded.py checks byte for byte against the current core."""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from e2e_helpers import open_app, words
from test_languages import language, localized  # noqa: F401 (fixtures)

RECORDED = Path(__file__).resolve().parents[1] / "data" / "suggest_recorded.jsonl.gz"
CONDITION = " [condition]"  # what the panel's condition() says (a player's name and chance: tested elsewhere)


def recorded_row(name: str, code: str, kind: str | None = None, conditional: bool = False) -> dict[str, Any]:
    with gzip.open(RECORDED, "rt", encoding="utf-8") as f:
        record = next(r for r in map(json.loads, f) if r["name"] == name)
    return next(s for s in json.loads(record["output"])["suggestions"]
                if s["why_code"] == code and (kind is None or s["kind"] == kind)
                and (s["p_legal"] < 1) == conditional)


def test_the_reasons_of_suggestions_in_every_language(localized, server, language):  # noqa: F811
    page = localized
    open_app(page, server.url)
    detector = recorded_row("full-62", "certain", "double_detector")
    last = recorded_row("basic-34", "last_space", conditional=True)
    futile = recorded_row("basic-0", "futile")
    shown = page.evaluate("""async ([rows, condition]) => {
      const { SuggestionsPanel, riskText } = await import(new URL("js/suggestions.js", location.href));
      const panel = { condition: (s) => (s.p_legal < 1 ? condition : "") };
      return { texts: rows.map((s) => SuggestionsPanel.prototype.whyText.call(panel, s, 0.05)),
               p: riskText(rows[1].p_success) };
    }""", [[detector, last, futile], CONDITION])
    assert shown["texts"] == [
        words(language, "sug.why.certainOneOf", values=detector["value"]),
        words(language, "sug.why.lastSpace", p=shown["p"]) + "; " + words(language, "sug.why.legalOnly",
                                                                          condition=CONDITION),
        words(language, "sug.why.futile"),
    ], shown
    if language != "en":  # none of the core's English left
        english = [detector["why"], "next failure", "cannot succeed", "one of these wires"]
        assert not [text for text in english for said in shown["texts"] if text in said], shown
