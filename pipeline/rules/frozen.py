"""Values made at every step of play and never changed: the hooks' views and the card effects'
contexts.

They were frozen dataclasses; made by the thousand every hand, each paid for a dict of its own
and for setting every field through ``object.__setattr__``. :class:`FrozenFields` keeps what a
frozen dataclass gives them (fields set once, then read-only; equality, hash and repr by
field) with slots, and where compiled each of them is an extension type (``frozen.pxd`` for
this base; ``@cython.cclass`` on each value class, its fields its ``__slots__``:
:mod:`pipeline._pxd`) whose ``__init__`` sets its fields straight into the object.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError


class FrozenFields:
    """A value with the fields its class names in ``__slots__`` (in order), set once by its
    ``__init__`` and read-only afterwards (an assignment raises ``FrozenInstanceError``, as for
    a frozen dataclass); compared, hashed and shown field by field. Each class derives from
    this one directly (the slots of one class are its fields)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        """Each field is set once, by ``__init__`` (compiled, straight into the object)."""
        if hasattr(self, name):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        # through the field's slot: ``object.__setattr__`` refuses a pure-Python class (the
        # card layer's contexts) whose compiled base defines ``__setattr__``
        field = getattr(type(self), name, None)
        if field is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        field.__set__(self, value)

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def replace(self, **changes: object) -> FrozenFields:
        """A copy with the fields named changed (``dataclasses.replace`` for these values)."""
        unknown = set(changes) - set(self.__slots__)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        return type(self)(*[changes.get(name, getattr(self, name)) for name in self.__slots__])

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__slots__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={value!r}" for name, value
                           in zip(self.__slots__, self._values(), strict=True)])
        return f"{type(self).__name__}({shown})"
