"""Enumerations shared by the ops, with the values of the C++ library's (include/tilecl/types.hpp)."""

from __future__ import annotations

import enum
from typing import Type, TypeVar, Union

from ._errors import refuse


class Border(enum.IntEnum):
    """What a filter reads outside the image.

    ZERO: zeros; CLAMP: the edge repeated (OpenCV's BORDER_REPLICATE); MIRROR: reflected without repeating the
    edge (BORDER_REFLECT_101, OpenCV's default); WRAP: periodic. Ops also take the names as strings.
    """

    ZERO = 0
    CLAMP = 1
    MIRROR = 2
    WRAP = 3


class ReduceOp(enum.IntEnum):
    """The reductions of :func:`tilecl.reduce`; ops also take the names as strings ("sum", "argmax", ...)."""

    SUM = 0
    MIN = 1
    MAX = 2
    ARGMIN = 3
    ARGMAX = 4


Enumeration = TypeVar("Enumeration", Border, ReduceOp)


def enumerator(op: str, argument: str, enumeration: Type[Enumeration], value: Union[Enumeration, str]) -> Enumeration:
    """``value`` as a member of ``enumeration``: a member, or its name in any case."""
    if isinstance(value, enumeration):
        return value
    if isinstance(value, str) and value.upper() in enumeration.__members__:
        return enumeration[value.upper()]
    names = ", ".join(member.name.lower() for member in enumeration)
    refuse(op, argument, f"{value!r} is not one of {names}")
