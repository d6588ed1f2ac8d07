"""tilecl.numpy: NumPy in, NumPy out, on the default queue, for arrays in any memory order."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import tilecl
import tilecl.numpy as tnp
from reference import assert_image_close


def test_gaussian_blur_of_an_rgb_uint8_image_matches_opencv(queue, rng):
    image = rng.integers(0, 256, size=(61, 83, 3), dtype=np.uint8)
    result = tnp.gaussian_blur(image, sigma=2)
    assert result.shape == image.shape and result.dtype == np.uint8
    assert_image_close(result, cv2.GaussianBlur(image.astype(np.float32), (13, 13), 2).round().astype(np.uint8))


def test_gemm_matches_numpy_also_for_transposed_inputs(queue, rng):
    a = rng.standard_normal((70, 50)).astype(np.float32)
    b = rng.standard_normal((70, 33)).astype(np.float32)
    c = rng.standard_normal((50, 33)).astype(np.float32)
    np.testing.assert_allclose(tnp.gemm(a.T, b), a.T @ b, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(tnp.gemm(a.T, b, c, alpha=2, beta=3), 2 * a.T @ b + 3 * c, rtol=1e-4, atol=1e-4)


def test_every_host_function_matches_numpy(queue, rng):
    x, y = rng.standard_normal(1001), rng.standard_normal(1001)
    np.testing.assert_allclose(tnp.vector_add(x, y), x + y)
    np.testing.assert_allclose(tnp.axpy(3.0, x, y), 3 * x + y)
    matrix = rng.integers(0, 255, size=(13, 7), dtype=np.uint8)
    np.testing.assert_array_equal(tnp.transpose(matrix[:, ::-1][:, ::-1]), matrix.T)
    assert tnp.reduce(x, "sum") == pytest.approx(x.sum())
    assert tnp.reduce(x, tilecl.ReduceOp.ARGMAX) == x.argmax()
    rgb = rng.random((5, 9, 3)).astype(np.float32)
    np.testing.assert_allclose(tnp.rgb_to_gray(rgb), rgb @ np.float32([0.21, 0.72, 0.07]), rtol=1e-6)
    image = rng.random((17, 19)).astype(np.float32)
    np.testing.assert_allclose(
        tnp.box_blur(image, 1, border="clamp"),
        cv2.blur(image, (3, 3), borderType=cv2.BORDER_REPLICATE),
        rtol=1e-5,
        atol=1e-6,
    )
    np.testing.assert_allclose(tnp.convolve2d(image, [[0, 0, 0], [0, 2, 0], [0, 0, 0]]), 2 * image, rtol=1e-6)
    np.testing.assert_allclose(tnp.separable_filter(image, [0, 1, 0], [1]), image, rtol=1e-6)
    np.testing.assert_array_equal(
        tnp.box_blur(image[:, :, None], 1, border="clamp"), tnp.box_blur(image, 1, border="clamp")[:, :, None]
    )


def test_default_queue_is_made_once_and_can_be_replaced(queue):
    assert tnp.default_queue() is queue
    tnp.set_default_queue(None)
    made = tnp.default_queue()
    assert made is tnp.default_queue() and made is not queue
    tnp.set_default_queue(queue)
