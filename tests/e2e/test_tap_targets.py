"""Tap targets during play are at least 44×44 CSS px (issue 10 §3; WCAG 2.5.5, platform guidelines).

At phone size (390×844, touch) the test walks the screens used during play —
the new-game setup with the first-use help, the recorder idle, each kind of recorder step the sample table reaches (who
plays, a wire on the table, the value keypad, a choice, several wires, the
edit form and a field being changed), undo/redo, the suggestions panel, the
game state and the share sheet — and measures every visible, enabled
control (button, link, [role=button], input, select) with
getBoundingClientRect. It fails with the list of offenders: where, what, size.
"""
from __future__ import annotations

from e2e_helpers import open_app, sample_table, slot, tap, touch_phone, wait_events
from test_companion import share_link

MIN_PX = 44

SMALL_CONTROLS = """(min) => {
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
  const controls = document.querySelectorAll("button, a[href], [role='button'], input:not([type='hidden']), select, textarea");
  return [...controls].filter((e) => !e.disabled && shown(e)).map((e) => {
    const r = e.getBoundingClientRect();
    return { what: describe(e), width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10 };
  }).filter((c) => c.width < min || c.height < min);
}"""


def offenders(page, screen: str) -> list[str]:
    return [f"{screen}: {c['what']} is {c['width']}×{c['height']} px" for c in page.evaluate(SMALL_CONTROLS, MIN_PX)]


def test_every_control_used_during_play_is_at_least_44_px(new_context, server):
    small: list[str] = []
    # A first visit: the help card above the new-game setup (mission, names, colours, my wires).
    setup, setup_errors = touch_phone(new_context)
    open_app(setup, server.url)
    setup.wait_for_selector(".help-card [data-action='help-skip']")
    setup.wait_for_selector("#start-game")
    small += offenders(setup, "setup with the first-use help")
    tap(setup, "[data-action='help-next']")
    small += offenders(setup, "first-use help, screen 2")
    assert not setup_errors

    page, errors = touch_phone(new_context)
    open_app(page, share_link(server.url, sample_table()))
    wait_events(page, 3)
    if page.locator("[data-action='help-skip']").count():
        tap(page, "[data-action='help-skip']")
    small += offenders(page, "recorder idle, game state, suggestions")
    tap(page, ".recorder [data-action='more']")
    small += offenders(page, "more actions")
    tap(page, ".recorder [data-action='more']")

    # A dual cut, step by step: the who-row and a wire on the table, the value keypad, the outcome, the token.
    tap(page, ".recorder [data-action='dual_cut']")
    small += offenders(page, "step: tap a wire (who-row)")
    slot(page, 2, 6).tap()
    small += offenders(page, "step: value keypad")
    tap(page, ".recorder .option[data-value='6']")
    small += offenders(page, "step: choice (outcome)")
    tap(page, ".recorder .option[data-value='false']")
    small += offenders(page, "step: token keypad")
    tap(page, ".recorder [data-action='cancel']")

    # A player step (Coffee Mug: who plays next) and a several-wires step (solo cut).
    tap(page, ".recorder [data-action='more']")
    tap(page, ".recorder [data-action='coffee_mug']")
    tap(page, ".recorder .option[data-player='0']")
    small += offenders(page, "step: player")
    tap(page, ".recorder [data-action='cancel']")
    tap(page, ".recorder [data-action='solo_cut']")
    tap(page, ".recorder .option[data-value='1']")
    small += offenders(page, "step: several wires (Done)")
    tap(page, ".recorder [data-action='cancel']")

    # Radar answers (yes/no per stand) and a landing position (Grappling Hook).
    tap(page, ".recorder [data-action='more']")
    tap(page, ".recorder [data-action='radar']")
    tap(page, ".recorder .option[data-value='4']")
    small += offenders(page, "step: radar answers")
    tap(page, ".recorder [data-action='cancel']")
    tap(page, ".recorder [data-action='more']")
    tap(page, ".recorder [data-action='grappling_hook']")
    slot(page, 1, 3).tap()
    tap(page, ".recorder .option[data-player='0']")
    small += offenders(page, "step: landing position")
    tap(page, ".recorder [data-action='cancel']")

    # A wire's sheet (tap a wire with nothing being recorded).
    slot(page, 1, 4).tap()
    page.wait_for_selector("#distribution")
    small += offenders(page, "wire sheet")
    tap(page, "#sheet button[aria-label='Close']")

    # The edit form, and one field being changed.
    tap(page, ".log li[data-index='2'] [data-action='edit']")
    small += offenders(page, "edit form")
    tap(page, ".recorder [data-action='change'][data-field='token']")
    small += offenders(page, "edit: changing a field")
    tap(page, ".recorder [data-action='cancel']")

    # The share sheet.
    tap(page, "#menu-button")
    small += offenders(page, "menu")
    tap(page, ".menu-item[data-action='share']")
    page.wait_for_selector("#share-qr svg")
    small += offenders(page, "share sheet")
    assert not small, "controls smaller than 44×44 px:\n" + "\n".join(small)
    assert not errors
