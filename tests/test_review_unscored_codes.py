"""The review's reasons for not scoring a move carry a code and fields (``not_scored_why``) beside the
English ``not_scored``, so the page words them in its language (review.why.CODE in en/fr/de)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bombbuster_core.review import NOT_SCORED_CODES, review, try_move

ROOT = Path(__file__).resolve().parents[1]
RECORDED = json.loads((ROOT / "tests" / "data" / "review_m4.json").read_text(encoding="utf-8"))
M4, BAD = RECORDED["table"], RECORDED["bad_call"]


def test_a_card_use_has_its_code_and_cards() -> None:
    table = dict(M4, events=[*M4["events"], {"type": "equipment", "card": "6", "actor": 2}])
    (card,) = [e for e in review(table, player=2)["decisions"] if e["played"]["kind"] == "equipment"]
    assert "card" in card["not_scored"]
    assert card["not_scored_why"]["code"] == "card_use" and card["not_scored_why"]["fields"]["cards"]


def test_a_hypothetical_the_view_cannot_play_has_its_code_and_kind() -> None:
    own = {"kind": "dual_cut", "target": {"player": 0, "stand": 0, "slot": 0}, "value": 4}
    tried = try_move(M4, BAD["event"], own)
    assert "teammate" in tried["not_scored"]
    assert tried["not_scored_why"] == {"code": "not_legal_cut", "fields": {"kind": "dual_cut"}}


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_every_not_scored_code_is_worded(language: str) -> None:
    words = json.loads((ROOT / "web" / "js" / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    assert [code for code in NOT_SCORED_CODES if f"review.why.{code}" not in words] == []


def test_every_not_scored_code_is_given_somewhere() -> None:
    source = (ROOT / "bombbuster_core" / "review.py").read_text(encoding="utf-8")
    assert [code for code in NOT_SCORED_CODES if source.count(f'"{code}"') < 2] == []
