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

:func:`loads_strict` is the reader of table files and worker requests: JSON
as the standard spells it and nothing more — no NaN or Infinity, no number
too large for a float, no integer too long for int() to read, no duplicate key
in an object, no nesting deeper than :data:`MAX_DEPTH` (checked before the
recursive scan), no text longer than :data:`MAX_CHARS`.  Each is refused with :class:`StrictJSONError` saying why.
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


MAX_DEPTH = 64  # a table nests 5 levels; far beyond that is not a table
MAX_CHARS = 4_000_000  # a 5-player table with hundreds of events is ~100 kB


class StrictJSONError(ValueError):
    """Text that is JSON only by a lenient reading (or not a sane document).  ``number``: the
    text of a number refused as too large (its field is named once the document is known).
    ``code`` and ``fields``: for the refusals a page's own table can meet (a file nested too deeply,
    one too long: the page's JSON reader accepts both), what the page words (bridge.BRIDGE_ERROR_CODES);
    the others are lenient JSON that the page's JSON.stringify never writes."""

    def __init__(self, message: str, number: str | None = None, code: str | None = None, **fields: Any):
        super().__init__(message)
        self.number = number
        self.code, self.fields = code, fields

    def json(self) -> dict[str, Any]:
        """The code and fields of an error reply (empty without a code)."""
        return {} if self.code is None else {"code": self.code, "fields": self.fields}


def _too_large(text: str) -> StrictJSONError:
    return StrictJSONError(f"the number {abridged(text)} is too large", number=text)


def _placed(error: StrictJSONError, document: str) -> StrictJSONError:
    """The refusal of a too-large number, naming the object key it is the value of (or where it is)."""
    if not error.number:
        return error
    import re  # only on this error path: re costs the CLI's start-up otherwise

    # the number as a token of its own: not the digits of a longer number or of a string
    token = re.search(r'(?<![\w".+-])' + re.escape(error.number) + r'(?![\w."])', document)
    if token is None:
        return error
    at = token.start()
    key = re.search(r'"((?:[^"\\]|\\.){0,60})"\s*:\s*$', document[max(0, at - 200):at])
    where = f"field {key.group(1)!r}" if key else f"character {at:,}"
    return StrictJSONError(f"{where}: {error}", number=error.number)


def _no_constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (inf, -inf):
        raise _too_large(text)
    return value


def _readable_int(text: str) -> int:
    """int(text), or the refusal of an integer past int()'s limit (4,300 digits: a plain ValueError).

    Only the fallback reader below uses it: where the scanner's own int fails.  Shorter
    integers are read, however large; the table's fields bound each number they take."""
    try:
        return int(text)
    except ValueError:
        raise _too_large(text) from None


def abridged(text: str) -> str:
    """A text an error message quotes, its start only when long (a number of thousands of digits)."""
    return text if len(text) <= 40 else f"{text[:30]}… ({len(text):,} characters)"


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise StrictJSONError(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return obj


class _Strict(_Defaults):
    object_pairs_hook = staticmethod(_unique_keys)
    parse_float = staticmethod(_finite_float)
    parse_constant = staticmethod(_no_constant)


try:
    from _json import encode_basestring_ascii, make_encoder, make_scanner

    _scan = make_scanner(_Defaults)
    _strict_scan = make_scanner(_Strict)
    # json.dumps' defaults: no indent, ", " and ": ", ASCII escapes, NaN allowed,
    # no circular-reference check (this module only prints trees it built).
    _encode = make_encoder(None, None, encode_basestring_ascii, None, ": ", ", ", False, False, True)
except (ImportError, TypeError):  # pragma: no cover - no _json, or another signature: json does it all
    _scan = _strict_scan = _encode = None


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


def loads_strict(text: str, max_chars: int = MAX_CHARS) -> Any:
    """Read a standard JSON document; :class:`StrictJSONError` for what only a lenient
    reader accepts (see the module docstring), ``json.JSONDecodeError`` for malformed text."""
    if len(text) > max_chars:
        raise StrictJSONError(f"the text is {len(text):,} characters long; at most {max_chars:,} are read",
                              code="too_long", size=len(text), limit=max_chars)
    _check_depth(text)
    if _strict_scan is not None:
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = _strict_scan(text, start)
        except StrictJSONError as e:
            raise _placed(e, text) from None
        except Exception:  # noqa: BLE001 - malformed: json.loads below says where and why
            pass
        else:
            if not text[end:].strip(_WHITESPACE):
                return value
    import json

    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_float=_finite_float, parse_int=_readable_int,
                          parse_constant=_no_constant)
    except StrictJSONError as e:
        raise _placed(e, text) from None


# Every byte but those nesting depends on: brackets, quotes, backslashes.  UTF-8 never
# puts an ASCII byte inside a longer character, so dropping the rest keeps the structure.
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"\\')


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before any recursive reader sees it."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth, in_string, escaped = 0, False, False
    for c in text.encode("utf-8", "surrogatepass").translate(None, _NOT_STRUCTURE):  # C-fast filter, then a short loop
        if in_string:
            if escaped:
                escaped = False
            elif c == 92:  # backslash
                escaped = True
            elif c == 34:  # quote
                in_string = False
        elif c == 34:
            in_string = True
        elif c == 91 or c == 123:  # [ {
            depth += 1
            if depth > MAX_DEPTH:
                raise StrictJSONError(f"the document nests more than {MAX_DEPTH} levels deep", code="too_deep",
                                      limit=MAX_DEPTH)
        elif c == 93 or c == 125:  # ] }
            depth -= 1


def dumps(value: Any) -> str:
    """``json.dumps(value)`` for documents of dicts, lists, strings, numbers, booleans and None."""
    if _encode is not None:
        return "".join(_encode(value, 0))
    import json

    return json.dumps(value)
