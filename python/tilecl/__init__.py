"""tilecl: OpenCL kernels compiled at run time, tuned per device, cached in memory and on disk.

Ops on pyopencl.array.Array (queue and events from the arrays, results as new arrays or into ``out=``):
:func:`vector_add`, :func:`axpy`, :func:`transpose`, :func:`reduce` (:func:`sum`, :func:`min`, :func:`max`,
:func:`argmin`, :func:`argmax`), :func:`gemm`, :func:`gemv`, :func:`gemm_strided_batched`, :func:`rgb_to_gray`,
:func:`convolve2d`, :func:`separable_filter`, :func:`box_blur`, :func:`gaussian_blur`. NumPy in and out: :mod:`tilecl.numpy`.
Tuning: :mod:`tilecl.tuning`; the disk cache: :mod:`tilecl.cache`; the command line: ``python -m tilecl``.
Errors raise :class:`Error` with tilecl's message and ``op``, ``argument``, ``status`` attributes.
"""

from . import cache, numpy, tuning
from ._errors import ArgumentTypeError, ArgumentValueError, BuildError, Error
from ._image import IMAGE_CHANNELS, IMAGE_TYPES, box_blur, convolve2d, gaussian_blur, rgb_to_gray, separable_filter
from ._linear_algebra import (
    argmax,
    argmin,
    axpy,
    gemm,
    gemm_strided_batched,
    gemv,
    max,
    min,
    reduce,
    sum,
    transpose,
    vector_add,
)
from ._runtime import (
    cache_directory,
    cache_sizes,
    clear_program_cache,
    device_info,
    forget_context,
    reset_statistics,
    select_device,
    statistics,
    version,
)
from ._types import Border, MathMode, ReduceOp

__version__ = version()

__all__ = [
    "ArgumentTypeError",
    "ArgumentValueError",
    "Border",
    "BuildError",
    "Error",
    "IMAGE_CHANNELS",
    "IMAGE_TYPES",
    "MathMode",
    "ReduceOp",
    "argmax",
    "argmin",
    "axpy",
    "box_blur",
    "cache",
    "cache_directory",
    "cache_sizes",
    "clear_program_cache",
    "convolve2d",
    "device_info",
    "forget_context",
    "gaussian_blur",
    "gemm",
    "gemm_strided_batched",
    "gemv",
    "max",
    "min",
    "numpy",
    "reduce",
    "reset_statistics",
    "rgb_to_gray",
    "select_device",
    "separable_filter",
    "statistics",
    "sum",
    "transpose",
    "tuning",
    "vector_add",
    "version",
]
