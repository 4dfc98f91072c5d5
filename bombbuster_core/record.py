"""Record: the base of the core's small immutable value classes.

It stands in for ``@dataclass(frozen=True)`` because the CLI is a short-lived
process: importing :mod:`dataclasses` (it pulls in :mod:`inspect`, :mod:`ast`,
:mod:`dis`, ...) and generating each class's methods cost ``analyze`` about
25 ms of start-up, more than a late-game analysis itself.

A subclass names its fields in ``__slots__`` and writes its own ``__init__``
(the signature callers see, defaults included), which hands the field values
to ``Record.__init__`` in ``__slots__`` order.  Like a frozen dataclass, a
record then

* compares equal to a record of the same class with equal fields, and hashes
  by its fields (a record holding a dict is unhashable, as before);
* refuses attribute assignment and deletion;
* prints as ``Name(field=value, ...)``;
* copies and pickles through its ``__init__``;
* has :meth:`replace` for ``dataclasses.replace``.

Ordering, where wanted, is the subclass's own (see ``table.SlotRef``).
"""
from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar

    R = TypeVar("R", bound="Record")

_set = object.__setattr__  # bypasses Record.__setattr__; looked up once, as every record creation runs it


class Record:
    __slots__ = ()
    # The tuple of an instance's field values: ``self._values(self)``.  An
    # attrgetter is not a method (it does not bind), and it is C-fast, which
    # matters for hashing slot addresses.
    _values: Callable[[Any], tuple[Any, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = cls.__dict__.get("__slots__")
        if not isinstance(names, tuple) or not names:
            raise TypeError(f"{cls.__name__} must list its fields in a non-empty __slots__ tuple")
        get = attrgetter(*names)
        cls._values = get if len(names) > 1 else staticmethod(lambda obj: (get(obj),))

    def __init__(self, *values: Any) -> None:
        for name, value in zip(self.__slots__, values):
            _set(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of an immutable {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of an immutable {type(self).__name__}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values(self) == self._values(other)

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(self.__slots__, self._values(self)))
        return f"{type(self).__qualname__}({fields})"

    def __reduce__(self) -> tuple[type[Record], tuple[Any, ...]]:
        return type(self), self._values(self)

    def replace(self: R, **changes: Any) -> R:
        """A copy with the given fields changed (``dataclasses.replace``)."""
        values = dict(zip(self.__slots__, self._values(self)))
        values.update(changes)
        return type(self)(**values)
