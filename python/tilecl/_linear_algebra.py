"""Elementwise ops, transpose, reductions and GEMM on pyopencl.array.Array.

Each op takes its queue from the first array that has one (or ``queue=``), waits for the events of every array
it touches and for ``wait_for``, enqueues, adds its event to the output's ``events`` and returns the output:
a new array, or ``out=`` when given. Element types, shapes and memory layouts are checked before anything is
enqueued; tilecl itself then checks buffers, contexts and overlap. See README.md ("Python") for the promises.

16-bit floats: NumPy's float16 (vector_add, axpy, transpose, reductions, gemv, gemm) and ml_dtypes' bfloat16
(transpose, gemm) are stored as such and computed in float32, each result rounded once to 16 bits; scalars
(alpha, beta) are floats, and the sum, min and max of float16 are float32 (as tilecl's C++ API gives them).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

from . import _core
from ._calls import attach, device_array, new_array, place, queue_of, wait_handles
from ._errors import refuse
from ._layout import contiguous_size, dtype_of, leading_dimension, matrix, row_major, same_dtype, same_layout
from ._types import MathMode, ReduceOp, enumerator

Array = cl_array.Array
Events = Optional[Sequence[cl.Event]]
FLOATS = ("float32", "float64")
ELEMENTWISE_TYPES = ("float32", "float64", "float16")  # vector_add, axpy, gemv and gemm_strided_batched
TRANSPOSE_TYPES = ("float32", "float64", "int32", "uint8", "float16", "bfloat16")
REDUCE_TYPES = ("float32", "float64", "int32", "float16")
GEMM_TYPES = ("float32", "float64", "float16", "bfloat16")


def check_elementwise(op: str, x: Any, y: Any, out: Any = None) -> Tuple[str, int]:
    """(dtype, element count) of an elementwise op on same-shaped contiguous float arrays."""
    first = "x" if op == "axpy" else "a"
    dtype = dtype_of(op, first, x, ELEMENTWISE_TYPES)
    n = contiguous_size(op, first, x)
    for argument, array in (("y" if op == "axpy" else "b", y), ("out", out)):
        if array is not None:
            same_dtype(op, argument, array, dtype)
            same_layout(op, argument, array, x)  # x's shape and strides: contiguous too
    return dtype, n


def vector_add(
    a: Array, b: Array, out: Optional[Array] = None, *, queue: Optional[cl.CommandQueue] = None, wait_for: Events = None
) -> Array:
    """``out = a + b`` elementwise, for float32, float64 or float16 arrays of one shape with contiguous elements
    (float16: summed in float32 and rounded once, within 2^-11 relative; overflow gives inf).

    ``out`` may be ``a`` or ``b`` (in place); any other overlap raises :class:`tilecl.Error`.
    """
    op = "vector_add"
    dtype, n = check_elementwise(op, device_array(op, "a", a), device_array(op, "b", b), out)
    queue = queue_of(op, (a, b, out), queue)
    result = out if out is not None else new_array(queue, a.shape, a.dtype, a)
    handle = _core.vector_add(
        dtype,
        queue.int_ptr,
        n,
        *place(op, "a", a),
        *place(op, "b", b),
        *place(op, "out", device_array(op, "out", result)),
        wait_handles(queue, (a, b, out), wait_for),
    )
    attach(handle, (result,))
    return result


def axpy(
    alpha: float, x: Array, y: Array, *, queue: Optional[cl.CommandQueue] = None, wait_for: Events = None
) -> Array:
    """``y = alpha * x + y`` in place (BLAS axpy), for float32, float64 or float16 arrays of one shape; returns
    ``y``. For float16, ``alpha`` is a float32 and the result is computed in float32 and rounded once to float16."""
    op = "axpy"
    dtype, n = check_elementwise(op, device_array(op, "x", x), device_array(op, "y", y))
    queue = queue_of(op, (y, x), queue)
    handle = _core.axpy(
        dtype,
        queue.int_ptr,
        n,
        float(alpha),
        *place(op, "x", x),
        *place(op, "y", y),
        wait_handles(queue, (x, y), wait_for),
    )
    attach(handle, (y,))
    return y


def check_transpose(a: Any, out: Any = None) -> str:
    """The dtype of a transpose of ``a`` (2-D, rows contiguous) into ``out`` (its transposed shape)."""
    op = "transpose"
    dtype = dtype_of(op, "a", a, TRANSPOSE_TYPES)
    row_major(op, "a", a)
    if out is not None:
        same_dtype(op, "out", out, dtype)
        if tuple(out.shape) != tuple(a.shape)[::-1]:
            refuse(op, "out", f"shape {tuple(out.shape)} is not the transposed shape {tuple(a.shape)[::-1]}")
        row_major(op, "out", out)
    return dtype


def transpose(
    a: Array, out: Optional[Array] = None, *, queue: Optional[cl.CommandQueue] = None, wait_for: Events = None
) -> Array:
    """``out = a.T`` materialised: a rows x cols matrix with contiguous rows (C order, or rows sliced from a
    wider one) into a cols x rows matrix. float32, float64, int32, uint8, float16 or bfloat16 (ml_dtypes); bit-exact."""
    op = "transpose"
    dtype = check_transpose(device_array(op, "a", a), out)
    queue = queue_of(op, (a, out), queue)
    result = out if out is not None else new_array(queue, tuple(a.shape)[::-1], a.dtype, a)
    rows, cols = a.shape
    handle = _core.transpose(
        dtype,
        queue.int_ptr,
        rows,
        cols,
        *place(op, "a", a),
        row_major(op, "a", a),
        *place(op, "out", device_array(op, "out", result)),
        row_major(op, "out", result),
        wait_handles(queue, (a, out), wait_for),
    )
    attach(handle, (result,))
    return result


def check_reduce(x: Any, op: Union[ReduceOp, str], out: Any = None) -> Tuple[str, ReduceOp, np.dtype]:
    """(dtype, reduction, result dtype) of a reduction of the contiguous array ``x``."""
    name = "reduce"
    dtype = dtype_of(name, "x", x, REDUCE_TYPES)
    reduction = enumerator(name, "op", ReduceOp, op)
    contiguous_size(name, "x", x)
    if reduction in (ReduceOp.ARGMIN, ReduceOp.ARGMAX):
        result_dtype = np.dtype(np.int32)
    else:  # float16 is reduced in float32 and its sum, min and max are float32 (a sum may pass float16's range)
        result_dtype = np.dtype(np.float32) if dtype == "float16" else np.dtype(dtype)
    if out is not None:
        same_dtype(name, "out", out, result_dtype.name)
        if out.size != 1:
            refuse(name, "out", f"the result is one element, out has shape {tuple(out.shape)}")
    return dtype, reduction, result_dtype


def reduce(
    x: Array,
    op: Union[ReduceOp, str] = ReduceOp.SUM,
    out: Optional[Array] = None,
    *,
    queue: Optional[cl.CommandQueue] = None,
    wait_for: Events = None,
) -> Array:
    """Reduces every element of ``x`` (float32, float64, int32 or float16, contiguous) on the device into a 0-d
    array (or the one element of ``out``): "sum", "min", "max" (of x's dtype; float32 for float16, which is read
    as float32 and reduced like it) or "argmin", "argmax" (an int32 index into the flattened array; the first NaN
    if any, else the first extreme). ``.get()`` reads it back.

    The sum of nothing is 0; the min, max, argmin or argmax of nothing raises :class:`tilecl.Error`. Float
    sums are added in a tree (README, Promises); int32 sums wrap.
    """
    name = "reduce"
    dtype, reduction, result_dtype = check_reduce(device_array(name, "x", x), op, out)
    queue = queue_of(name, (x, out), queue)
    result = out if out is not None else new_array(queue, (), result_dtype, x)
    handle = _core.reduce(
        dtype,
        queue.int_ptr,
        int(reduction),
        int(x.size),
        *place(name, "x", x),
        *place(name, "out", device_array(name, "out", result)),
        wait_handles(queue, (x, out), wait_for),
    )
    attach(handle, (result,))
    return result


# sum, min and max shadow the builtins inside this module (NumPy and PyOpenCL use the same names); nothing here
# calls the builtins.
def sum(x: Array, out: Optional[Array] = None, **options: Any) -> Array:
    """:func:`reduce` with "sum"."""
    return reduce(x, ReduceOp.SUM, out, **options)


def min(x: Array, out: Optional[Array] = None, **options: Any) -> Array:
    """:func:`reduce` with "min" (NaN propagates)."""
    return reduce(x, ReduceOp.MIN, out, **options)


def max(x: Array, out: Optional[Array] = None, **options: Any) -> Array:
    """:func:`reduce` with "max" (NaN propagates)."""
    return reduce(x, ReduceOp.MAX, out, **options)


def argmin(x: Array, out: Optional[Array] = None, **options: Any) -> Array:
    """:func:`reduce` with "argmin": an int32 0-d array."""
    return reduce(x, ReduceOp.ARGMIN, out, **options)


def argmax(x: Array, out: Optional[Array] = None, **options: Any) -> Array:
    """:func:`reduce` with "argmax": an int32 0-d array."""
    return reduce(x, ReduceOp.ARGMAX, out, **options)


def math_mode(op: str, math: Union[MathMode, str], dtype: str) -> MathMode:
    """The math mode of a product of ``dtype`` matrices: any for float32, only "standard" for the others."""
    mode = enumerator(op, "math", MathMode, math)
    if mode != MathMode.STANDARD and dtype != "float32":
        refuse(op, "math", f"math mode {mode.name.lower()} takes float32 matrices, these are {dtype}")
    return mode


def check_gemm(
    a: Any, b: Any, out: Any = None, math: Union[MathMode, str] = MathMode.STANDARD
) -> Tuple[str, int, int, int]:
    """(dtype, m, n, k) of ``a @ b`` for 2-D float arrays, ``out`` m x n, in math mode ``math``."""
    op = "gemm"
    matrix(op, "a", a)
    matrix(op, "b", b)
    dtype = dtype_of(op, "a", a, GEMM_TYPES)
    math_mode(op, math, dtype)
    same_dtype(op, "b", b, dtype)
    (m, k), (k_b, n) = a.shape, b.shape
    if k != k_b:
        refuse(op, "b", f"shape {tuple(b.shape)} does not chain with a's {tuple(a.shape)}: b needs {k} rows")
    if out is not None:
        matrix(op, "out", out)
        same_dtype(op, "out", out, dtype)
        if tuple(out.shape) != (m, n):
            refuse(op, "out", f"shape {tuple(out.shape)} is not the product's ({m}, {n})")
    return dtype, int(m), int(n), int(k)


def _beta_needs_out(op: str, out: Any, beta: float) -> None:
    """A new output array holds nothing to scale: beta must be 0 without ``out``."""
    if out is None and beta != 0:
        refuse(op, "beta", f"beta = {beta} needs out= (a new array holds nothing to scale)")


def _stored(op: str, argument: str, array: Any, order: str) -> Tuple[int, int]:
    """(tilecl.Transpose value, leading dimension) of an operand in the product's storage order: as stored
    (No) when its layout is ``order``, else as the transpose of a matrix stored in ``order`` (Yes)."""
    for transposed, layout in ((0, order), (1, "F" if order == "C" else "C")):
        ld = leading_dimension(array, layout)
        if ld is not None:
            return transposed, ld
    refuse(op, argument, f"neither rows nor columns are contiguous (strides {tuple(array.strides)}): make a copy")


def gemm(
    a: Array,
    b: Array,
    out: Optional[Array] = None,
    *,
    alpha: float = 1.0,
    beta: float = 0.0,
    math: Union[MathMode, str] = MathMode.STANDARD,
    queue: Optional[cl.CommandQueue] = None,
    wait_for: Events = None,
) -> Array:
    """``out = alpha * a @ b + beta * out`` (BLAS gemm), float32, float64, float16 or bfloat16 (ml_dtypes).

    Each matrix may be in C or Fortran order or a transposed view (``a.T``): the product is computed in
    ``out``'s order and the other operands are read transposed where their order differs, without copies.
    ``beta`` must be 0 without ``out`` (a new array is not read); with beta = 0 ``out`` is not read (NaN in it
    does not propagate). ``out`` must not overlap ``a`` or ``b``.

    float16 and bfloat16: products accumulated in float32, each result rounded once to 16 bits (tensor cores on
    NVIDIA GPUs of compute capability 8.0+); ``alpha`` and ``beta`` are float32. ``math="tf32"`` (float32 only)
    lets A and B be rounded to TF32 (error about 1e-3 of the magnitude; :class:`tilecl.MathMode`).
    """
    op = "gemm"
    dtype, m, n, k = check_gemm(device_array(op, "a", a), device_array(op, "b", b), out, math)
    _beta_needs_out(op, out, beta)
    queue = queue_of(op, (a, b, out), queue)
    result = out if out is not None else new_array(queue, (m, n), a.dtype, a)
    order = "C" if leading_dimension(device_array(op, "out", result), "C") is not None else "F"
    ldc = leading_dimension(result, order)
    if ldc is None:
        refuse(op, "out", f"neither rows nor columns are contiguous (strides {tuple(result.strides)})")
    trans_a, lda = _stored(op, "a", a, order)
    trans_b, ldb = _stored(op, "b", b, order)
    handle = _core.gemm(
        dtype,
        queue.int_ptr,
        int(math_mode(op, math, dtype)),
        0 if order == "C" else 1,
        trans_a,
        trans_b,
        m,
        n,
        k,
        float(alpha),
        *place(op, "a", a),
        lda,
        *place(op, "b", b),
        ldb,
        float(beta),
        *place(op, "out", result),
        ldc,
        wait_handles(queue, (a, b, out), wait_for),
    )
    attach(handle, (result,))
    return result


def _stride_in_elements(op: str, argument: str, array: Any, what: str, zero_allowed: bool) -> int:
    """The stride of ``array``'s first axis in elements, refused unless whole and positive (or 0 if allowed)."""
    stride = int(array.strides[0])
    itemsize = array.dtype.itemsize
    if stride < 0 or (stride == 0 and not zero_allowed) or stride % itemsize:
        whole = "whole number" if zero_allowed else "positive whole number"
        refuse(op, argument, f"{what} of {stride} bytes is not a {whole} of {itemsize}-byte elements")
    return stride // itemsize


def _vector_step(op: str, argument: str, array: Any, length: int) -> int:
    """The step of a 1-D array of ``length`` elements, in elements (positive and whole)."""
    if len(array.shape) != 1 or int(array.shape[0]) != length:
        refuse(op, argument, f"shape {tuple(array.shape)} is not a vector of {length} elements")
    if length <= 1:
        return 1
    return _stride_in_elements(op, argument, array, "stride", zero_allowed=False)


def gemv(
    a: Array,
    x: Array,
    out: Optional[Array] = None,
    *,
    alpha: float = 1.0,
    beta: float = 0.0,
    queue: Optional[cl.CommandQueue] = None,
    wait_for: Events = None,
) -> Array:
    """``out = alpha * a @ x + beta * out`` (BLAS gemv), float32, float64 or float16: ``a`` m x n in C or Fortran
    order or a transposed view, ``x`` n elements, ``out`` m, both vectors with any positive step (slices such as
    ``x[::2]``). ``beta`` must be 0 without ``out``; with beta = 0 ``out`` is not read. ``out`` must not overlap
    ``a`` or ``x``. float16: computed in float32 (float32 ``alpha``, ``beta``), ``out`` rounded once to float16.
    """
    op = "gemv"
    matrix(op, "a", device_array(op, "a", a))
    dtype = dtype_of(op, "a", a, ELEMENTWISE_TYPES)
    same_dtype(op, "x", device_array(op, "x", x), dtype)
    m, n = (int(size) for size in a.shape)
    incx = _vector_step(op, "x", x, n)
    if out is not None:
        same_dtype(op, "out", device_array(op, "out", out), dtype)
    _beta_needs_out(op, out, beta)
    queue = queue_of(op, (a, x, out), queue)
    result = out if out is not None else new_array(queue, (m,), a.dtype, a)
    incy = _vector_step(op, "out", result, m)
    stored_f, lda = _stored(op, "a", a, "C")
    handle = _core.gemv(
        dtype,
        queue.int_ptr,
        stored_f,  # RowMajor when a's rows are contiguous, else ColMajor: A itself either way
        0,
        m,
        n,
        float(alpha),
        *place(op, "a", a),
        lda,
        *place(op, "x", x),
        incx,
        float(beta),
        *place(op, "out", result),
        incy,
        wait_handles(queue, (a, x, out), wait_for),
    )
    attach(handle, (result,))
    return result


class _Matrices:
    """The last two axes of a 3-D array: the 2-D view ``leading_dimension`` and ``_stored`` read."""

    def __init__(self, array: Any) -> None:
        self.shape = tuple(array.shape[1:])
        self.strides = tuple(array.strides[1:])
        self.dtype = array.dtype


def _batch_stride(op: str, argument: str, array: Any) -> int:
    """Elements between consecutive matrices of a 3-D array (0 or positive and whole)."""
    if int(array.shape[0]) <= 1:
        return 0
    return _stride_in_elements(op, argument, array, "batch stride", zero_allowed=True)


def gemm_strided_batched(
    a: Array,
    b: Array,
    out: Optional[Array] = None,
    *,
    alpha: float = 1.0,
    beta: float = 0.0,
    queue: Optional[cl.CommandQueue] = None,
    wait_for: Events = None,
) -> Array:
    """``out[i] = alpha * a[i] @ b[i] + beta * out[i]`` for every i, in one launch (tilecl::gemm_strided_batched),
    float32, float64 or float16 (float16: float32 ``alpha``, ``beta`` and sums, each result rounded once to float16,
    as :func:`gemv`): ``a`` (batch, m, k), ``b`` (batch, k, n), ``out``
    (batch, m, n). Each matrix may be in C or Fortran order or a transposed view, as in :func:`gemm` (one order
    per array); ``b`` may be a broadcast view (batch stride 0) of one matrix. ``beta`` must be 0 without ``out``.
    """
    op = "gemm_strided_batched"
    for argument, array in (("a", a), ("b", b)):
        if len(device_array(op, argument, array).shape) != 3:
            refuse(op, argument, f"a batch of matrices must be 3-D, this array has shape {tuple(array.shape)}")
    dtype = dtype_of(op, "a", a, ELEMENTWISE_TYPES)
    same_dtype(op, "b", b, dtype)
    (batch, m, k), (batch_b, k_b, n) = (tuple(int(size) for size in array.shape) for array in (a, b))
    if batch_b != batch or k_b != k:
        refuse(op, "b", f"shape {tuple(b.shape)} does not chain with a's {tuple(a.shape)}: b needs ({batch}, {k}, n)")
    if out is not None:
        same_dtype(op, "out", device_array(op, "out", out), dtype)
        if tuple(out.shape) != (batch, m, n):
            refuse(op, "out", f"shape {tuple(out.shape)} is not the products' ({batch}, {m}, {n})")
    _beta_needs_out(op, out, beta)
    queue = queue_of(op, (a, b, out), queue)
    result = out if out is not None else new_array(queue, (batch, m, n), a.dtype, a)
    order = "C" if leading_dimension(_Matrices(result), "C") is not None else "F"
    ldc = leading_dimension(_Matrices(result), order)
    if ldc is None:
        refuse(op, "out", f"neither rows nor columns are contiguous (strides {tuple(result.strides)})")
    trans_a, lda = _stored(op, "a", _Matrices(a), order)
    trans_b, ldb = _stored(op, "b", _Matrices(b), order)
    handle = _core.gemm_strided_batched(
        dtype,
        queue.int_ptr,
        0 if order == "C" else 1,
        trans_a,
        trans_b,
        m,
        n,
        k,
        float(alpha),
        (*place(op, "a", a), lda, _batch_stride(op, "a", a)),
        (*place(op, "b", b), ldb, _batch_stride(op, "b", b)),
        float(beta),
        (*place(op, "out", result), ldc, _batch_stride(op, "out", result)),
        batch,
        wait_handles(queue, (a, b, out), wait_for),
    )
    attach(handle, (result,))
    return result
