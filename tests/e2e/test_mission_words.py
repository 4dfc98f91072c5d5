"""The mission picker in English, French and German (docs/i18n.md), in real Chromium: a mission's
summary and its rule tags are worded from web/js/i18n/missions-LANG.json in the page's language —
mission 20 (the X slot) and mission 11 (a Number card's wires count as red; 2 players: the Captain
places no setup token) — with no key missing and, on a French or German page, none of the core's
English summaries on screen.
(The files' keys, placeholders and the English summaries against the core: tests/test_i18n_missions.py.)"""
from __future__ import annotations

import json

import pytest

from bombbuster_core.missions import BY_NUMBER
from e2e_helpers import ROOT, open_app, words
from test_languages import LOCALES, language, localized  # noqa: F401  (fixtures: a page in each language)

MISSIONS = (20, 11)


def mission_words(language: str) -> dict[str, str]:
    return json.loads((ROOT / "web" / "js" / "i18n" / f"missions-{language}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("mission", MISSIONS)
def test_the_mission_picker_speaks_the_pages_language(localized, server, language, mission):
    page = localized
    own = mission_words(language)
    open_app(page, server.url)
    page.wait_for_selector("#mission:not([disabled])")
    page.select_option("#mission", str(mission))
    summary = page.wait_for_selector(".mission-summary")
    assert summary.inner_text() == own[f"mission.summary.{mission}"]
    rules = ", ".join(own[f"mission.rule.{tag}"] for tag in BY_NUMBER[mission].rule_tags())
    assert page.locator(".mission-rules").inner_text() == words(language, "setup.rules", rules=rules)
    assert page.evaluate("[...window.bombbusterI18n.missing]") == []
    if language != "en":
        shown = page.evaluate("document.body.innerText")
        english = [m.summary for m in BY_NUMBER.values() if m.summary in shown]
        assert english == [], f"English summaries on the {LOCALES[language]} page: {english}"
        assert "_" not in page.locator(".mission-rules").inner_text()
