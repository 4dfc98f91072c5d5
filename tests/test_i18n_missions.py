"""The missions' texts in each language (web/js/i18n/missions-LANG.json, docs/i18n.md): the page's
mission picker words each mission's summary (`mission.summary.N`) and rule tags (`mission.rule.TAG`)
from them. The three files have the same keys and {placeholders}; every mission of the core has its
summary and every rule tag its words in each; the English file's summaries are the core's own
(bombbuster_core/missions.py stays the one source of the English: the two cannot drift); every key is
asked for by the page's code."""
from __future__ import annotations

import json

import pytest

from bombbuster_core.missions import BY_NUMBER, RULE_TAGS
from test_i18n_catalogues import CATALOGUES, LANGUAGES, PLACEHOLDER, asked_for


def missions_file(language: str) -> dict[str, str]:
    return json.loads((CATALOGUES / f"missions-{language}.json").read_text(encoding="utf-8"))


def expected_keys() -> set[str]:
    return ({f"mission.summary.{number}" for number in BY_NUMBER}
            | {f"mission.rule.{tag}" for tag in RULE_TAGS})


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_mission_and_rule_tag_has_its_words(language: str) -> None:
    words = missions_file(language)
    assert sorted(expected_keys() - set(words)) == [], f"missing in missions-{language}.json"
    assert sorted(set(words) - expected_keys()) == [], f"no mission or rule tag of the core: missions-{language}.json"
    assert [key for key, text in words.items() if not text.strip()] == []


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_language_has_the_same_keys_and_placeholders(language: str) -> None:
    english, other = missions_file("en"), missions_file(language)
    assert sorted(set(english) ^ set(other)) == []
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (language, key)


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_summary_is_translated(language: str) -> None:
    """A French or German summary left in English would pass the key checks but not the player."""
    english, other = missions_file("en"), missions_file(language)
    assert [key for key in english if key.startswith("mission.summary.") and other[key] == english[key]] == []


def test_the_english_summaries_are_the_cores() -> None:
    english = missions_file("en")
    differ = [number for number, mission in BY_NUMBER.items()
              if english.get(f"mission.summary.{number}") != mission.summary]
    assert differ == [], f"missions-en.json differs from bombbuster_core/missions.py for missions {differ}"


def test_the_files_hold_only_the_missions_keys() -> None:
    """The main catalogues and the missions' files are merged by the page (i18n.js): no key in both."""
    for language in LANGUAGES:
        main = json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))
        assert sorted(set(main) & set(missions_file(language))) == [], language


def test_every_key_is_asked_for() -> None:
    _, mentioned, patterns = asked_for()
    unused = [key for key in missions_file("en")
              if key not in mentioned and not any(pattern.fullmatch(key) for pattern in patterns)]
    assert unused == []

