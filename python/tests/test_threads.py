"""Ops called from several Python threads at once (the GIL is released in the library), on one shared queue and
on queues of their own, each result checked against NumPy."""

from __future__ import annotations

import threading

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array
import tilecl
from reference import as_dtype, assert_image_close, correlate, gaussian_taps

THREADS = 4
ROUNDS = 6


def one_round(queue, rng, index):
    a = rng.standard_normal((33 + index, 40)).astype(np.float32)
    b = rng.standard_normal((40, 27)).astype(np.float32)
    product = tilecl.gemm(cl_array.to_device(queue, a), cl_array.to_device(queue, b)).get()
    np.testing.assert_allclose(product, a @ b, rtol=1e-4, atol=1e-4)
    image = rng.integers(0, 256, size=(20 + index, 31, 3), dtype=np.uint8)
    blurred = tilecl.gaussian_blur(cl_array.to_device(queue, image), 1.2).get()
    taps = gaussian_taps(1.2, 4)
    assert_image_close(blurred, as_dtype(correlate(image, np.outer(taps, taps), "mirror"), np.uint8))
    x = rng.standard_normal(5000 + index)
    total = tilecl.sum(cl_array.to_device(queue, x)).get()[()]
    assert abs(total - x.sum()) <= 1e-12 * np.abs(x).sum()


def run_threads(make_queue, seed):
    failures = []

    def work(index):
        try:
            queue = make_queue()
            rng = np.random.default_rng([seed, index])
            for round_index in range(ROUNDS):
                one_round(queue, rng, (index + round_index) % 5)
        except Exception as error:  # reported in the main thread
            failures.append(error)

    threads = [threading.Thread(target=work, args=(index,)) for index in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures


def test_threads_sharing_one_queue(queue, rng):
    run_threads(lambda: queue, int(rng.integers(1 << 30)))


def test_threads_with_queues_of_their_own(queue, rng):
    run_threads(lambda: cl.CommandQueue(queue.context), int(rng.integers(1 << 30)))
