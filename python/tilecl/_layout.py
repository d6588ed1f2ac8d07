"""How arrays map onto tilecl's arguments: element types, element offsets, leading dimensions and pitches.

Every function here reads only ``shape``, ``strides``, ``dtype`` and (for PyOpenCL arrays) ``offset``, so the
same checks run on NumPy arrays before an upload and on PyOpenCL arrays before an enqueue. A layout an op cannot
express raises :class:`tilecl.ArgumentValueError`, a wrong element type :class:`tilecl.ArgumentTypeError`.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence

import numpy as np

from ._errors import ArgumentTypeError, refuse

# NumPy's dtype.name is computed in Python on every access; looking dtypes up here keeps a call's checks cheap.
# ml_dtypes' bfloat16 (not a NumPy type) is named "bfloat16" by NumPy, without importing ml_dtypes here.
_NAMES = {np.dtype(name): name for name in ("float32", "float64", "int32", "uint8", "float16")}


def dtype_name(array: Any) -> str:
    """The NumPy name of the array's element type."""
    return _NAMES.get(array.dtype) or np.dtype(array.dtype).name


def dtype_of(op: str, argument: str, array: Any, allowed: Sequence[str]) -> str:
    """The array's NumPy dtype name, which must be one of ``allowed`` ("float32", "uint8", ...)."""
    name = dtype_name(array)
    if name not in allowed:
        refuse(op, argument, f"element type {name} is not supported (use {', '.join(allowed)})", ArgumentTypeError)
    return name


def same_dtype(op: str, argument: str, array: Any, expected: str) -> None:
    """The array's dtype is ``expected`` (the op's other operands have it)."""
    if dtype_name(array) != expected:
        refuse(op, argument, f"element type {dtype_name(array)} differs from the input's {expected}", ArgumentTypeError)


def element_offset(op: str, argument: str, array: Any) -> int:
    """The array's first element in elements of its buffer (PyOpenCL's ``offset`` is in bytes)."""
    offset = getattr(array, "offset", 0)
    itemsize = array.dtype.itemsize
    if offset % itemsize:
        refuse(op, argument, f"offset of {offset} bytes is not a whole number of {itemsize}-byte elements")
    return offset // itemsize


def _step(op: str, argument: str, array: Any, axis: int) -> int:
    """The stride of ``axis`` in elements (positive and whole)."""
    stride = int(array.strides[axis])
    itemsize = array.dtype.itemsize
    if stride <= 0 or stride % itemsize:
        refuse(
            op,
            argument,
            f"stride of {stride} bytes along axis {axis} is not a positive whole number of "
            f"{itemsize}-byte elements (make a copy)",
        )
    return stride // itemsize


def contiguous_size(op: str, argument: str, array: Any) -> int:
    """The number of elements of an array whose elements are contiguous (C or Fortran order)."""
    flags = array.flags
    if not (flags.c_contiguous or flags.f_contiguous):
        refuse(
            op,
            argument,
            f"elements are not contiguous (shape {tuple(array.shape)}, strides "
            f"{tuple(array.strides)}): make a contiguous copy",
        )
    return int(array.size)


def same_layout(op: str, argument: str, array: Any, reference: Any) -> None:
    """The array has the reference's shape and element order, so element i of one matches element i of the other."""
    if tuple(array.shape) != tuple(reference.shape):
        refuse(op, argument, f"shape {tuple(array.shape)} differs from {tuple(reference.shape)}")
    if array.size > 1 and tuple(array.strides) != tuple(reference.strides):
        refuse(
            op,
            argument,
            f"strides {tuple(array.strides)} differ from {tuple(reference.strides)}: the arrays "
            "must have the same memory order",
        )


def leading_dimension(array: Any, order: str) -> Optional[int]:
    """The leading dimension of a 2-D array stored in ``order`` ("C": rows contiguous, "F": columns contiguous),
    or None when it is not stored that way."""
    itemsize = array.dtype.itemsize
    outer, inner = (0, 1) if order == "C" else (1, 0)
    if array.shape[inner] > 1 and array.strides[inner] != itemsize:
        return None
    if array.shape[outer] <= 1 or array.shape[inner] == 0:
        return max(int(array.shape[inner]), 1)
    stride = int(array.strides[outer])
    if stride <= 0 or stride % itemsize or stride // itemsize < array.shape[inner]:
        return None
    return stride // itemsize


def matrix(op: str, argument: str, array: Any) -> None:
    """The array is 2-D."""
    if len(array.shape) != 2:
        refuse(op, argument, f"a matrix must be 2-D, this array has shape {tuple(array.shape)}")


def row_major(op: str, argument: str, array: Any) -> int:
    """The leading dimension of a 2-D array whose rows are contiguous (C order, or a slice of one)."""
    matrix(op, argument, array)
    ld = leading_dimension(array, "C")
    if ld is None:
        refuse(op, argument, f"rows are not contiguous (strides {tuple(array.strides)}): the op needs C order")
    return ld


class Image(NamedTuple):
    """An image as tilecl takes it: sizes in pixels, channels, and the row pitch in elements."""

    width: int
    height: int
    channels: int
    pitch: int


def image(op: str, argument: str, array: Any, channels: Sequence[int]) -> Image:
    """An H x W (one channel) or H x W x C array with interleaved channels and contiguous rows of pixels."""
    shape = tuple(array.shape)
    if len(shape) not in (2, 3):
        refuse(op, argument, f"an image is H x W or H x W x C, this array has shape {shape}")
    height, width = int(shape[0]), int(shape[1])
    count = int(shape[2]) if len(shape) == 3 else 1
    if count not in channels:
        refuse(op, argument, f"{count} channels: {', '.join(map(str, channels))} are supported (shape {shape})")
    itemsize = array.dtype.itemsize
    if (len(shape) == 3 and count > 1 and array.strides[2] != itemsize) or (
        width > 1 and array.strides[1] != count * itemsize
    ):
        refuse(op, argument, f"pixels are not contiguous within a row (strides {tuple(array.strides)}): make a copy")
    pitch = _step(op, argument, array, 0) if height > 1 and width > 0 else width * count
    if pitch < width * count:
        refuse(op, argument, f"rows overlap: the pitch ({pitch} elements) is below a row ({width * count})")
    return Image(width, height, count, pitch)
