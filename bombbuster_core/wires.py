"""Wire model: sort keys, gameplay values and the deck in play.

A *sort key* is stored as an int in tenths so that keys compare and hash
exactly: blue ``v`` is ``10*v``, yellow ``n.1`` is ``10*n+1`` and red ``n.5``
is ``10*n+5``.  Hence ``n < n.1 < n.5 < n+1`` holds as integer order.

A *gameplay value* is what players call: the blue number (``int``),
``"yellow"`` for every yellow or ``"red"`` for every red.
"""
from __future__ import annotations

from .jsonio import abridged
from .record import Record

Key = int
Value = int | str  # blue number, "yellow" or "red"

YELLOW = "yellow"
RED = "red"

_COLOUR_OF_DIGIT = {0: "blue", 1: YELLOW, 5: RED}
MAX_NUMBER = 99  # the largest n of a key or blue value: the game prints 1-12, house decks get room


class WireError(ValueError):
    """A sort key or gameplay value that does not exist in the game."""


def shown(raw: object) -> str:
    """``raw`` as an error message quotes it: a long one cut short (a key of thousands
    of digits reads no better in full, and an int's repr refuses over 4,300 digits)."""
    if type(raw) is int and raw.bit_length() > 64:
        return "an integer of 20 digits or more"
    return abridged(repr(raw))


def parse_key(raw: object) -> Key:
    """Parse a JSON sort key (``3``, ``3.1``, ``"5.5"``) into tenths.

    Strict: a number with at most one decimal written exactly (``2.1000001``
    is refused, naming the nearest key), or a string of ASCII digits with at
    most one decimal digit, as a JSON number spells it (no ``"1_0"``, no
    full-width digits, no exponent, no leading zero); n = 1..MAX_NUMBER, as
    blue values.
    """
    if isinstance(raw, bool):
        raise WireError(f"{raw!r} is not a sort key")
    if isinstance(raw, str):
        whole, dot, digit = raw.partition(".")
        if (not whole or not all(c in "0123456789" for c in whole + digit) or (dot and len(digit) != 1)
                or (whole[0] == "0" and whole != "0")):
            raise WireError(f"{shown(raw)} is not a sort key (write it as 3, 3.1 or 5.5)")
        # Exact tenths, never a float (hundreds of digits overflow one); the digits are
        # counted first, as int() refuses thousands of them.
        if len(whole) > len(str(MAX_NUMBER)):
            raise WireError(_out_of_range(raw))
        tenths = int(whole) * 10 + int(digit or "0")
    elif isinstance(raw, int):
        tenths = raw * 10
    elif isinstance(raw, float):
        if raw != raw or raw in (float("inf"), float("-inf")) or abs(raw) > 1e6:
            raise WireError(_out_of_range(raw))
        tenths = round(raw * 10)
        if tenths / 10 != raw:
            raise WireError(f"{raw!r} is not a sort key (one decimal at most; nearest: {key_str(tenths)})")
    else:
        raise WireError(f"{shown(raw)} is not a sort key")
    if not 10 <= tenths < 10 * (MAX_NUMBER + 1) or tenths % 10 not in _COLOUR_OF_DIGIT:
        raise WireError(_out_of_range(raw))
    return tenths


def _out_of_range(raw: object) -> str:
    return f"{shown(raw)} is not a sort key (blue n, yellow n.1 or red n.5, n = 1..{MAX_NUMBER})"


def key_str(key: Key) -> str:
    """The sort key as players read it: ``"3"``, ``"3.1"``, ``"5.5"``."""
    whole, digit = divmod(key, 10)
    return str(whole) if digit == 0 else f"{whole}.{digit}"


def key_json(key: Key) -> int | float:
    """The sort key as a JSON number (int for blue)."""
    whole, digit = divmod(key, 10)
    return whole if digit == 0 else whole + digit / 10


def colour(key: Key) -> str:
    return _COLOUR_OF_DIGIT[key % 10]


def value_of(key: Key) -> Value:
    """Gameplay value of a wire with this sort key."""
    c = colour(key)
    return key // 10 if c == "blue" else c


def parse_value(raw: object, *, allow_red: bool = False) -> Value:
    """Parse a called/token gameplay value: a blue int 1..MAX_NUMBER, "yellow" (or "red")."""
    if raw == YELLOW or (allow_red and raw == RED):
        return raw  # type: ignore[return-value]
    if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= MAX_NUMBER:
        return raw
    allowed = f'a blue number 1..{MAX_NUMBER}, "yellow"' + (' or "red"' if allow_red else "")
    raise WireError(f"{shown(raw)} is not a value ({allowed})")


class Pool(Record):
    """A "k of m" mission pool: ``count`` of ``candidates`` are in play, the rest set aside unseen."""

    __slots__ = ("candidates", "count")
    candidates: tuple[Key, ...]
    count: int

    def __init__(self, candidates: tuple[Key, ...], count: int):
        super().__init__(candidates, count)


class Deck(Record):
    """Every tile that may be on the table.

    ``copies`` holds the certain tiles *and* every pool candidate (1 copy
    each); ``pools`` says how many candidates of each pool are set aside.
    """

    __slots__ = ("copies", "pools")
    copies: dict[Key, int]
    pools: tuple[Pool, ...]

    def __init__(self, copies: dict[Key, int], pools: tuple[Pool, ...] = ()):
        super().__init__(copies, pools)

    @property
    def keys(self) -> list[Key]:
        return sorted(self.copies)

    @property
    def in_play(self) -> int:
        """Number of tiles dealt to the stands."""
        return sum(self.copies.values()) - sum(len(p.candidates) - p.count for p in self.pools)

    def nearest(self, key: Key) -> str:
        """The sort key in play nearest to ``key``, for error messages."""
        return key_str(min(self.copies, key=lambda k: (abs(k - key), k)))

    def keys_of_value(self, value: Value) -> frozenset[Key]:
        """Every sort key in the deck whose gameplay value is ``value``."""
        if type(value) is int:  # blue n has the one sort key 10*n: no need to scan the deck
            return frozenset((value * 10,)) if value * 10 in self.copies else frozenset()
        return frozenset(k for k in self.copies if value_of(k) == value)

    def values(self) -> list[Value]:
        """Gameplay values present in the deck, blue ascending then yellow, red."""
        seen: list[Value] = []
        for k in self.keys:
            v = value_of(k)
            if v not in seen:
                seen.append(v)
        return sorted(seen, key=lambda v: (isinstance(v, str), v if isinstance(v, int) else 0, str(v)))
