"""Tap targets during play are at least 44×44 CSS px (issue 10 §3; WCAG 2.5.5, platform guidelines).

At phone size (390×844, touch) the test walks the screens used during play —
the new-game setup with the first-use help, the recorder idle, each kind of recorder step the sample table reaches (who
plays, a wire on the table, the value keypad, a choice, several wires, the
edit form and a field being changed), undo/redo, the suggestions panel, the
game state and the share sheet — and measures every visible, enabled
control (button, link, [role=button], input, select) with
getBoundingClientRect. It fails with the list of offenders: where, what, size.
On the same screens, a control's label must not be cut (an ellipsis turned the
keypad's 10, 11, 12 into "1…" on a phone): its text fits its box, with no word broken but at a soft
hyphen. The walk is made in English, French and German: longer labels must fit too.
"""
from __future__ import annotations

import pytest

from e2e_helpers import WORD_CUT, open_app, sample_table, slot, tap, touch_phone, wait_events
from test_companion import share_link
from test_languages import LOCALES

MIN_PX = 44

CONTROLS = """() => {
  const describe = (e) => {
    const text = (e.getAttribute('aria-label') || e.innerText || e.value || e.title || '').trim().replace(/\\s+/g, ' ').slice(0, 30);
    const data = Object.entries(e.dataset).slice(0, 2).map(([k, v]) => `[data-${k}=${v}]`).join('');
    return `${e.tagName.toLowerCase()}${e.className ? '.' + String(e.className).trim().split(/\\s+/).join('.') : ''}${data} "${text}"`;
  };
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    for (let x = e; x; x = x.parentElement) {
      const style = getComputedStyle(x);
      if (style.visibility === 'hidden' || style.display === 'none' || style.opacity === '0') return false;
    }
    return true;
  };
  // A word broken but at a soft hyphen counts as cut (not in a text box: a share link wraps anywhere by design).
  const wordCut = """ + WORD_CUT + """;
  const controls = document.querySelectorAll("button, a[href], [role='button'], input:not([type='hidden']), select, textarea");
  return [...controls].filter((e) => !e.disabled && shown(e)).map((e) => {
    const r = e.getBoundingClientRect();
    return { what: describe(e), width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10,
             cut: e.tagName !== 'INPUT' && e.tagName !== 'SELECT'
               && (e.scrollWidth > e.clientWidth + 1 || (e.tagName !== 'TEXTAREA' && wordCut(e))) };
  });
}"""


def offenders(page, screen: str) -> tuple[list[str], list[str]]:
    """(controls smaller than MIN_PX, controls whose label does not fit) on the screen shown."""
    controls = page.evaluate(CONTROLS)
    return ([f"{screen}: {c['what']} is {c['width']}×{c['height']} px" for c in controls
             if c["width"] < MIN_PX or c["height"] < MIN_PX],
            [f"{screen}: {c['what']}" for c in controls if c["cut"]])


MORE, CANCEL = ".recorder [data-action='more']", ".recorder [data-action='cancel']"


def act(name: str) -> str:
    return f".recorder [data-action='{name}']"


def opt(value: str) -> str:
    return f".recorder .option[data-value='{value}']"


# From the idle recorder: (screen, the taps that reach it) measured in turn, then the taps back.
# A tap is a selector or (player, slot) of a wire on the table.
WALKS: list[tuple[list[tuple[str, list]], list]] = [
    ([("recorder idle, game state, suggestions", []), ("more actions", [MORE])], [MORE]),
    # a dual cut step by step: the who-row and a wire, the value keypad, the outcome, the token
    ([("step: tap a wire (who-row)", [act("dual_cut")]), ("step: value keypad", [(2, 6)]),
      ("step: choice (outcome)", [opt("6")]), ("step: token keypad", [opt("false")])], [CANCEL]),
    ([("step: player (Coffee Mug: who plays next)", [MORE, act("coffee_mug"), ".recorder .option[data-player='0']"])],
     [CANCEL]),
    ([("step: several wires (Done)", [act("solo_cut"), opt("11")])], [CANCEL]),  # a value the player to move may solo-cut (Ann holds no 11)
    ([("step: radar answers", [MORE, act("radar"), opt("4")])], [CANCEL]),
    ([("step: landing position", [MORE, act("grappling_hook"), (1, 3), ".recorder .option[data-player='0']"])],
     [CANCEL]),
    ([("wire sheet", [(1, 4), "#distribution"])], ["#sheet [data-action='close-sheet']"]),
    ([("edit form", [".log li[data-index='2'] [data-action='edit']"]),
      ("edit: changing a field", [".recorder [data-action='change'][data-field='token']"])], [CANCEL]),
    ([("menu", ["#menu-button"]), ("share sheet", [".menu-item[data-action='share']", "#share-qr svg"])], []),
]


def tap_each(page, taps: list) -> None:
    for target in taps:
        if isinstance(target, tuple):
            slot(page, *target).tap()
        elif page.locator(target).first.evaluate("(e) => e instanceof HTMLButtonElement"):
            tap(page, target)
        else:  # something to wait for: a sheet's content
            page.wait_for_selector(target)


@pytest.mark.parametrize("language", list(LOCALES))
def test_every_control_used_during_play_is_at_least_44_px_and_shows_its_label(new_context, server, language):
    small: list[str] = []
    cut: list[str] = []

    def measure(page, screen: str) -> None:
        too_small, too_narrow = offenders(page, screen)
        small.extend(too_small)
        cut.extend(too_narrow)
        if page.evaluate("document.documentElement.scrollWidth > innerWidth"):  # something pushed past the edge
            cut.append(f"{screen}: the page scrolls sideways")

    # A first visit: the help card above the new-game setup (mission, names, colours, my wires).
    setup, setup_errors = touch_phone(new_context, locale=LOCALES[language])
    open_app(setup, server.url)
    setup.wait_for_selector(".help-card [data-action='help-skip']")
    setup.wait_for_selector("#start-game")
    measure(setup, "setup with the first-use help")
    tap(setup, "[data-action='help-next']")
    measure(setup, "first-use help, screen 2")
    assert not setup_errors

    page, errors = touch_phone(new_context, locale=LOCALES[language])
    open_app(page, share_link(server.url, sample_table()))
    wait_events(page, 3)
    if page.locator("[data-action='help-skip']").count():
        tap(page, "[data-action='help-skip']")
    for screens, back in WALKS:
        for screen, taps in screens:
            tap_each(page, taps)
            measure(page, screen)
        tap_each(page, back)
    assert not small, "controls smaller than 44×44 px:\n" + "\n".join(small)
    assert not cut, "controls whose label is cut:\n" + "\n".join(cut)
    assert not errors
