"""jsonio (the CLI's JSON without json's start-up cost) must read and print exactly as json does."""
from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bombbuster_core import jsonio

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
documents = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                         | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(documents)
def test_dumps_prints_what_json_dumps_prints(doc) -> None:
    assert jsonio.dumps(doc) == json.dumps(doc)


@settings(max_examples=400, deadline=None)
@given(documents, st.sampled_from(["", " ", "\n", " \t\r\n "]))
def test_loads_reads_what_json_loads_reads(doc, pad: str) -> None:
    for text in (json.dumps(doc), json.dumps(doc, indent=2, ensure_ascii=False)):
        assert jsonio.loads(pad + text + pad) == json.loads(text)


def test_non_finite_numbers_and_tuples_match_json() -> None:
    assert jsonio.dumps([math.inf, -math.inf, (1, "é")]) == json.dumps([math.inf, -math.inf, (1, "é")])
    assert jsonio.dumps({1: 2, 2.5: None, True: 0}) == json.dumps({1: 2, 2.5: None, True: 0})
    values = jsonio.loads("[NaN, Infinity, -Infinity, 1e400, 12345678901234567890]")
    assert math.isnan(values[0]) and values[1:] == [math.inf, -math.inf, math.inf, 12345678901234567890]


@pytest.mark.parametrize("text", ["", "   ", "{", '{"a": 1,}', "[1, 2", '{"a" 1}', "tru", '"\\x"', "1 2",
                                  '{"a": 1} x', "\ufeff{}", "[1]]", "01", '"a\u0001"'])
def test_malformed_text_raises_jsons_own_error(text: str) -> None:
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as got:
        jsonio.loads(text)
    assert str(got.value) == str(expected.value)


def test_the_fast_path_is_the_one_tested() -> None:
    # Otherwise every test above would only compare json with itself.
    assert jsonio._scan is not None and jsonio._encode is not None
