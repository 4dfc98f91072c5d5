"""Helpers shared by the end-to-end tests: opening the app, the CLI's answer
for a table, screenshots under tests/artifacts/, a sample 4-player table, and
tapping through the page on a touch phone (slots, actions, values, the log)."""
from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conftest import PHONE, SIGNAL_CAP_MS

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"


def open_app(page, url: str) -> None:
    """Load the app and wait until the engine answers."""
    page.goto(url)
    engine_ready(page)


def engine_ready(page) -> None:
    """After a load or reload: wait until the page's API exists (it is set once the page's language
    catalogue is in) and its engine answers."""
    page.wait_for_function("window.bombbuster !== undefined")
    page.evaluate("window.bombbuster.ready")
    page.wait_for_selector("#engine-status[data-state='ready']", state="attached")


def cli(command: str, table: dict, *options: str) -> dict:
    """What `python -m bombbuster_core COMMAND TABLE.json OPTIONS` prints for this table."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(table, handle)
    try:
        # The CLI exits non-zero for an inconsistent table but still prints its JSON.
        done = subprocess.run([sys.executable, "-m", "bombbuster_core", command, handle.name, *options],
                              cwd=ROOT, capture_output=True, text=True)
    finally:
        os.unlink(handle.name)
    if not done.stdout.strip():
        raise AssertionError(f"the CLI printed nothing (exit {done.returncode}): {done.stderr}")
    return json.loads(done.stdout)


def cli_analyze(table: dict, view_public: bool = False) -> dict:
    """What `python -m bombbuster_core analyze TABLE.json` prints for this table (or its public view)."""
    return cli("analyze", {k: v for k, v in table.items() if k != "me"} if view_public else table)


def cli_suggest(table: dict, *options: str) -> dict:
    """What `python -m bombbuster_core suggest TABLE.json --top all --no-cards OPTIONS` prints:
    every suggestion, as the worker lists them (the CLI alone prints the first 20), without the
    card advice, which the worker gives only when asked (bridge "cards")."""
    return cli("suggest", table, "--top", "all", "--no-cards", *options)


def export_table(page) -> dict:
    """The table file the page's menu exports."""
    page.click("#menu-button")
    with page.expect_download() as download:
        page.click(".menu-item[data-action='export']")
        # A table with my wires asks first (it would show my hand): the helper exports it whole.
        if page.locator("[data-action='export-with-wires']").count():
            page.click("[data-action='export-with-wires']")
    with open(download.value.path()) as handle:
        table = json.load(handle)
    page.click("#sheet [data-action='close-sheet']")
    return table


def words(language: str, key: str, **fields) -> str:
    """The page's message `key` in `language` (web/js/i18n/LANG.json), each {name} filled as t() does."""
    with open(ROOT / "web" / "js" / "i18n" / f"{language}.json", encoding="utf-8") as handle:
        template = json.load(handle)[key]
    return re.sub(r"\{(\w+)\}", lambda m: str(fields[m.group(1)]) if m.group(1) in fields else m.group(0), template)


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def sample_table() -> dict:
    """A 4-player table (Y2 R1) seen by Ann, with a few public events."""
    return {
        "players": [{"name": "Ann", "stands": [13]}, {"name": "Bob", "stands": [13]},
                    {"name": "Cy", "stands": [13]}, {"name": "Di", "stands": [12]}],
        "wires": {"blue": list(range(1, 13)), "yellow": [3.1, 8.1], "red": [5.5]},
        "me": {"player": 0, "stands": [[1, 1, 2, 3, 3.1, 4, 5, 6, 7, 8, 9, 10, 12]]},
        "events": [
            {"type": "info_token", "at": {"player": 1, "stand": 0, "slot": 0}, "value": 1},
            {"type": "info_token", "at": {"player": 2, "stand": 0, "slot": 12}, "value": 12},
            {"type": "dual_cut", "actor": 0, "target": {"player": 3, "stand": 0, "slot": 0}, "value": 1,
             "success": False, "token": 2},
        ],
    }


def saved_game(page) -> dict | None:
    """The current game as it is on the device's disk (web/js/storage.js, IndexedDB), read afresh."""
    return page.evaluate("async () => { const s = await import('./js/storage.js'); return s.storedGame(s.currentGameId()); }")


def saved_names(page) -> list[str]:
    """The names of the saved games, most recently changed first, as the menu lists them."""
    return page.evaluate("async () => (await import('./js/storage.js')).listGames().map((g) => g.name)")


def wait_until(page, expression: str, timeout_s: float = SIGNAL_CAP_MS / 1000) -> None:
    """Poll an expression that may return a Promise (wait_for_function treats a
    Promise as truthy at once) until it is truthy (the cap only stops a hung page)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for: {expression}")
        time.sleep(0.25)


# ---------------------------------------------------------------- tapping through the page (phone tests)

def js(value) -> str:
    """A value as the page's data-value attribute holds it (JSON.stringify)."""
    return json.dumps(value, separators=(",", ":"))


# A JS function: whether a control's label has a word broken but at a soft hyphen ("Wenige-r"), i.e.
# whether it overflows once the CSS's last resort (overflow-wrap) is turned off.
WORD_CUT = """(e) => {
  const before = e.style.overflowWrap;
  e.style.overflowWrap = 'normal';
  const cut = e.scrollWidth > e.clientWidth + 1;
  e.style.overflowWrap = before;
  return cut;
}"""


def touch_phone(new_context, **options):
    """A page on a touch phone (390x844; ``options``: the context's others, e.g. its locale) and the list
    of its page errors."""
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, **options)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


# The page drops a tap that lands within 20 px of the previous one, on another kind of control, before
# the screen under it has been shown for a reaction time (web/js/game.js: the second tap of a double tap).
# A player reads the new step before tapping it: the helpers tap the same spot again once the screen says
# such a tap is taken (.game[data-taps-from], in the page's performance.now() time).
DOUBLE_TAP_PX = 20
TAPS_TAKEN = """() => { const screen = document.querySelector('.game');
  return !screen || performance.now() >= Number(screen.dataset.tapsFrom); }"""
last_taps: dict[int, tuple[float, float]] = {}


def finger_tap(locator) -> None:
    box = locator.bounding_box()
    point = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2) if box else (-100.0, -100.0)
    last = last_taps.get(id(locator.page))
    if last and math.dist(point, last) < DOUBLE_TAP_PX:
        locator.page.wait_for_function(TAPS_TAKEN)
    locator.tap()
    last_taps[id(locator.page)] = point


def tap(page, selector):
    finger_tap(page.locator(selector).first)


def slot(page, player, index, stand=0):
    return page.locator(f".table .slot[data-player='{player}'][data-stand='{stand}'][data-slot='{index}']")


PAGE_STATE = """() => {
  const text = (selector) => { const e = document.querySelector(selector); return e ? e.innerText.slice(0, 300) : null; };
  const recorder = document.querySelector('.recorder');
  return { events: document.querySelectorAll('.log .events li').length,
           step: recorder && recorder.dataset.step, recorder: text('.recorder'),
           status: text('.analysis-status'), suggestions: (document.querySelector('.suggestions') || {}).dataset };
}"""


SUGGESTIONS_SETTLED = "!document.querySelector(\".suggestions[data-state='busy']\")"


def wait_events(page, count):
    """Until the log holds ``count`` events (no refusal), the analysis is back
    and the suggestions have settled (their arrival moves what lies below)."""
    try:
        page.wait_for_function(
            f"document.querySelectorAll('.log .events li').length === {count} || document.querySelector('.refusal')")
    except Exception as error:  # say what the page was doing, not only "timeout"
        raise AssertionError(f"waiting for {count} events: {page.evaluate(PAGE_STATE)}") from error
    refusal = page.locator(".recorder .refusal")
    assert not refusal.count(), refusal.inner_text()
    page.wait_for_selector(".analysis-status.ok #worlds")
    page.wait_for_function(SUGGESTIONS_SETTLED)


def action(page, name):
    """Start recording an action: its button, opening "More actions" when it is not shown.
    First the suggestions settle: a list arriving above the recorder moves it under a tap."""
    page.wait_for_function(SUGGESTIONS_SETTLED)
    button = page.locator(f".recorder button[data-action='{name}']")
    if not button.count():
        tap(page, ".recorder [data-action='more']")
    finger_tap(button.first)


def value(page, v):
    tap(page, f".recorder .option[data-value='{js(v)}']")


def start_without_following_the_equipment(page) -> dict:
    """At setup, once the equipment is shown: "Don't follow the equipment", nobody's view, start; once
    the analysis is back, the table file the menu exports, which lists no board."""
    tap(page, "[data-action='skip-equipment']")
    page.wait_for_function("!document.querySelector('.setup .warn')")  # start is refused while a warning shows
    tap(page, ".chip[data-me='none']")
    tap(page, "#start-game")
    page.wait_for_selector(".analysis-status.ok #worlds")
    table = export_table(page)
    assert "equipment" not in table
    return table
