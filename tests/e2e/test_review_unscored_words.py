"""A review's decision that is not scored says why in the page's language (390x844, en/fr/de): the
core's not_scored_why (review.py NOT_SCORED_CODES) worded by review.js from review.why.CODE, not the
core's English not_scored."""
from __future__ import annotations

import json
from pathlib import Path

from e2e_helpers import words
from test_languages import language, localized  # noqa: F401 (fixtures)
from test_review_page import open_review

ROOT = Path(__file__).resolve().parents[2]
M4 = json.loads((ROOT / "tests" / "data" / "review_m4.json").read_text(encoding="utf-8"))["table"]


def test_a_card_use_is_not_scored_in_the_pages_language(localized, server, language, tmp_path):  # noqa: F811
    page = localized
    table = dict(M4, events=[*M4["events"], {"type": "equipment", "card": "6", "actor": 0}])
    open_review(page, server.url, table, tmp_path)
    last = str(len(table["events"]) - 1)
    while page.locator(".review-card").get_attribute("data-event") != last:
        page.click("[data-action='review-next']")
    name = page.evaluate("""async () => {
      const { cardName } = await import(new URL("js/equipment.js", location.href));
      return cardName("6");
    }""")
    shown = page.locator(".review-card [data-field='cost']").inner_text()
    assert shown == words(language, "review.notScored", reason=words(language, "review.why.card_use", cards=name))
    if language != "en":
        assert "ranking does not score" not in shown
