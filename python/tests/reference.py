"""Host references for the image ops, in float64 with NumPy (independent of OpenCV), and the tolerances the C++
library promises (README, Promises): sums formed in float, uint8 rounded to nearest and saturated."""

from __future__ import annotations

import math
from typing import Tuple

import numpy as np

NUMPY_PAD_MODES = {"zero": "constant", "clamp": "edge", "mirror": "reflect", "wrap": "wrap"}


def pad(image: np.ndarray, radius_y: int, radius_x: int, border: str) -> np.ndarray:
    """The image extended by the radii as the border rule reads outside it (also past the far edge when the
    filter is larger than the image: NumPy applies the rule repeatedly, as tilecl does)."""
    padded = image.astype(np.float64)
    for axis, radius in ((0, radius_y), (1, radius_x)):
        mode = NUMPY_PAD_MODES[border]
        if mode == "reflect" and image.shape[axis] == 1:
            mode = "edge"  # reflect-101 of a single row or column repeats it
        widths = [(0, 0)] * image.ndim
        widths[axis] = (radius, radius)
        padded = np.pad(padded, widths, mode=mode)
    return padded


def correlate(image: np.ndarray, taps: np.ndarray, border: str) -> np.ndarray:
    """dst(y, x) = sum taps(j, i) src(y + j - ry, x + i - rx), each channel alike, in float64."""
    radius_y, radius_x = taps.shape[0] // 2, taps.shape[1] // 2
    padded = pad(image, radius_y, radius_x, border)
    height, width = image.shape[:2]
    result = np.zeros(image.shape, dtype=np.float64)
    for j in range(taps.shape[0]):
        for i in range(taps.shape[1]):
            result += float(taps[j, i]) * padded[j : j + height, i : i + width]
    return result


def gaussian_taps(sigma: float, radius: int) -> np.ndarray:
    """exp(-d^2 / (2 sigma^2)) for |d| <= radius, normalised to sum 1."""
    distances = np.arange(-radius, radius + 1, dtype=np.float64)
    taps = np.exp(-(distances**2) / (2 * sigma * sigma))
    return taps / taps.sum()


def default_radius(sigma: float) -> int:
    return max(1, math.ceil(3 * sigma))


def as_dtype(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """float64 results in the image's type: uint8 rounded to nearest (ties to even) and saturated."""
    if np.dtype(dtype) == np.uint8:
        return np.clip(np.rint(values), 0, 255).astype(np.uint8)
    return values.astype(dtype)


def assert_image_close(result: np.ndarray, expected: np.ndarray, scale: float = 1.0) -> None:
    """uint8 within 1 (the float sum may round the other way near .5), float32 within 1e-5 of ``scale``."""
    assert result.shape == expected.shape and result.dtype == expected.dtype
    difference = np.abs(result.astype(np.float64) - expected.astype(np.float64))
    bound = 1.0 if result.dtype == np.uint8 else 1e-5 * max(scale, 1.0)
    assert difference.max(initial=0) <= bound, (
        f"max difference {difference.max()} at {np.unravel_index(difference.argmax(), difference.shape)}"
    )


def random_image(rng: np.random.Generator, shape: Tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """Random uint8 pixels, or floats in [-1, 2) (so saturation and signs are exercised)."""
    if np.dtype(dtype) == np.uint8:
        return rng.integers(0, 256, size=shape, dtype=np.uint8)
    return (rng.random(shape) * 3 - 1).astype(dtype)
