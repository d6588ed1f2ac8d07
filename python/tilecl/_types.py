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


class MathMode(enum.IntEnum):
    """How :func:`tilecl.gemm` may compute on float32 matrices (tilecl::MathMode); ops also take "standard", "tf32".

    STANDARD: every multiply-add in IEEE single precision. TF32: A and B may be rounded to TF32 (10-bit mantissa)
    before the products, accumulated in float: the tensor cores of NVIDIA GPUs of compute capability 8.0 and newer,
    error within (2^-10 + 2 (k + 5) 2^-24) of the magnitude (include/tilecl/gemm.hpp). Never the default.
    """

    STANDARD = 0
    TF32 = 1


Enumeration = TypeVar("Enumeration", Border, ReduceOp, MathMode)


def enumerator(op: str, argument: str, enumeration: Type[Enumeration], value: Union[Enumeration, str]) -> Enumeration:
    """``value`` as a member of ``enumeration``: a member, or its name in any case."""
    if isinstance(value, enumeration):
        return value
    if isinstance(value, str) and value.upper() in enumeration.__members__:
        return enumeration[value.upper()]
    names = ", ".join(member.name.lower() for member in enumeration)
    refuse(op, argument, f"{value!r} is not one of {names}")
