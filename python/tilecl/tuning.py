"""Tuning: which kernel variant and parameters an op uses on a device, where they came from, how to change them,
and ahead-of-time tuning (docs/TUNING.md; include/tilecl/tuning.hpp).

Names as in the C++ library: ``op`` as in :func:`tunable_ops` ("gemm", "gaussian_blur", ...), ``dtype`` a tilecl
type name ("float", "double", "int32", "uint8", "half", "bfloat16", and "tf32" for gemm_mma's TF32 mode) or a NumPy
dtype (float16 is "half", ml_dtypes' bfloat16 "bfloat16"), ``shape`` the syntax of ``tilecl tune --shape``
("1024x1024x1024" for gemm, "2^20" for axpy). An unknown op, dtype or malformed shape raises :class:`tilecl.Error`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List

import numpy as np
import pyopencl as cl

from . import _core

_TILECL_TYPE_NAMES = {
    "float32": "float",
    "float64": "double",
    "int32": "int32",
    "uint8": "uint8",
    "float16": "half",
    "bfloat16": "bfloat16",
    "tf32": "tf32",  # gemm_mma's float product in TF32 mode: no NumPy type
}


@dataclass(frozen=True)
class Choice:
    """The parameters a call would use: ``parameters`` as text ("regblock TILE_M=64 ..."), its ``variant`` and
    ``values``, their ``origin`` ("override", "database", "first-use", "tune" or "default") and the shape
    ``bucket`` they are stored under."""

    parameters: str
    variant: str
    values: Dict[str, int]
    origin: str
    bucket: str


@dataclass(frozen=True)
class OpDescription:
    """A tunable op: its family, element types, shape syntax and the shapes ``tilecl tune`` tunes by default."""

    name: str
    family: str
    dtypes: List[str]
    shape_syntax: str
    default_shapes: List[str]


@dataclass(frozen=True)
class TuneResult:
    """One key tuned ahead of time: the ``best`` parameters (when ``found``) and their time, the default's time
    (0 when not measured), how many candidates were tried and how many failed (build, launch or wrong result)."""

    op: str
    dtype: str
    shape: str
    bucket: str
    timing_shape: str
    found: bool
    best: str
    best_ms: float
    default_ms: float
    work: float
    work_unit: str
    tried: int
    failed: int


def dtype_name(dtype: Any) -> str:
    """tilecl's name of an element type: "float", "double", "int32", "uint8", "half", "bfloat16" or "tf32" (NumPy
    dtypes are converted)."""
    if isinstance(dtype, str) and (dtype in _TILECL_TYPE_NAMES.values() or dtype in _TILECL_TYPE_NAMES):
        return _TILECL_TYPE_NAMES.get(dtype, dtype)
    name = np.dtype(dtype).name
    return _TILECL_TYPE_NAMES.get(name, name)


def parameters_for(queue: cl.CommandQueue, op: str, dtype: Any, shape: str) -> Choice:
    """The parameters a call of ``op`` at ``shape`` would use on the queue's device, resolved as the call would
    (with TILECL_TUNE=first-use this may tune)."""
    return Choice(**_core.parameters_for(queue.int_ptr, op, dtype_name(dtype), shape))


def override_parameters(device: cl.Device, op: str, dtype: Any, parameters: str) -> None:
    """Forces ``parameters`` ("regblock TILE_M=64 TILE_N=64 ...", as :class:`Choice` prints them) for every call
    of ``op`` on ``dtype`` on devices like ``device``, in this process. Invalid parameters raise
    :class:`tilecl.Error`."""
    _core.override_parameters(device.int_ptr, op, dtype_name(dtype), parameters)


def clear() -> None:
    """Forgets overrides and every choice held in memory (the database on disk is kept)."""
    _core.clear_tuning()


def tunable_ops() -> List[OpDescription]:
    """The ops the tuner knows."""
    return [OpDescription(**entry) for entry in _core.tunable_ops()]


def mode() -> str:
    """TILECL_TUNE as the library reads it: "off", "first-use" or "full"."""
    return _core.tuning_mode()


def tune(
    queue: cl.CommandQueue,
    op: str,
    dtype: Any,
    shape: str,
    *,
    budget_ms: float = 10000.0,
    strategy: str = "exhaustive",
    seed: int = 1,
    max_candidates: int = 0,
) -> TuneResult:
    """Searches ``op``'s whole space for the bucket of ``shape`` on the queue's device (as ``tilecl tune``),
    verifies each candidate, stores the winner in the tuning database and uses it from now on in this process.
    ``strategy``: "exhaustive" or "random"; ``max_candidates`` 0 means no limit. Blocks for up to about
    ``budget_ms``."""
    name = dtype_name(dtype)
    result = _core.tune(queue.int_ptr, op, name, shape, float(budget_ms), strategy, int(seed), int(max_candidates))
    return TuneResult(op=op, dtype=name, shape=shape, **result)
