"""``python -m tilecl bench``: what calling tilecl from Python costs, and a few ops beside NumPy and OpenCV.

1. Call overhead: the same tiny vector_add (16 floats) called from C++ in a loop (tilecl._core.time_vector_add)
   and through ``tilecl.vector_add(a, b, out=c)``, enqueued back to back and finished once, and each call waited
   for; the difference is what the Python layer adds per call, in wall-clock time and in CPU time of the calling
   thread (the steadier figure on a busy machine, where PoCL's kernels compete with the caller for the cores).
2. Ops on device arrays (transfers excluded) and through tilecl.numpy (transfers included) beside NumPy and
   OpenCV's Python module (when installed), each the median of several runs after a warm-up.
The C++ ``tilecl bench`` is the full benchmark (limits, peers, first-call latency).
"""

from __future__ import annotations

import importlib.util
import statistics
import time
from typing import Callable, List, NamedTuple, Optional, Tuple

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

from . import _core, _image, _linear_algebra
from . import numpy as tilecl_numpy
from ._table import print_table


def median_seconds(function: Callable[[], object], repeats: int, finish: Optional[cl.CommandQueue] = None) -> float:
    """Median wall time of ``function`` (after one warm-up call), finishing ``finish`` inside each run."""
    function()
    if finish is not None:
        finish.finish()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        if finish is not None:
            finish.finish()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


class CallCost(NamedTuple):
    """Seconds per call: wall-clock time, and CPU time of the calling thread (which the load of other processes
    barely changes, unlike the wall clock; PoCL runs kernels on threads of its own)."""

    wall: float
    cpu: float


def call_overhead(queue: cl.CommandQueue, calls: int, synchronous: bool, n: int = 16) -> Tuple[CallCost, CallCost]:
    """(C++, Python) cost per call of vector_add on ``n`` floats, the best of 5 runs of ``calls`` calls each."""
    a, b, c = (cl_array.to_device(queue, np.arange(n, dtype=np.float32)) for _ in range(3))
    handles = (a.base_data.int_ptr, b.base_data.int_ptr, c.base_data.int_ptr)
    queue.finish()

    def cpp_loop() -> CallCost:
        start = time.thread_time()
        wall = _core.time_vector_add(queue.int_ptr, n, *handles, calls, synchronous)
        return CallCost(wall, (time.thread_time() - start) / calls)

    def python_loop() -> CallCost:
        start, start_cpu = time.perf_counter(), time.thread_time()
        for _ in range(calls):
            _linear_algebra.vector_add(a, b, out=c)
            if synchronous:
                c.events[-1].wait()
        queue.finish()
        return CallCost((time.perf_counter() - start) / calls, (time.thread_time() - start_cpu) / calls)

    runs = [(cpp_loop(), python_loop()) for _ in range(5)]
    c.finish()
    best = [CallCost(*(min(getattr(run[side], field) for run in runs) for field in CallCost._fields)) for side in (0, 1)]
    return best[0], best[1]


def _rows(queue: cl.CommandQueue, quick: bool) -> List[Tuple[str, str, float, str, float]]:
    """(op, shape, tilecl seconds, peer name, peer seconds) for a few ops."""
    repeats = 3 if quick else 10
    rng = np.random.default_rng(1)
    side = 512 if quick else 1024
    height, width = (540, 960) if quick else (1080, 1920)
    image = rng.integers(0, 256, size=(height, width), dtype=np.uint8)
    image_f = image.astype(np.float32)
    matrix_a, matrix_b = (rng.standard_normal((side, side), dtype=np.float32) for _ in range(2))
    vector = rng.standard_normal(1 << (20 if quick else 24), dtype=np.float32)
    device = {name: cl_array.to_device(queue, value) for name, value in
              (("image", image), ("image_f", image_f), ("a", matrix_a), ("b", matrix_b), ("x", vector))}
    rows = [("gemm", f"{side}^3 float32", median_seconds(lambda: _linear_algebra.gemm(device["a"], device["b"]),
                                                         repeats, queue),
             "numpy a @ b", median_seconds(lambda: matrix_a @ matrix_b, repeats)),
            ("sum", f"n={vector.size} float32", median_seconds(lambda: _linear_algebra.sum(device["x"]), repeats, queue),
             "numpy sum", median_seconds(vector.sum, repeats))]
    cv2 = __import__("cv2") if importlib.util.find_spec("cv2") else None
    for name, host in (("image", image), ("image_f", image_f)):
        peer = (lambda host=host: cv2.GaussianBlur(host, (9, 9), 1.5)) if cv2 else None
        rows.append(("gaussian_blur 9x9", f"{width}x{height} {host.dtype}",
                     median_seconds(lambda name=name: _image.gaussian_blur(device[name], 1.5, radius=4), repeats, queue),
                     "OpenCV GaussianBlur" if cv2 else "-", median_seconds(peer, repeats) if peer else float("nan")))
    rows.append(("numpy.gaussian_blur 9x9", f"{width}x{height} uint8 (transfers)",
                 median_seconds(lambda: tilecl_numpy.gaussian_blur(image, 1.5, radius=4, queue=queue), repeats),
                 "OpenCV GaussianBlur" if cv2 else "-",
                 median_seconds(lambda: cv2.GaussianBlur(image, (9, 9), 1.5), repeats) if cv2 else float("nan")))
    return rows


def run(queue: cl.CommandQueue, quick: bool = False) -> None:
    """Prints the call overhead and the comparison table for ``queue``'s device."""
    print(f"device: {queue.device.name} ({queue.device.platform.name})")
    calls = 2000 if quick else 20000
    for synchronous in (False, True):
        cpp, python = call_overhead(queue, calls, synchronous)
        print(f"vector_add of 16 floats, {'each call waited for' if synchronous else 'enqueued back to back'}: "
              f"C++ {cpp.wall * 1e6:.1f} us/call ({cpp.cpu * 1e6:.1f} us CPU), Python {python.wall * 1e6:.1f} us/call "
              f"({python.cpu * 1e6:.1f} us CPU): Python adds {(python.wall - cpp.wall) * 1e6:.1f} us "
              f"({(python.cpu - cpp.cpu) * 1e6:.1f} us CPU)")
    print()
    rows = [(op, shape, f"{ours * 1e3:.2f}", peer, f"{theirs * 1e3:.2f}",
             f"{theirs / ours:.2f}x" if theirs == theirs else "-") for op, shape, ours, peer, theirs in _rows(queue, quick)]
    print_table(("op", "shape", "tilecl ms", "peer", "peer ms", "tilecl / peer"), rows)
