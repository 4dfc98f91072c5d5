"""Typed access to the JSON objects of a table file, with errors that say where: the event (its index
and type) and the field at fault (:class:`TableError`), in English for the CLI and as a code with its
fields for the page (TABLE_CODES, each given where the error is raised).  Used by the table file's
reader (table.py) and its event parser (table_events.py).
"""
from __future__ import annotations

from . import equipment as eq
from .wires import Key, WireError, parse_key, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


# Every refusal's ``code``, listed once: the page words each from its catalogues (``reason.CODE``,
# docs/i18n.md) with the refusal's ``fields`` (values: sort keys as strings, slots as 0-based
# {player, stand, slot}, JSON paths as lists); the English message stays for the CLI.  An equipment
# refusal (equipment.REFUSAL_CODES) keeps its own code when the parser re-raises it.
TABLE_CODES = (
    # the shape of any object or field
    "expected_object", "unknown_field", "missing_field", "expected_integer", "out_of_range", "expected_bool",
    "expected_list", "expected_string", "not_a_sort_key", "not_a_value",
    # the file's sections
    "file_unreadable", "file_not_json", "format_unsupported", "mission_unknown", "wire_count_mismatch",
    "card_by_name", "card_listed_twice", "cover_missing", "cover_not_mission", "cover_listed_twice", "player_count",
    "character_unknown", "stand_count", "stands_flipped_pair",
    "stand_shape_missing", "stand_shape_unknown", "stand_size", "stand_too_small", "deck_empty", "key_listed_twice",
    "deck_copies", "key_colour", "blue_value", "pool_empty", "pool_key_blue", "pool_key_in_play", "no_wires",
    "counts_as_red", "my_stand_count", "my_stand_size", "my_flipped_not_null", "key_not_in_play",
    "my_x_slot_blue", "key_too_many", "my_stand_unsorted", "seen_after_end", "seen_own_flipped",
    # the events
    "event_type_unknown", "game_over", "card_none", "character_user_missing", "stand_empty", "slot_cut",
    "slot_special", "not_blue_value", "value_not_in_play", "value_or_values", "xy_two_values",
    "xy_different_values", "value_counts_as_red", "token_missing", "token_object", "token_parity",
    "success_exploded", "explosion_token", "explosion_stabilizer", "slot_listed_twice", "info_token_kind",
    "info_token_false", "count_token_special", "target_own", "token_on_success", "cut_missing",
    "own_flipped_equipment", "exploded_not_own_flipped", "keys_on_explosion", "cut_on_failure",
    "failure_token_missing", "token_equals_call", "cut_value_single", "cut_value_missing", "cut_value_not_called",
    "key_not_cut_value", "detector_kind", "targets_empty", "targets_one_stand", "detector_own_stand",
    "super_detector_targets", "detector_target_count", "cut_not_target", "token_at_without_token",
    "token_at_missing", "token_at_not_target", "solo_cut_empty", "red_not_cut", "solo_cut_count",
    "solo_cut_blue_count", "no_red_in_play", "not_red", "reveal_red_missing", "radar_answers_count",
    "radar_answers_row", "label_kind", "label_no_neighbour", "fast_pass_count", "nano_empty", "no_nano",
    "move_same_player", "swap_same_player", "values_empty", "value_listed_twice", "dealt_colour",
    "multi_cut_empty", "multi_cut_tokens_count", "multi_cut_tokens_all_called", "no_yellow_in_play",
    "equipment_event_card", "equipment_field_owner", "coffee_mug_next", "false_bottom_added_missing",
    "false_bottom_two", "batteries_characters_missing", "batteries_characters_count",
)

JsonPath = tuple  # a JSON path from the table's root: field names and list indices, ("events", 3, "target")


class TableError(ValueError):
    """A malformed table file.  ``event`` is the event index, when one is at fault; ``code`` and
    ``fields`` the refusal for the page (one of TABLE_CODES or equipment.REFUSAL_CODES)."""

    def __init__(self, message: str, code: str, fields: dict[str, Any], *, event: int | None = None):
        super().__init__(message)
        assert code in TABLE_CODES or code in eq.REFUSAL_CODES, code
        self.event, self.code, self.fields = event, code, fields

    def __reduce__(self) -> tuple[Any, ...]:
        # Whole after pickling (an error from another process): the default rebuilds from the message alone.
        return self.__class__, (str(self), self.code, self.fields), {"event": self.event}


def error_at(where: str, path: JsonPath, event: int | None, code: str, message: str, /, **fields: Any) -> TableError:
    """The error of ``where`` (an event, a field: "event 3 (dual_cut) field 'target'") saying ``message``;
    ``path`` is the place's JSON path, given to the page beside ``fields``."""
    return TableError(f"{where}: {message}", code, {"path": list(path), **fields}, event=event)


def quoted(raw: Any) -> str:
    """A value of the file as a refusal's fields quote it: its repr, cut short when long, with no
    words (the page shows it as it is, in any language; an error message says more: ``shown``)."""
    if type(raw) is int and raw.bit_length() > 64:  # an int's repr refuses over 4,300 digits
        return f"{'-' if raw < 0 else ''}2^64…"
    text = repr(raw)
    return text if len(text) <= 40 else f"{text[:30]}…"


def address(player: int, stand: int, slot: int) -> dict[str, int]:
    """A wire's address as a refusal's fields give it (0-based, as the file writes it)."""
    return {"player": player, "stand": stand, "slot": slot}


class FieldReader:
    """Typed access to one JSON object at ``path`` (``where``: the same place in the English
    messages), with errors that say where."""

    def __init__(self, obj: Any, where: str, path: JsonPath, event: int | None, allowed: set[str], required: set[str]):
        if not isinstance(obj, dict):
            raise error_at(where, path, event, "expected_object", f"expected an object, got {type(obj).__name__}")
        unknown = sorted(set(obj) - allowed)
        if unknown:
            raise error_at(where, path, event, "unknown_field",
                           f"unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})",
                           field=unknown[0], allowed=sorted(allowed))
        missing = sorted(required - set(obj))
        if missing:
            raise error_at(where, path, event, "missing_field", f"missing field {missing[0]!r}", field=missing[0])
        self.obj, self.where, self.path, self.event = obj, where, path, event

    def fail(self, name: str, code: str, message: str, /, **fields: Any) -> TableError:
        """The refusal of field ``name``: ``code`` with ``fields`` for the page, ``message`` for the CLI."""
        return error_at(f"{self.where} field {name!r}", (*self.path, name), self.event, code, message, **fields)

    def child(self, name: str, obj: Any, allowed: set[str], required: set[str], index: int | None = None) -> FieldReader:
        """The reader of field ``name`` (its item ``index``), an object of its own."""
        where = f"{self.where} field {name!r}" + ("" if index is None else f"[{index}]")
        path = (*self.path, name) + (() if index is None else (index,))
        return FieldReader(obj, where, path, self.event, allowed, required)

    def int(self, name: str, lo: int, hi: int, raw: Any = None, *, index: bool = False) -> int:
        """An integer in ``lo..hi-1``; ``index``: it is a 0-based index (a player, stand or slot),
        which an out_of_range refusal says so that the page shows it 1-based, as it names them."""
        v = self.obj[name] if raw is None else raw
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.fail(name, "expected_integer", f"expected an integer, got {shown(v)}")
        if not lo <= v < hi:
            # a value past 2**53 would not be exact in the page's JSON: it is given as null
            raise self.fail(name, "out_of_range", f"{shown(v)} is out of range ({lo}..{hi - 1})",
                            value=v if abs(v) < 2**53 else None, low=lo, high=hi - 1, index=index)
        return v

    def index(self, name: str, count: int, raw: Any = None) -> int:
        """A 0-based index below ``count`` (a player, a stand, a slot): see :meth:`int`."""
        return self.int(name, 0, count, raw, index=True)

    def bool(self, name: str) -> bool:
        v = self.obj[name]
        if not isinstance(v, bool):
            raise self.fail(name, "expected_bool", f"expected true or false, got {v!r}")
        return v

    def list(self, name: str) -> list[Any]:
        v = self.obj[name]
        if not isinstance(v, list):
            raise self.fail(name, "expected_list", f"expected a list, got {type(v).__name__}")
        return v

    def key(self, name: str, raw: Any) -> Key:
        try:
            return parse_key(raw)
        except WireError as e:
            raise self.fail(name, "not_a_sort_key", str(e), given=quoted(raw)) from None
