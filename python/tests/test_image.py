"""rgb_to_gray and the filters on PyOpenCL arrays, against OpenCV's Python module where it has the border rule
(zero, clamp, mirror) and against a float64 NumPy reference for every rule (wrap included), on random images
of awkward sizes, one and three channels, uint8 and float32, read from and written into padded windows (the
output's poisoned). The kernels themselves are tested at length by the C++ suites; these tests check what the
binding maps (dtypes, channels, pitches, offsets, borders, radii), so each op runs every border and type but
only a few filter sizes: every filter size and border is a program to compile, about a second each on PoCL."""

from __future__ import annotations

import cv2
import numpy as np
import pyopencl.array as cl_array
import pytest
import tilecl
from reference import as_dtype, assert_image_close, correlate, default_radius, gaussian_taps, random_image
from support import Guarded

CV_BORDERS = {"zero": cv2.BORDER_CONSTANT, "clamp": cv2.BORDER_REPLICATE, "mirror": cv2.BORDER_REFLECT_101}
BORDERS = ["zero", "clamp", "mirror", "wrap"]
DTYPES = [np.uint8, np.float32]
SHAPES = [(1, 1), (2, 3), (31, 17), (67, 129)]


def shape_with(shape, channels):
    return shape if channels == 1 else shape + (channels,)


def run_into_window(queue, function, image, *arguments, **options):
    """Runs function(src, *arguments, out=window, **options) with src and out each a padded window."""
    padded = np.zeros((image.shape[0] + 2, image.shape[1] + 4) + image.shape[2:], dtype=image.dtype)
    padded[1:-1, 2:-2] = image
    src = cl_array.to_device(queue, padded)[1 : 1 + image.shape[0], 2 : 2 + image.shape[1]]
    out = Guarded(queue, image.shape, image.dtype)
    assert function(src, *arguments, out=out.view, **options) is out.view
    return out.result()


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_rgb_to_gray_matches_opencv_and_the_weighted_sum(queue, rng, shape, dtype):
    image = random_image(rng, shape + (3,), dtype)
    weights = (0.299, 0.587, 0.114)  # OpenCV's
    expected = as_dtype(image.astype(np.float64) @ np.array(weights), dtype)
    out = Guarded(queue, shape, dtype)
    tilecl.rgb_to_gray(cl_array.to_device(queue, image), out=out.view, weights=weights)
    result = out.result()
    assert_image_close(result, expected, scale=3)
    assert_image_close(result, cv2.cvtColor(image, cv2.COLOR_RGB2GRAY), scale=3)


@pytest.mark.parametrize("border", BORDERS)
@pytest.mark.parametrize("channels", tilecl.IMAGE_CHANNELS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_gaussian_blur_matches_opencv_and_numpy(queue, rng, border, channels, dtype):
    sigma = 1.2
    for shape in SHAPES:
        image = random_image(rng, shape_with(shape, channels), dtype)
        result = run_into_window(queue, tilecl.gaussian_blur, image, sigma, border=border)
        taps = gaussian_taps(sigma, default_radius(sigma))
        assert_image_close(result, as_dtype(correlate(image, np.outer(taps, taps), border), dtype), scale=2)
        if border in CV_BORDERS and dtype == np.float32 and min(shape) > default_radius(sigma):
            size = 2 * default_radius(sigma) + 1
            expected = cv2.GaussianBlur(image, (size, size), sigma, borderType=CV_BORDERS[border])
            assert_image_close(result, expected.reshape(image.shape), scale=2)


@pytest.mark.parametrize("border", BORDERS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_box_blur_matches_opencv_and_numpy(queue, rng, border, dtype):
    radius_x, radius_y = 2, 1
    for shape in [(37, 53, 3), (5, 2)]:
        image = random_image(rng, shape, dtype)
        result = run_into_window(queue, tilecl.box_blur, image, (radius_x, radius_y), border=border)
        taps = np.full((2 * radius_y + 1, 2 * radius_x + 1), 1.0 / ((2 * radius_x + 1) * (2 * radius_y + 1)))
        assert_image_close(result, as_dtype(correlate(image, taps, border), dtype), scale=2)
        if border in CV_BORDERS and dtype == np.float32 and min(shape[:2]) > radius_x:
            expected = cv2.blur(image, (2 * radius_x + 1, 2 * radius_y + 1), borderType=CV_BORDERS[border])
            assert_image_close(result, expected, scale=2)


def test_box_blur_of_radius_zero_copies(queue, rng):
    image = random_image(rng, (7, 9), np.uint8)
    np.testing.assert_array_equal(run_into_window(queue, tilecl.box_blur, image, 0), image)


@pytest.mark.parametrize("border", BORDERS)
def test_convolve2d_matches_opencv_filter2d_and_numpy(queue, rng, border):
    taps = rng.standard_normal((3, 5)).astype(np.float32)
    cases = [(np.float32, (29, 41)), (np.float32, (2, 2))] + ([(np.uint8, (29, 41, 3))] if border == "mirror" else [])
    for dtype, shape in cases:
        image = random_image(rng, shape, dtype)
        result = run_into_window(queue, tilecl.convolve2d, image, cl_array.to_device(queue, taps), border=border)
        assert_image_close(result, as_dtype(correlate(image, taps, border), dtype), scale=np.abs(taps).sum() * 2)
        if border in CV_BORDERS and dtype == np.float32 and min(shape) > max(taps.shape):
            expected = cv2.filter2D(image, -1, taps, borderType=CV_BORDERS[border])
            assert_image_close(result, expected, scale=np.abs(taps).sum() * 2)


@pytest.mark.parametrize("border", BORDERS)
def test_separable_filter_matches_opencv_and_numpy_with_host_taps(queue, rng, border):
    row, column = rng.standard_normal(5).astype(np.float32), rng.standard_normal(3).astype(np.float32)
    for dtype in DTYPES if border == "mirror" else [np.float32]:
        image = random_image(rng, (43, 23, 3), dtype)
        result = run_into_window(queue, tilecl.separable_filter, image, row, column, border=border)
        scale = np.abs(np.outer(column, row)).sum() * 2
        assert_image_close(result, as_dtype(correlate(image, np.outer(column, row), border), dtype), scale=scale)
        if border in CV_BORDERS and dtype == np.float32:
            assert_image_close(
                result, cv2.sepFilter2D(image, -1, row, column, borderType=CV_BORDERS[border]), scale=scale
            )


def test_filters_larger_than_the_image_and_explicit_radius(queue, rng):
    image = random_image(rng, (3, 4), np.float32)
    for border in BORDERS:
        result = tilecl.gaussian_blur(cl_array.to_device(queue, image), 3.0, border=border, radius=4).get()
        taps = gaussian_taps(3.0, 4)
        assert_image_close(result, correlate(image, np.outer(taps, taps), border).astype(np.float32))
