"""The game screen fits in every language, upright (390×844) and sideways (844×390): the recorder's
action buttons, its undo row and its "more actions" grid stay inside the recorder with no label cut
(longer French and German labels once widened the grid's columns — "Doppelschnitt", "Rote Kabel
aufdecken" — pushing the fourth action and "Wiederholen" past the screen's right edge), and each line
of the game state keeps its label beside its value ("Ausrüstung freigeschaltet" once left "noch keine"
alone on the next line)."""
from __future__ import annotations

import pytest

from e2e_helpers import WORD_CUT, engine_ready, sample_table
from test_companion import share_link
from test_languages import LOCALES, language  # noqa: F401 (fixture)

VIEWPORTS = {"upright": {"width": 390, "height": 844}, "sideways": {"width": 844, "height": 390}}

# Every shown button of the recorder's action grid and undo row: its box inside the recorder's, its
# label inside its box (no sideways or downward overflow), and no sideways scroll of the page.
OUT_OF_PLACE = """() => {
  const recorder = document.querySelector('.recorder');
  const edge = recorder.getBoundingClientRect();
  const buttons = [...recorder.querySelectorAll('.record-buttons button, .undo-redo button')]
    .filter((b) => b.getBoundingClientRect().width > 0);
  const wordCut = """ + WORD_CUT + """;
  const bad = buttons.filter((b) => {
    const r = b.getBoundingClientRect();
    return r.left < edge.left - 0.5 || r.right > edge.right + 0.5
      || b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1 || wordCut(b);
  }).map((b) => b.innerText.replace(/\\s+/g, ' '));
  const page = document.documentElement.scrollWidth > innerWidth ? ['the page scrolls sideways'] : [];
  return { count: buttons.length, bad: [...bad, ...page] };
}"""


# The game state's labels whose value begins on a later line than the label ends.
LABELS_APART = """() => [...document.querySelectorAll('.game-state .state-label')].filter((label) => {
  const value = label.nextElementSibling;
  return value && value.getBoundingClientRect().top >= label.getBoundingClientRect().bottom - 1;
}).map((label) => label.innerText)"""


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_recorders_buttons_fit_in_every_language(new_context, server, language, viewport):  # noqa: F811
    page = new_context(viewport=VIEWPORTS[viewport], locale=LOCALES[language], has_touch=True, is_mobile=True).new_page()
    page.goto(share_link(server.url, sample_table()))
    engine_ready(page)
    page.wait_for_selector(".recorder .record-buttons button")
    if page.locator("[data-action='help-skip']").count():  # the first visit's help card
        page.click("[data-action='help-skip']")
    shown = page.evaluate(OUT_OF_PLACE)
    assert shown["count"] >= 7 and shown["bad"] == [], (language, viewport, shown)  # 4 actions, detector, more, undo, redo
    assert page.evaluate(LABELS_APART) == [], (language, viewport)
    page.click(".recorder [data-action='more']")
    page.wait_for_selector(".recorder .record-buttons.all-actions")
    shown = page.evaluate(OUT_OF_PLACE)
    assert shown["count"] >= 10 and shown["bad"] == [], (language, viewport, "more actions", shown)
