"""Typed access to the JSON objects of a table file, with errors that say where: the event (its index
and type) and the field at fault (:class:`TableError`).  Used by the table file's reader (table.py) and
its event parser (table_events.py).
"""
from __future__ import annotations

from .wires import Key, WireError, parse_key, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class TableError(ValueError):
    """A malformed table file.  ``event`` is the event index, when one is at fault."""

    def __init__(self, message: str, *, event: int | None = None):
        super().__init__(message)
        self.event = event


def error_at(message: str, where: str, event: int | None = None) -> TableError:
    """The error of ``where`` (an event, a field: "event 3 (dual_cut) field 'target'") saying ``message``."""
    return TableError(f"{where}: {message}", event=event)


class FieldReader:
    """Typed access to one JSON object, with errors that say where."""

    def __init__(self, obj: Any, where: str, event: int | None, allowed: set[str], required: set[str]):
        if not isinstance(obj, dict):
            raise error_at(f"expected an object, got {type(obj).__name__}", where, event)
        unknown = sorted(set(obj) - allowed)
        if unknown:
            raise error_at(f"unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})", where, event)
        missing = sorted(required - set(obj))
        if missing:
            raise error_at(f"missing field {missing[0]!r}", where, event)
        self.obj, self.where, self.event = obj, where, event

    def fail(self, name: str, message: str) -> TableError:
        return error_at(message, f"{self.where} field {name!r}", self.event)

    def int(self, name: str, lo: int, hi: int, raw: Any = None) -> int:
        v = self.obj[name] if raw is None else raw
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.fail(name, f"expected an integer, got {shown(v)}")
        if not lo <= v < hi:
            raise self.fail(name, f"{shown(v)} is out of range ({lo}..{hi - 1})")
        return v

    def bool(self, name: str) -> bool:
        v = self.obj[name]
        if not isinstance(v, bool):
            raise self.fail(name, f"expected true or false, got {v!r}")
        return v

    def list(self, name: str) -> list[Any]:
        v = self.obj[name]
        if not isinstance(v, list):
            raise self.fail(name, f"expected a list, got {type(v).__name__}")
        return v

    def key(self, name: str, raw: Any) -> Key:
        try:
            return parse_key(raw)
        except WireError as e:
            raise self.fail(name, str(e)) from None

