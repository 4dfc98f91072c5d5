"""Error replies that name no fact of the table, in the page's language (issue 32 item 4): a table
file nested deeper than the core reads is refused on import in the player's words (`error.too_deep`),
and a simulator error that is no refusal of the table (here a malformed lookahead request, through a
real worker) is framed as one, its English kept only as the detail for a report
(`search.refused.simulator_error`). Before, both showed the core's English on every page."""
from __future__ import annotations

import json

from e2e_helpers import engine_ready, open_app, sample_table, words
from test_languages import language, localized  # noqa: F401 (fixtures)

DEPTH = 64  # bombbuster_core/jsonio.py MAX_DEPTH


def test_a_table_nested_too_deeply_is_refused_in_the_page_language(localized, server, language, tmp_path):  # noqa: F811
    page = localized
    open_app(page, server.url)
    engine_ready(page)
    table = sample_table()
    deep: list = []
    for _ in range(DEPTH + 1):
        deep = [deep]
    table["meta"] = {**table.get("meta", {}), "note": deep}
    path = tmp_path / "deep.bombbuster.json"
    path.write_text(json.dumps(table))
    page.set_input_files("#import-file", str(path))
    shown = page.wait_for_selector(".toast.error").inner_text()
    reason = words(language, "error.too_deep", limit=DEPTH)
    assert shown == words(language, "table.cannotUse", reason=reason), shown


def test_a_simulator_error_is_framed_in_the_page_language(localized, server, language):  # noqa: F811
    page = localized
    open_app(page, server.url)
    engine_ready(page)
    got = page.evaluate("""async (table) => {
      const { engineErrorWords } = await import(new URL("js/ui.js", location.href));
      try {
        await window.bombbuster.lookahead(table, { deals: 0 });
        return { answered: true };
      } catch (e) {
        return { code: e.code, fields: e.fields, message: e.message, shown: engineErrorWords(e, table) };
      }
    }""", sample_table())
    assert got.get("code") == "simulator_error", got
    assert got["fields"] == {"detail": got["message"]} and "'deals'" in got["message"]
    assert got["shown"] == words(language, "search.refused.simulator_error", detail=got["message"]), got
