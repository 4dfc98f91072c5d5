"""The page's message catalogues (web/js/i18n/LANG.json, docs/i18n.md): the same keys and the
same {placeholders} in every language; every key the page's code asks for is in them, and every
key in them is asked for somewhere (a literal key, or a key built from a template such as
`field.${name}`); every reason code the core can emit has its entry (an inconsistent analysis's,
a card advice's, a refused table's, a search's note of what it left out, why a player may use no
card), and so has every mission's note on the dial."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Iterable

import pytest

from bombbuster_core.analysis import REASON_CODES
from bombbuster_core.beliefs import LIMIT_CODES
from bombbuster_core.bridge import BRIDGE_ERROR_CODES, TABLE_REFUSAL_CODES
from bombbuster_core.sim.refusals import SEARCH_REFUSAL_CODES
from bombbuster_core.equipment import REFUSAL_CODES as EQUIPMENT_REFUSAL_CODES
from bombbuster_core.suggest.advice import ADVICE_CODES, BARRED_CODES
from bombbuster_core.suggest.notes import INCOMPLETE_CODES
from bombbuster_core.table_fields import TABLE_CODES

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = ROOT / "web" / "js" / "i18n"
LANGUAGES = ("en", "fr", "de")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# t("key"), tn("key", n), has("key"), and the same with a template literal (`field.${name}`).
CALL = re.compile(r"(?<![\w.])(t|tn|has)\(\s*(\"([^\"]+)\"|`([^`]+)`)")
# A key chosen by a condition (t(won ? "over.won" : "over.lost")) is a string literal of its own.
LITERAL = re.compile(r"\"([a-z][\w-]*(?:\.[\w-]+)+)\"")


def catalogue(language: str) -> dict[str, str]:
    return json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))


def unworded(language: str, prefix: str, codes: Iterable[str]) -> list[str]:
    """The codes the language's catalogue has no ``PREFIX.CODE`` key for."""
    words = catalogue(language)
    return [code for code in codes if f"{prefix}.{code}" not in words]


def source_of(paths: Iterable[Path]) -> str:
    """The files' text, joined: where a test looks for the sites that give a code."""
    return " ".join(path.read_text(encoding="utf-8") for path in paths)


def page_sources() -> list[Path]:
    return sorted((ROOT / "web" / "js").rglob("*.js"))


def asked_for() -> tuple[set[str], set[str], list[re.Pattern[str]]]:
    """The keys the page asks for by name (t("key")), every dotted string the page's code holds
    (a key chosen by a condition), and patterns for the keys built from templates."""
    literal: set[str] = set()
    mentioned: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for path in page_sources():
        code = path.read_text(encoding="utf-8")
        mentioned.update(LITERAL.findall(code))
        for function, _, plain, template in CALL.findall(code):
            suffixes = (".one", ".other") if function == "tn" else ("",)
            if plain:
                literal.update(plain + suffix for suffix in suffixes)
            else:
                parts = re.split(r"\$\{[^}]*\}", template)
                body = r"[\w-]+".join(re.escape(part) for part in parts)
                patterns.extend(re.compile(body + re.escape(suffix)) for suffix in suffixes)
    shell = (ROOT / "web" / "index.html").read_text(encoding="utf-8")
    literal.update(re.findall(r'data-i18n(?:-[\w-]+)?="([^"]+)"', shell))
    return literal, mentioned | literal, patterns


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_language_has_the_same_keys_and_placeholders(language: str) -> None:
    english, other = catalogue("en"), catalogue(language)
    assert sorted(set(english) - set(other)) == [], f"missing in {language}"
    assert sorted(set(other) - set(english)) == [], f"only in {language}"
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (language, key)
        assert other[key].strip(), (language, key)


def test_every_key_asked_for_is_in_the_catalogue() -> None:
    literal, _, _ = asked_for()
    assert sorted(literal - set(catalogue("en"))) == []


def test_every_key_in_the_catalogue_is_asked_for() -> None:
    _, mentioned, patterns = asked_for()
    unused = [key for key in catalogue("en")
              if key not in mentioned and not any(pattern.fullmatch(key) for pattern in patterns)]
    assert unused == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_reason_code_of_the_core_is_worded(language: str) -> None:
    assert unworded(language, "reason", REASON_CODES) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_advice_code_is_worded(language: str) -> None:
    words = catalogue(language)
    worded = [code for code in ADVICE_CODES
              if f"advice.{code}" in words or {f"advice.{code}.one", f"advice.{code}.other"} <= set(words)]
    assert sorted(set(ADVICE_CODES) - set(worded)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_incomplete_note_and_barred_code_is_worded(language: str) -> None:
    """A note of what a search left out (suggest/notes.py INCOMPLETE_CODES) and why a player may
    use no card (suggest/advice.py BARRED_CODES)."""
    assert unworded(language, "incomplete", INCOMPLETE_CODES) == []
    assert unworded(language, "barred", BARRED_CODES) == []


def test_every_incomplete_note_code_is_given_somewhere() -> None:
    """Each note code is given at an ``add("code", ...)`` in suggest/ (Notes.add takes a listed code
    only); the barred codes are told apart by whether the character is out too (advice.barred_why)."""
    source = source_of((ROOT / "bombbuster_core" / "suggest").glob("*.py"))
    assert [code for code in INCOMPLETE_CODES if f'add("{code}"' not in source] == []
    assert len(BARRED_CODES) == 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_limit_code_is_worded(language: str) -> None:
    """An engine limit (beliefs.LIMIT_CODES): an incomplete note's, a card not computed, an error reply."""
    assert unworded(language, "limit", LIMIT_CODES) == []


def test_every_engine_limit_code_is_given_somewhere() -> None:
    """Each limit code is named where an engine (or the entropy mode) raises it (EngineLimit takes a listed code only)."""
    core = ROOT / "bombbuster_core"
    source = source_of([*(core / "engines").rglob("*.py"), core / "suggest" / "entropy.py"])
    assert [code for code in LIMIT_CODES if f'"{code}"' not in source] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_search_refusal_code_is_worded(language: str) -> None:
    """Why the search did not run or the search/lookahead refused a table (sim/refusals.py)."""
    assert unworded(language, "search.refused", SEARCH_REFUSAL_CODES) == []


def test_every_search_refusal_code_is_given_somewhere() -> None:
    """Each search refusal code is given where the refusal is made (Refusal takes a listed code only):
    in the simulator, the review, or refusals.py's own ``coded`` (its list left out)."""
    core = ROOT / "bombbuster_core"
    refusals = (core / "sim" / "refusals.py").read_text(encoding="utf-8")
    listed = refusals[refusals.index("SEARCH_REFUSAL_CODES = ("):refusals.index("\n)\n", refusals.index("SEARCH_REFUSAL_CODES = ("))]
    source = refusals.replace(listed, "") + source_of(
        path for path in [*(core / "sim").glob("*.py"), core / "review.py"] if path.name != "refusals.py")
    assert [code for code in SEARCH_REFUSAL_CODES if f'"{code}"' not in source] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_bridge_error_code_is_worded(language: str) -> None:
    """The bridge's own coded error replies (a table too deep or too long, a bug at its boundary)."""
    assert unworded(language, "error", BRIDGE_ERROR_CODES) == []


def test_every_bridge_error_code_is_given_somewhere() -> None:
    """Each is given at a raise site: the JSON reader's or the bridge's (outside the list)."""
    core = ROOT / "bombbuster_core"
    bridge = (core / "bridge.py").read_text(encoding="utf-8")
    listed = bridge[bridge.index("BRIDGE_ERROR_CODES = ("):bridge.index(")\n", bridge.index("BRIDGE_ERROR_CODES = ("))]
    source = bridge.replace(listed, "") + (core / "jsonio.py").read_text(encoding="utf-8")
    assert [code for code in BRIDGE_ERROR_CODES if f'"{code}"' not in source] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_table_refusal_code_is_worded(language: str) -> None:
    """A refused table's code (bridge.TABLE_REFUSAL_CODES: equipment refusals and the table reader's)."""
    assert unworded(language, "reason", TABLE_REFUSAL_CODES) == []


def test_every_equipment_refusal_code_is_given_somewhere() -> None:
    """No code without a refusal that gives it: each is named in equipment.py besides its list
    (EquipmentError(field, message, "code", ...) takes a listed code, never none)."""
    source = (ROOT / "bombbuster_core" / "equipment.py").read_text(encoding="utf-8")
    assert [code for code in EQUIPMENT_REFUSAL_CODES if source.count(f'"{code}"') < 2] == []


def test_every_table_refusal_code_is_given_somewhere() -> None:
    """The same for a malformed table's codes (table_fields.TABLE_CODES): each is named at a raise
    site of the table's reader (table_fields.py outside its list, table.py, table_events.py, the
    CLI's file reading); TableError takes a listed code, never none."""
    core = ROOT / "bombbuster_core"
    fields = (core / "table_fields.py").read_text(encoding="utf-8")
    listed = fields[fields.index("TABLE_CODES = ("):fields.index("\n)\n", fields.index("TABLE_CODES = ("))]
    source = fields.replace(listed, "") + " ".join((core / name).read_text(encoding="utf-8")
                                                  for name in ("table.py", "table_events.py", "cli.py"))
    assert [code for code in TABLE_CODES if f'"{code}"' not in source] == []
    assert set(TABLE_REFUSAL_CODES) == {*EQUIPMENT_REFUSAL_CODES, *TABLE_CODES}


def table_refusal_sites() -> dict[str, list[set[str]]]:
    """Each table code named at a raise site of the table's reader, with the fields each site gives:
    FieldReader.fail(name, "code", message, **fields), error_at(where, path, event, "code", message,
    **fields), TableError(message, "code", {fields}).  (A re-raised equipment refusal's code is not a
    literal there: its fields are equipment.py's.)"""
    sites: dict[str, list[set[str]]] = {}
    for name in ("table_fields.py", "table.py", "table_events.py", "cli.py"):
        tree = ast.parse((ROOT / "bombbuster_core" / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            function = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            at = {"fail": 1, "error_at": 3, "TableError": 1}.get(function)
            if at is None or len(node.args) <= at or not isinstance(node.args[at], ast.Constant):
                continue
            given = {keyword.arg for keyword in node.keywords if keyword.arg}
            if function == "TableError" and len(node.args) > 2 and isinstance(node.args[2], ast.Dict):
                given |= {key.value for key in node.args[2].keys if isinstance(key, ast.Constant)}
            sites.setdefault(node.args[at].value, []).append(given)
    return sites


def test_every_table_refusal_code_is_given_with_the_fields_its_words_name() -> None:
    """Each raise site of a table code gives every field its catalogue entry names ({place} is the
    page's own: the refusal's path), so the page never shows a placeholder."""
    sites, words = table_refusal_sites(), catalogue("en")
    assert sorted(sites) == sorted(TABLE_CODES)
    lacking = [(code, sorted(set(PLACEHOLDER.findall(words[f"reason.{code}"])) - {"place"} - given))
               for code, given_at in sites.items() for given in given_at]
    assert [(code, names) for code, names in lacking if names] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_mission_note_on_the_dial_is_worded(language: str) -> None:
    """gamestate.js DIAL_UNREAD: each mission whose dial is not followed has its reason (dial.unread.mN)."""
    source = (ROOT / "web" / "js" / "gamestate.js").read_text(encoding="utf-8")
    table = source[source.index("const DIAL_UNREAD = {"):source.index("const RESULT_UNREAD")]
    missions = re.findall(r"^\s+(\d+): ", table, re.M)
    assert len(missions) >= 20
    assert unworded(language, "dial.unread", [f"m{m}" for m in missions]) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_handshake_code_refusal_is_worded(language: str) -> None:
    """web/js/live/sdp.js runs under Node too: each CodeError gives a code the page words (live.code.CODE)."""
    source = (ROOT / "web" / "js" / "live" / "sdp.js").read_text(encoding="utf-8")
    codes = re.findall(r'new CodeError\((?:"[^"]*"|`[^`]*`), "(\w+)"', source)
    assert codes and len(codes) == source.count("new CodeError(")
    assert unworded(language, "live.code", codes) == []


def test_every_card_advice_code_is_emitted_somewhere() -> None:
    """No code without a reason that gives it (suggest/*.py: because("code", ...))."""
    sources = source_of(path for path in (ROOT / "bombbuster_core" / "suggest").glob("*.py") if path.name != "advice.py")
    assert [code for code in ADVICE_CODES if f'"{code}"' not in sources] == []


def test_the_checks_catch_a_missing_and_an_unused_key(tmp_path: Path) -> None:
    """The scan itself: a call of an unknown key is found, and so is a key nobody asks for."""
    literal, mentioned, patterns = asked_for()
    assert "menu.title" in literal and "over.won" in mentioned and any(p.fullmatch("field.actor") for p in patterns)
    assert not any(p.fullmatch("no.such.key") for p in patterns) and "no.such.key" not in literal
