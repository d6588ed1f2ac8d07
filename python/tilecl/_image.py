"""RGB to gray and 2-D filters on images held in pyopencl.array.Array.

An image is an H x W array (one channel) or H x W x C (C interleaved channels, :data:`IMAGE_CHANNELS`), uint8 or
float32, whose pixels are contiguous within a row; rows may be padded or sliced from a larger image (the row
stride becomes tilecl's pitch). The output has the input's shape and dtype unless ``out=`` is given. Filters are
correlations with the anchor at the centre, as OpenCV's filter2D; uint8 results are rounded to nearest and
saturated. Queue, events and errors as for every op (see tilecl._linear_algebra).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

from . import _core
from ._calls import attach, device_array, new_array, place, queue_of, wait_handles
from ._errors import refuse
from ._layout import Image, dtype_of, image, same_dtype
from ._types import Border, enumerator

Array = cl_array.Array
Events = Optional[Sequence[cl.Event]]
BorderLike = Union[Border, str]

#: Channel counts the filters take. The C++ library decides (src/ops/convolve.cpp); when it learns more (2, 4),
#: add them here: nothing else in the Python package depends on the count.
IMAGE_CHANNELS: Tuple[int, ...] = (1, 3, 4)
#: Element types of the image ops.
IMAGE_TYPES: Tuple[str, ...] = ("uint8", "float32")


def check_image(op: str, src: Any, out: Any = None, channels: Sequence[int] = IMAGE_CHANNELS) -> Tuple[str, Image]:
    """(dtype, layout) of a filter's input image; ``out`` must have its shape and dtype."""
    dtype = dtype_of(op, "src", src, IMAGE_TYPES)
    layout = image(op, "src", src, channels)
    if out is not None:
        same_dtype(op, "out", out, dtype)
        if tuple(out.shape) != tuple(src.shape):
            refuse(op, "out", f"shape {tuple(out.shape)} differs from src's {tuple(src.shape)}")
        image(op, "out", out, channels)
    return dtype, layout


def _filter(
    op: str,
    function: Any,
    src: Array,
    out: Optional[Array],
    queue: Optional[cl.CommandQueue],
    wait_for: Events,
    extra_arrays: Sequence[Any],
    *arguments: Any,
) -> Array:
    """Runs ``function(dtype, queue, size, src place, dst place, *arguments, wait)`` for a filter of ``src``."""
    dtype, layout = check_image(op, device_array(op, "src", src), out)
    queue = queue_of(op, (src, out), queue)
    result = out if out is not None else new_array(queue, tuple(src.shape), src.dtype, src)
    target = image(op, "out", device_array(op, "out", result), IMAGE_CHANNELS)
    handle = function(
        dtype,
        queue.int_ptr,
        (layout.width, layout.height, layout.channels),
        (*place(op, "src", src), layout.pitch),
        (*place(op, "out", result), target.pitch),
        *arguments,
        wait_handles(queue, (src, out, *extra_arrays), wait_for),
    )
    attach(handle, (result,))
    return result


def _taps(op: str, argument: str, taps: Any, queue: cl.CommandQueue, dimensions: int) -> Tuple[Array, Tuple[int, ...]]:
    """Filter taps as a contiguous float32 device array: a PyOpenCL array as it is, anything else checked, then
    uploaded. Returns the array and its (width, height) for 2-D taps or (length,) for 1-D ones."""
    if not isinstance(taps, cl_array.Array):
        host = np.ascontiguousarray(taps, dtype=np.float32)
        _tap_shape(op, argument, host, dimensions)
        taps = cl_array.to_device(queue, host)
    return taps, _tap_shape(op, argument, taps, dimensions)


def _tap_shape(op: str, argument: str, taps: Any, dimensions: int) -> Tuple[int, ...]:
    """(width, height) of C-ordered 2-D float32 taps, or (length,) of contiguous 1-D ones."""
    dtype_of(op, argument, taps, ("float32",))
    if len(taps.shape) != dimensions:
        refuse(op, argument, f"filter taps must be {dimensions}-D, got shape {tuple(taps.shape)}")
    if not taps.flags.c_contiguous:
        refuse(op, argument, f"filter taps must be contiguous in C order (strides {tuple(taps.strides)})")
    return tuple(int(size) for size in reversed(taps.shape))


def rgb_to_gray(
    src: Array,
    out: Optional[Array] = None,
    *,
    weights: Tuple[float, float, float] = (0.21, 0.72, 0.07),
    queue: Optional[cl.CommandQueue] = None,
    wait_for: Events = None,
) -> Array:
    """Gray = r R + g G + b B of an H x W x 3 RGB image (uint8 or float32) into an H x W image.

    The sum is formed in float; uint8 results are rounded to nearest (ties to even) and saturated. Non-finite
    weights raise :class:`tilecl.Error`.
    """
    op = "rgb_to_gray"
    dtype, layout = check_image(op, device_array(op, "src", src), None, (3,))
    if len(src.shape) != 3:
        refuse(op, "src", f"an RGB image is H x W x 3, this array has shape {tuple(src.shape)}")
    queue = queue_of(op, (src, out), queue)
    result = out if out is not None else new_array(queue, tuple(src.shape)[:2], src.dtype, src)
    same_dtype(op, "out", device_array(op, "out", result), dtype)
    if tuple(result.shape) not in ((layout.height, layout.width), (layout.height, layout.width, 1)):
        refuse(op, "out", f"shape {tuple(result.shape)} is not the gray image's ({layout.height}, {layout.width})")
    target = image(op, "out", result, (1,))
    red, green, blue = (float(weight) for weight in weights)
    handle = _core.rgb_to_gray(
        dtype,
        queue.int_ptr,
        layout.width,
        layout.height,
        (*place(op, "src", src), layout.pitch),
        (*place(op, "out", result), target.pitch),
        (red, green, blue),
        wait_handles(queue, (src, out), wait_for),
    )
    attach(handle, (result,))
    return result


def convolve2d(
    src: Array,
    kernel: Any,
    out: Optional[Array] = None,
    *,
    border: BorderLike = Border.MIRROR,
    queue: Optional[cl.CommandQueue] = None,
    wait_for: Events = None,
) -> Array:
    """``src`` correlated with a 2-D filter (odd width and height; OpenCV's filter2D), each channel alike.

    ``kernel``: float32 taps, a C-ordered PyOpenCL array (used in place) or anything NumPy converts (uploaded on
    every call: keep a device copy for repeated calls).
    """
    op = "convolve2d"
    check_image(op, device_array(op, "src", src), out)
    queue = queue_of(op, (src, out), queue)
    taps, (width, height) = _taps(op, "kernel", kernel, queue, 2)
    return _filter(
        op,
        _core.convolve2d,
        src,
        out,
        queue,
        wait_for,
        (taps,),
        (*place(op, "kernel", taps), width, height),
        int(enumerator(op, "border", Border, border)),
    )


def separable_filter(
    src: Array,
    row_kernel: Any,
    column_kernel: Any,
    out: Optional[Array] = None,
    *,
    border: BorderLike = Border.MIRROR,
    queue: Optional[cl.CommandQueue] = None,
    wait_for: Events = None,
) -> Array:
    """``src`` correlated with the separable filter column(j) * row(i) (OpenCV's sepFilter2D): ``row_kernel``
    along x and ``column_kernel`` along y, each 1-D with an odd number of float32 taps (device or host arrays,
    as for :func:`convolve2d`)."""
    op = "separable_filter"
    check_image(op, device_array(op, "src", src), out)
    queue = queue_of(op, (src, out), queue)
    row, (row_length,) = _taps(op, "row_kernel", row_kernel, queue, 1)
    column, (column_length,) = _taps(op, "column_kernel", column_kernel, queue, 1)
    return _filter(
        op,
        _core.separable_filter,
        src,
        out,
        queue,
        wait_for,
        (row, column),
        (*place(op, "row_kernel", row), row_length, 0),
        (*place(op, "column_kernel", column), column_length, 0),
        int(enumerator(op, "border", Border, border)),
    )


def _radii(op: str, radius: Union[int, Tuple[int, int]]) -> Tuple[int, int]:
    """(radius_x, radius_y) from one radius or a pair, each a non-negative integer."""
    pair = tuple(radius) if isinstance(radius, (tuple, list)) else (radius, radius)
    if len(pair) != 2 or not all(isinstance(value, (int, np.integer)) and value >= 0 for value in pair):
        refuse(op, "radius", f"{radius!r} is not a non-negative integer or a pair (radius_x, radius_y) of them")
    return int(pair[0]), int(pair[1])


def box_blur(
    src: Array,
    radius: Union[int, Tuple[int, int]],
    out: Optional[Array] = None,
    *,
    border: BorderLike = Border.MIRROR,
    queue: Optional[cl.CommandQueue] = None,
    wait_for: Events = None,
) -> Array:
    """Mean over the (2 rx + 1) x (2 ry + 1) neighbourhood; ``radius`` is r or (rx, ry) (OpenCV's blur with
    ksize (2 rx + 1, 2 ry + 1))."""
    op = "box_blur"
    radius_x, radius_y = _radii(op, radius)
    return _filter(
        op,
        _core.box_blur,
        src,
        out,
        queue,
        wait_for,
        (),
        radius_x,
        radius_y,
        int(enumerator(op, "border", Border, border)),
    )


def gaussian_blur(
    src: Array,
    sigma: float,
    out: Optional[Array] = None,
    *,
    border: BorderLike = Border.MIRROR,
    radius: Optional[int] = None,
    queue: Optional[cl.CommandQueue] = None,
    wait_for: Events = None,
) -> Array:
    """Gaussian blur with standard deviation ``sigma`` > 0 in both directions; ``radius`` defaults to
    ceil(3 sigma) (taps exp(-d^2 / (2 sigma^2)) for |d| <= radius, normalised: OpenCV's GaussianBlur with ksize
    2 radius + 1)."""
    op = "gaussian_blur"
    if radius is not None and not (isinstance(radius, (int, np.integer)) and radius >= 0):
        refuse(op, "radius", f"{radius!r} is not a non-negative integer")
    return _filter(
        op,
        _core.gaussian_blur,
        src,
        out,
        queue,
        wait_for,
        (),
        float(sigma),
        int(enumerator(op, "border", Border, border)),
        None if radius is None else int(radius),
    )
