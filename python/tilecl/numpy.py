"""NumPy in, NumPy out: each function uploads its arrays, runs the op on the device and returns the result.

For one call on data that lives on the host. For pipelines, keep data on the device with the ops of the
``tilecl`` package on pyopencl.array.Array (one upload, many ops, one download).

The device is :func:`default_queue`'s unless ``queue=`` is given. Element types, shapes and layouts are checked
before anything is uploaded; arrays in any memory order are accepted (a contiguous copy is uploaded).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional, Tuple, Union

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

from . import _image, _linear_algebra
from ._runtime import select_device
from ._types import Border, MathMode, ReduceOp

_default_queue: Optional[cl.CommandQueue] = None
_default_queue_lock = threading.Lock()

BorderLike = Union[Border, str]


def default_queue() -> cl.CommandQueue:
    """The queue used when none is given: made on first use, in its own context, on
    :func:`tilecl.select_device` (TILECL_PLATFORM / TILECL_DEVICE, else the first device). Thread-safe."""
    global _default_queue
    with _default_queue_lock:
        if _default_queue is None:
            _default_queue = cl.CommandQueue(cl.Context([select_device()]))
        return _default_queue


def set_default_queue(queue: Optional[cl.CommandQueue]) -> None:
    """Makes ``queue`` the default (None: make a new one on next use)."""
    global _default_queue
    with _default_queue_lock:
        _default_queue = queue


def _host(array: Any) -> np.ndarray:
    """A C-contiguous NumPy array of the data (the array itself when it already is one)."""
    return np.require(np.asarray(array), requirements="C")


def _upload(queue: cl.CommandQueue, array: np.ndarray) -> cl_array.Array:
    return cl_array.to_device(queue, array)


def _image_op(
    op: str,
    function: Callable[..., cl_array.Array],
    img: Any,
    queue: Optional[cl.CommandQueue],
    *arguments: Any,
    **options: Any,
) -> np.ndarray:
    """Checks the image, uploads it, runs ``function(device image, *arguments, **options)`` and downloads."""
    img = _host(img)
    _image.check_image(op, img)
    return function(_upload(queue or default_queue(), img), *arguments, **options).get()


def vector_add(a: Any, b: Any, *, queue: Optional[cl.CommandQueue] = None) -> np.ndarray:
    """``a + b`` for float32, float64 or float16 arrays of one shape."""
    a, b = _host(a), _host(b)
    _linear_algebra.check_elementwise("vector_add", a, b)
    queue = queue or default_queue()
    return _linear_algebra.vector_add(_upload(queue, a), _upload(queue, b)).get()


def axpy(alpha: float, x: Any, y: Any, *, queue: Optional[cl.CommandQueue] = None) -> np.ndarray:
    """``alpha * x + y`` as a new array (``y`` is not changed); float32, float64 or float16."""
    x, y = _host(x), _host(y)
    _linear_algebra.check_elementwise("axpy", x, y)
    queue = queue or default_queue()
    return _linear_algebra.axpy(alpha, _upload(queue, x), _upload(queue, y)).get()


def transpose(a: Any, *, queue: Optional[cl.CommandQueue] = None) -> np.ndarray:
    """``a.T`` as a new C-ordered array (float32, float64, int32, uint8, float16 or ml_dtypes' bfloat16)."""
    a = _host(a)
    _linear_algebra.check_transpose(a)
    return _linear_algebra.transpose(_upload(queue or default_queue(), a)).get()


def reduce(x: Any, op: Union[ReduceOp, str] = ReduceOp.SUM, *, queue: Optional[cl.CommandQueue] = None) -> Any:
    """The sum, min or max of every element (a NumPy scalar of x's dtype; float32 for float16), or the argmin or
    argmax (an int into the flattened array). float32, float64, int32 or float16; see :func:`tilecl.reduce`."""
    x = _host(x)
    _, reduction, _ = _linear_algebra.check_reduce(x, op)
    value = _linear_algebra.reduce(_upload(queue or default_queue(), x), reduction).get()[()]
    return int(value) if reduction in (ReduceOp.ARGMIN, ReduceOp.ARGMAX) else value


def gemm(
    a: Any,
    b: Any,
    c: Any = None,
    *,
    alpha: float = 1.0,
    beta: float = 0.0,
    math: Union[MathMode, str] = MathMode.STANDARD,
    queue: Optional[cl.CommandQueue] = None,
) -> np.ndarray:
    """``alpha * a @ b + beta * c`` (c omitted: ``alpha * a @ b``), float32, float64, float16 or ml_dtypes'
    bfloat16, as a new array; ``math="tf32"`` for float32 as in :func:`tilecl.gemm`."""
    a, b = _host(a), _host(b)
    c = None if c is None else _host(c)
    _linear_algebra.check_gemm(a, b, c, math)
    queue = queue or default_queue()
    out = None if c is None else _upload(queue, c)
    return _linear_algebra.gemm(_upload(queue, a), _upload(queue, b), out, alpha=alpha, beta=beta, math=math).get()


def rgb_to_gray(
    img: Any, *, weights: Tuple[float, float, float] = (0.21, 0.72, 0.07), queue: Optional[cl.CommandQueue] = None
) -> np.ndarray:
    """H x W gray image of an H x W x 3 RGB image (uint8 or float32)."""
    img = _host(img)
    _image.check_image("rgb_to_gray", img, None, (3,))
    return _image.rgb_to_gray(_upload(queue or default_queue(), img), weights=weights).get()


def convolve2d(
    img: Any, kernel: Any, *, border: BorderLike = Border.MIRROR, queue: Optional[cl.CommandQueue] = None
) -> np.ndarray:
    """``img`` correlated with a 2-D filter of odd sizes (OpenCV's filter2D); see :func:`tilecl.convolve2d`."""
    return _image_op("convolve2d", _image.convolve2d, img, queue, kernel, border=border)


def separable_filter(
    img: Any,
    row_kernel: Any,
    column_kernel: Any,
    *,
    border: BorderLike = Border.MIRROR,
    queue: Optional[cl.CommandQueue] = None,
) -> np.ndarray:
    """``img`` correlated with column_kernel(j) * row_kernel(i) (OpenCV's sepFilter2D)."""
    return _image_op("separable_filter", _image.separable_filter, img, queue, row_kernel, column_kernel, border=border)


def box_blur(
    img: Any,
    radius: Union[int, Tuple[int, int]],
    *,
    border: BorderLike = Border.MIRROR,
    queue: Optional[cl.CommandQueue] = None,
) -> np.ndarray:
    """Mean over a (2 rx + 1) x (2 ry + 1) neighbourhood (OpenCV's blur); ``radius`` is r or (rx, ry)."""
    return _image_op("box_blur", _image.box_blur, img, queue, radius, border=border)


def gaussian_blur(
    img: Any,
    sigma: float,
    *,
    border: BorderLike = Border.MIRROR,
    radius: Optional[int] = None,
    queue: Optional[cl.CommandQueue] = None,
) -> np.ndarray:
    """Gaussian blur of an H x W or H x W x C image (uint8 or float32): ``tilecl.numpy.gaussian_blur(img,
    sigma=2)``. ``radius`` defaults to ceil(3 sigma); see :func:`tilecl.gaussian_blur`."""
    return _image_op("gaussian_blur", _image.gaussian_blur, img, queue, sigma, border=border, radius=radius)
