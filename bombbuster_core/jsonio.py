"""JSON text in and out for the command line, without :mod:`json`'s start-up cost.

Every ``analyze`` is a short-lived process, and ``import json`` costs it
~15 ms here: the json package compiles regular expressions at import, which
loads :mod:`re` and :mod:`enum` — more than a late-game analysis itself.
The parsing and printing that matter are done by json's own C accelerator,
:mod:`_json`, which needs none of that, so this module drives it directly
with json's default settings and gives exactly what ``json.loads`` and
``json.dumps`` give (tests/test_jsonio.py checks both on random documents).
Malformed text is handed to ``json.loads`` for its usual error message, and
where ``_json`` is missing or differs (other Pythons) :mod:`json` does all
the work.  Checked on CPython 3.11 and Pyodide's 3.14.
"""
from __future__ import annotations

from math import inf, nan

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_WHITESPACE = " \t\n\r"  # what JSON allows around a document


class _Defaults:
    """The settings ``json.loads`` uses by default, as the C scanner reads them."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": -inf, "Infinity": inf, "NaN": nan}.__getitem__


try:
    from _json import encode_basestring_ascii, make_encoder, make_scanner

    _scan = make_scanner(_Defaults)
    # json.dumps' defaults: no indent, ", " and ": ", ASCII escapes, NaN allowed,
    # no circular-reference check (this module only prints trees it built).
    _encode = make_encoder(None, None, encode_basestring_ascii, None, ": ", ", ", False, False, True)
except (ImportError, TypeError):  # pragma: no cover - no _json, or another signature: json does it all
    _scan = _encode = None


def loads(text: str) -> Any:
    """``json.loads(text)``: raises ``json.JSONDecodeError`` (a ValueError) on malformed text."""
    if _scan is not None:
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = _scan(text, start)
        except Exception:  # noqa: BLE001 - malformed: json.loads below says where and why
            # (_json builds its error from json.decoder, which is not loaded
            # here, so what it raises is not the message to show.)
            pass
        else:
            if not text[end:].strip(_WHITESPACE):
                return value
    import json

    return json.loads(text)


def dumps(value: Any) -> str:
    """``json.dumps(value)`` for documents of dicts, lists, strings, numbers, booleans and None."""
    if _encode is not None:
        return "".join(_encode(value, 0))
    import json

    return json.dumps(value)
