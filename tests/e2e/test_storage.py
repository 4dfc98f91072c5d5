"""The page's saved games (web/js/storage.js): a full storage is said on
screen with an export while the game stays open; the history is kept as
events, not whole tables; saved entries that cannot be read (crafted
localStorage of older pages, a malformed IndexedDB record) are named and
everything else is kept; a share link that inflates past the limit is refused
before it is inflated whole."""
from __future__ import annotations

import base64
import json
import zlib

import pytest

from e2e_helpers import action, open_app, sample_table, saved_game, saved_names, slot, tap, touch_phone, value, wait_events, wait_until
from test_companion import share_link

# Every write of the page's storage throws QuotaExceededError while window.__storageFull is true
# (IndexedDB's put and localStorage's setItem: the page before IndexedDB wrote there).
FULL_STORAGE = """(() => {
  const full = () => new DOMException("The quota has been exceeded.", "QuotaExceededError");
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (...args) { if (window.__storageFull) throw full(); return put.apply(this, args); };
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (...args) { if (window.__storageFull) throw full(); return setItem.apply(this, args); };
})();"""

NEW_TOKEN = {"type": "info_token", "at": {"player": 2, "stand": 0, "slot": 0}, "value": 1}
SAVED_EVENTS = "import('./js/storage.js').then((s) => s.storedGame(s.currentGameId())).then((g) => g ? g.table.events.length : -1)"


def record_new_token(page):
    action(page, "info_token")
    slot(page, 2, 0).tap()
    value(page, 1)
    wait_events(page, 4)


def test_a_full_storage_is_said_on_screen_and_the_game_can_be_exported(new_context, server):
    page, errors = touch_phone(new_context)
    page.context.add_init_script(FULL_STORAGE)
    open_app(page, share_link(server.url, sample_table()))
    wait_events(page, 3)
    wait_until(page, f"{SAVED_EVENTS}.then((n) => n === 3)")
    page.evaluate("window.__storageFull = true")
    record_new_token(page)

    # Said plainly, the recorder free again (not "Checking…"), the event in the log.
    notice = page.wait_for_selector("#save-problem")
    assert "could not be saved" in notice.inner_text() and "storage for the page is full" in notice.inner_text()
    assert page.locator(".recorder [data-action='dual_cut']").is_visible()
    assert "Checking" not in page.locator(".recorder").inner_text()
    assert page.locator(".log .events li").count() == 4
    assert page.evaluate(SAVED_EVENTS) == 3  # not on disk: hence the notice

    # The export offered holds the event that could not be saved.
    tap(page, "#save-problem [data-action='export-unsaved']")
    with page.expect_download() as download:
        tap(page, "#sheet [data-action='export-with-wires']")
    with open(download.value.path()) as handle:
        exported = json.load(handle)
    assert exported["events"] == sample_table()["events"] + [NEW_TOKEN]
    tap(page, "#sheet button[aria-label='Close']")

    # Room again: saving again succeeds, the notice goes, and a reload has the event.
    page.evaluate("window.__storageFull = false")
    tap(page, "#save-problem [data-action='save-again']")
    page.wait_for_selector("#save-problem", state="detached")
    assert page.evaluate(SAVED_EVENTS) == 4
    page.reload()
    wait_events(page, 4)
    assert not errors


def test_the_history_is_kept_as_events_not_whole_tables(page, server):
    """40 recorded events and 10 of them undone: the saved game is the table and one event per undone
    step, not 40 earlier tables; read back, every earlier and later table is rebuilt exactly."""
    open_app(page, server.url)
    outcome = page.evaluate("""async () => {
      const s = await import('./js/storage.js');
      const base = { players: [{ name: 'Ann', stands: [13] }, { name: 'Bob', stands: [13] }, { name: 'Cy', stands: [13] }, { name: 'Di', stands: [13] }],
                     wires: { blue: [1,2,3,4,5,6,7,8,9,10,11,12,13] }, events: [] };
      const tables = [base];
      for (let i = 0; i < 40; i++) {
        const last = tables[tables.length - 1];
        tables.push({ ...last, events: [...last.events, { type: 'info_token', at: { player: i % 4, stand: 0, slot: i % 13 }, value: 1 + (i % 13) }] });
      }
      const game = s.newGame(tables[30], 'History');
      game.past = tables.slice(0, 30).map((table, i) => ({ table, label: `Record ${i + 1}` }));
      game.future = tables.slice(31).reverse().map((table, i) => ({ table, label: `Record ${40 - i}` }));
      await s.saveGame(game);
      const record = await s.storedRecord(game.id);
      const back = await s.storedGame(game.id);
      return { stored: JSON.stringify(record).length, table: JSON.stringify(tables[30]).length,
               wholeTables: tables.reduce((sum, t) => sum + JSON.stringify(t).length, 0),
               tables, past: back.past.map((step) => step.table), future: back.future.map((step) => step.table),
               labels: back.past.map((step) => step.label) };
    }""")
    tables = outcome["tables"]
    undone = sum(len(json.dumps(event, separators=(",", ":"))) for event in tables[40]["events"][30:])
    # The table (30 events), the 10 undone events and a few words per step (whole tables: ~20 times the table).
    assert outcome["stored"] < outcome["table"] + undone + 80 * 40, outcome
    assert outcome["wholeTables"] > 15 * outcome["table"]
    assert outcome["past"] == tables[:30]
    assert outcome["future"] == tables[31:][::-1]
    assert outcome["labels"] == [f"Record {i + 1}" for i in range(30)]


# ---------------------------------------------------------------- what cannot be read


def old_game(game_id: str, name: str) -> dict:
    """A game as pages before IndexedDB saved it: whole earlier tables in `past`."""
    table = sample_table()
    earlier = {**table, "events": table["events"][:2]}
    return {"id": game_id, "name": name, "updated": 1, "table": table, "view": "me",
            "past": [{"table": earlier, "label": "Record: Dual cut"}], "future": []}


CRAFTED = {
    "index-not-a-list": ({"bombbuster.games": "{}"}, "good", "old list of saved games"),
    "index-with-null": ({"bombbuster.games": "[null]"}, "good", "old list of saved games"),
    "current-not-a-game": ({"bombbuster.game.bad": json.dumps({"id": "bad", "name": "Broken", "table": {"players": "Ann"}})},
                           "bad", "bombbuster.game.bad"),
    "entry-not-json": ({"bombbuster.game.bad": "{\"id\": \"bad\", \"tab"}, "bad", "bombbuster.game.bad"),
}


@pytest.mark.parametrize("case", CRAFTED)
def test_crafted_local_storage_of_older_pages_is_named_and_the_rest_kept(page, server, case):
    entries, current, named = CRAFTED[case]
    open_app(page, server.url)
    page.evaluate("""([entries, good, current]) => {
      for (const [key, text] of Object.entries(entries)) localStorage.setItem(key, text);
      localStorage.setItem('bombbuster.game.good', JSON.stringify(good));
      localStorage.setItem('bombbuster.current', current);
    }""", [entries, old_game("good", "Old game"), current])
    page.reload()
    notice = page.wait_for_selector("#storage-problems")
    assert named in notice.inner_text()
    assert page.evaluate("localStorage.getItem('bombbuster.game.good')") is None  # moved over
    # The menu works and the readable game is kept with its undo step.
    page.click("#menu-button")
    assert page.locator("#sheet .menu-item[data-action='new']").is_visible()
    assert [page.locator("#sheet .saved-games .game-name").nth(i).inner_text()
            for i in range(page.locator("#sheet .saved-games .game-name").count())] == ["Old game"]
    page.click("#sheet .saved-games .menu-item")
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert page.locator(".log .events li").count() == 3
    page.click(".recorder [data-action='undo']")
    page.wait_for_function("document.querySelectorAll('.log .events li').length === 2")
    if current == "bad":
        # The unreadable entry stays as it was until the player removes it.
        assert page.evaluate("localStorage.getItem('bombbuster.game.bad')") == entries["bombbuster.game.bad"]
        page.click("#storage-problems [data-action='remove-unreadable']")
        page.wait_for_selector("#storage-problems", state="detached")
        assert page.evaluate("localStorage.getItem('bombbuster.game.bad')") is None
    page.reload()
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert not page.locator("#storage-problems").count()
    assert saved_names(page) == ["Old game"]


def test_a_malformed_indexeddb_record_is_named_and_the_rest_kept(page, server):
    open_app(page, share_link(server.url, sample_table()))
    page.wait_for_selector(".analysis-status.ok #worlds")
    wait_until(page, f"{SAVED_EVENTS}.then((n) => n === 3)")
    good = page.evaluate("import('./js/storage.js').then((s) => s.currentGameId())")
    good_name = saved_names(page)[0]
    page.evaluate("""(good) => new Promise((resolve, reject) => {
      const request = indexedDB.open('bombbuster');
      request.onsuccess = () => {
        const tx = request.result.transaction(['games', 'settings'], 'readwrite');
        tx.objectStore('games').put({ id: 'bad', name: 'Broken', table: 7 });
        const table = { players: [{ name: 'Ann', stands: [3] }], wires: { blue: [1] }, events: [] };
        tx.objectStore('games').put({ id: 'no-history', name: 'Lost steps', format: 2, updated: 5, table,
                                      past: [{ label: 'x', patch: { at: 9, remove: 1, insert: [] } }], future: [] });
        tx.objectStore('settings').put('bad', 'current');
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      };
    })""", good)
    page.reload()
    notice = page.wait_for_selector("#storage-problems")
    text = notice.inner_text()
    assert '"Broken" cannot be read' in text and "its table cannot be read" in text
    assert '"Lost steps" its undo history cannot be read' in text
    page.wait_for_selector("#start-game")  # the current game is the broken one: the setup screen, not a blank page
    page.click("#menu-button")
    names = [page.locator("#sheet .saved-games .game-name").nth(i).inner_text()
             for i in range(page.locator("#sheet .saved-games .game-name").count())]
    assert sorted(names) == sorted(["Lost steps", good_name])  # "Broken" is named in the notice, not listed
    page.locator(f"#sheet .saved-games .menu-item[data-game='{good}']").click()
    page.wait_for_selector(".analysis-status.ok #worlds")
    assert page.locator(".log .events li").count() == 3
    page.click("#storage-problems [data-action='remove-unreadable']")
    assert page.evaluate("import('./js/storage.js').then((s) => s.storedRecord('bad'))") is None
    assert saved_game(page)["table"]["events"] == sample_table()["events"]


# ---------------------------------------------------------------- a share link that inflates to far too much

# Counts the bytes the page hands to the inflater and the bytes it gets out of it.
COUNT_INFLATION = """(() => {
  const Inner = window.DecompressionStream;
  window.__inflation = { fed: 0, out: 0 };
  window.DecompressionStream = class {
    constructor(format) {
      const inner = new Inner(format);
      const fed = new TransformStream({ transform(chunk, out) { window.__inflation.fed += chunk.byteLength; out.enqueue(chunk); } });
      fed.readable.pipeTo(inner.writable).catch(() => {});
      this.writable = fed.writable;
      this.readable = inner.readable.pipeThrough(new TransformStream({
        transform(chunk, out) { window.__inflation.out += chunk.byteLength; out.enqueue(chunk); } }));
    }
  };
})();"""


def test_a_share_link_that_inflates_past_the_limit_is_refused_before_it_is_inflated(page, server):
    inflated = 64 * 1024 * 1024
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = squeezer.compress(b"[" + b" " * (inflated - 2) + b"]") + squeezer.flush()
    link = server.url + "#game=z" + base64.urlsafe_b64encode(packed).decode().rstrip("=")
    page.context.add_init_script(COUNT_INFLATION)
    page.goto(link)  # the link is read at once, before the engine is ready: its message is a toast for 10 s
    toast = page.wait_for_selector(".toast.error:has-text('refused')")
    assert "larger than 4 MB" in toast.inner_text()
    limit = page.evaluate("import('./js/storage.js').then((s) => s.SHARED_TABLE_LIMIT)")
    counted = page.evaluate("window.__inflation")
    # Stopped near the limit: a step of compressed input inflates to about a megabyte at most.
    assert counted["out"] <= limit + 2 * 1024 * 1024, counted
    assert counted["fed"] < len(packed) / 4, (counted, len(packed))
    page.wait_for_selector("#start-game")  # nothing opened, nothing saved
    assert saved_names(page) == []
