"""The decorators of Cython's pure-Python mode, doing nothing, for an install without Cython.

A compiled module declares its extension types and its ``cpdef`` functions in its ``.py``
(``@cython.cclass``, ``@cython.ccall``, ``@cython.locals``, ``@cython.returns``; see
:mod:`pipeline._pxd`) and imports ``cython``; where Cython is not installed it imports this
module under that name instead, and the classes and functions stay plain Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

Decorated = TypeVar("Decorated")

compiled = False
# the C types a ``cython.locals`` or ``cython.returns`` may name: placeholders here
int = long = double = bint = Py_ssize_t = object  # noqa: A001


def cclass(cls: Decorated) -> Decorated:
    return cls


def ccall(function: Decorated) -> Decorated:
    return function


def _unchanged(function: Decorated) -> Decorated:
    return function


def locals(**types: Any) -> Callable[[Decorated], Decorated]:  # noqa: A001
    return _unchanged


def returns(c_type: Any) -> Callable[[Decorated], Decorated]:
    return _unchanged
