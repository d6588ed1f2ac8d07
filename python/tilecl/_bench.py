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

import importlib
import importlib.util
import statistics
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

from . import _core, _image, _linear_algebra
from . import numpy as tilecl_numpy
from ._calls import place
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
    first, second, result = (place("bench", "array", array)[0] for array in (a, b, c))
    queue.finish()

    def cpp_loop() -> CallCost:
        start = time.thread_time()
        wall = _core.time_vector_add(queue.int_ptr, n, first, second, result, calls, synchronous)
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
    best = [
        CallCost(*(min(getattr(run[side], field) for run in runs) for field in CallCost._fields)) for side in (0, 1)
    ]
    return best[0], best[1]


Case = Tuple[str, str, Callable[[], object], str, Optional[Callable[[], object]]]


def _cases(queue: cl.CommandQueue, quick: bool) -> List[Case]:
    """(op, shape, tilecl call, peer name, peer call or None) for a few ops, on random data."""
    rng = np.random.default_rng(1)
    side = 512 if quick else 1024
    height, width = (540, 960) if quick else (1080, 1920)
    image = rng.integers(0, 256, size=(height, width), dtype=np.uint8)
    images: Dict[str, np.ndarray] = {"uint8": image, "float32": image.astype(np.float32)}
    a, b = (rng.standard_normal((side, side), dtype=np.float32) for _ in range(2))
    x = rng.standard_normal(1 << (20 if quick else 24), dtype=np.float32)
    device = {name: cl_array.to_device(queue, value) for name, value in (("a", a), ("b", b), ("x", x))}
    device.update((name, cl_array.to_device(queue, value)) for name, value in images.items())
    cv2: Any = importlib.import_module("cv2") if importlib.util.find_spec("cv2") else None
    blur_peer = "OpenCV GaussianBlur" if cv2 else "-"

    def opencv_blur(host: np.ndarray) -> Optional[Callable[[], object]]:
        return (lambda: cv2.GaussianBlur(host, (9, 9), 1.5)) if cv2 else None

    cases: List[Case] = [
        (
            "gemm",
            f"{side}^3 float32",
            lambda: _linear_algebra.gemm(device["a"], device["b"]),
            "numpy a @ b",
            lambda: a @ b,
        ),
        ("sum", f"n={x.size} float32", lambda: _linear_algebra.sum(device["x"]), "numpy sum", x.sum),
    ]

    def blur(name: str) -> Callable[[], object]:
        return lambda: _image.gaussian_blur(device[name], 1.5, radius=4)

    for name, host in images.items():
        cases.append(("gaussian_blur 9x9", f"{width}x{height} {name}", blur(name), blur_peer, opencv_blur(host)))
    cases.append(
        (
            "numpy.gaussian_blur 9x9",
            f"{width}x{height} uint8 (with transfers)",
            lambda: tilecl_numpy.gaussian_blur(image, 1.5, radius=4, queue=queue),
            blur_peer,
            opencv_blur(image),
        )
    )
    return cases


def run(queue: cl.CommandQueue, quick: bool = False) -> None:
    """Prints the call overhead and the comparison table for ``queue``'s device."""
    print(f"device: {queue.device.name} ({queue.device.platform.name})")
    calls = 2000 if quick else 20000
    for synchronous in (False, True):
        cpp, python = call_overhead(queue, calls, synchronous)
        print(
            f"vector_add of 16 floats, {'each call waited for' if synchronous else 'enqueued back to back'}: "
            f"C++ {cpp.wall * 1e6:.1f} us/call ({cpp.cpu * 1e6:.1f} us CPU), Python {python.wall * 1e6:.1f} us/call "
            f"({python.cpu * 1e6:.1f} us CPU): Python adds {(python.wall - cpp.wall) * 1e6:.1f} us "
            f"({(python.cpu - cpp.cpu) * 1e6:.1f} us CPU)"
        )
    print()
    repeats = 3 if quick else 10
    rows = []
    for op, shape, ours, peer, theirs in _cases(queue, quick):
        ours_seconds = median_seconds(ours, repeats, queue)
        theirs_seconds = median_seconds(theirs, repeats) if theirs else None
        rows.append(
            (
                op,
                shape,
                f"{ours_seconds * 1e3:.2f}",
                peer,
                f"{theirs_seconds * 1e3:.2f}" if theirs_seconds else "-",
                f"{theirs_seconds / ours_seconds:.2f}x" if theirs_seconds else "-",
            )
        )
    print_table(("op", "shape", "tilecl ms", "peer", "peer ms", "tilecl / peer"), rows)
