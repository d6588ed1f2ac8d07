"""Guarded outputs: a device array surrounded by poisoned elements, so a test sees both that every element of
the output was written and that nothing around it was (the Python side of tests/support/guarded_buffer.hpp)."""

from __future__ import annotations

from typing import Tuple

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

GUARD = 3


def poison(dtype: np.dtype) -> object:
    """A value no op writes by accident: NaN for floats (ml_dtypes' bfloat16 too), a bit pattern for integers."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f" or dtype.name == "bfloat16":
        return np.nan
    return np.array(0xABABABAB, dtype=np.uint32).astype(dtype)[()]


class Guarded:
    """``view``: a shape-sized window (rows padded, offset from the buffer's start) of a poisoned device array."""

    def __init__(self, queue: cl.CommandQueue, shape: Tuple[int, ...], dtype: np.dtype) -> None:
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)
        outer = tuple(size + 2 * GUARD for size in self.shape[:2]) + self.shape[2:]
        self.whole = cl_array.to_device(queue, np.full(outer, poison(dtype), dtype=self.dtype))
        self.window = tuple(slice(GUARD, GUARD + size) for size in self.shape[:2])
        self.view = self.whole[self.window]

    def result(self) -> np.ndarray:
        """The window's contents, after checking that every element around it still holds the poison."""
        host = self.whole.get()
        outside = np.ones(host.shape, dtype=bool)
        outside[self.window] = False
        expected = np.full(host.shape, poison(self.dtype), dtype=self.dtype)
        np.testing.assert_array_equal(  # the bytes: NaN poison compares equal, in any element type
            host[outside].view(np.uint8), expected[outside].view(np.uint8), err_msg="an op wrote outside its output"
        )
        return host[self.window]
