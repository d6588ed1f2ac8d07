"""16-bit floats (NumPy's float16, ml_dtypes' bfloat16) and gemm's TF32 mode against a float64 NumPy reference, with
the error bounds of the C++ headers (tilecl/elementwise.hpp, reduce.hpp, gemv.hpp, gemm.hpp), at awkward sizes,
from offsets and padded rows, into poisoned and guarded outputs."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pyopencl.array as cl_array
import pytest
import tilecl
from support import Guarded

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
HALF_UNIT = 2.0**-11  # rounding to float16 (half of its 2^-10 spacing)
SUBNORMAL = 2.0**-25  # half the spacing of float16's subnormals
FLOAT_UNIT = 2.0**-24


def random_16bit(rng, shape, dtype):
    """Random normal values stored in ``dtype`` (the reference then starts from exactly these values)."""
    return rng.standard_normal(shape).astype(dtype)


def exact(array):
    return np.asarray(array).astype(np.float64)


def assert_within(got, want, bound, what):
    """Every |got - want| <= bound (arrays broadcast); NaN in got fails."""
    error = np.abs(exact(got) - want)
    bad = ~(error <= bound)
    assert not bad.any(), (
        f"{what}: {int(bad.sum())} of {bad.size} beyond the bound, first at {np.argwhere(bad)[0]}: "
        f"{exact(got)[bad][0]} vs {want[bad][0]}"
    )


def padded(queue, host):
    """A 2-D ``host`` on the device inside a larger matrix (an offset and a leading dimension above its extent), in
    its own order: Fortran-ordered arrays become the transposed view of a padded C-ordered one."""
    if not host.flags.c_contiguous:
        return padded(queue, np.ascontiguousarray(host.T)).T
    rows, cols = host.shape
    whole = np.zeros((rows + 2, cols + 3), host.dtype)
    whole[1 : 1 + rows, 2 : 2 + cols] = host
    return cl_array.to_device(queue, whole)[1 : 1 + rows, 2 : 2 + cols]


def device_window(queue, host, at):
    """``host`` on the device as a view starting ``at`` elements into a larger buffer (a non-zero offset)."""
    whole = np.concatenate([np.zeros(at, host.dtype), host.ravel()])
    return cl_array.to_device(queue, whole)[at:].reshape(host.shape)


@pytest.mark.parametrize("n", [1, 7, 97, 1031, 65537])
def test_float16_vector_add_and_axpy_round_once_to_half(queue, rng, n):
    a, b = random_16bit(rng, n, np.float16), random_16bit(rng, n, np.float16)
    out = Guarded(queue, (n,), np.float16)
    tilecl.vector_add(device_window(queue, a, 3), device_window(queue, b, 5), out=out.view)
    want = exact(a) + exact(b)
    assert_within(out.result(), want, HALF_UNIT * np.abs(want) + SUBNORMAL, "vector_add float16")
    y = Guarded(queue, (n,), np.float16)
    y.whole[y.window] = b
    tilecl.axpy(-1.75, device_window(queue, a, 1), y.view)
    want = -1.75 * exact(a) + exact(b)
    float_error = 2 * FLOAT_UNIT * (1.75 * np.abs(exact(a)) + np.abs(exact(b)))  # the product's and the sum's
    assert_within(y.result(), want, HALF_UNIT * np.abs(want) + float_error + SUBNORMAL, "axpy float16")
    sums = tilecl.numpy.vector_add(a, b)
    assert sums.dtype == np.float16
    assert_within(sums, exact(a) + exact(b), HALF_UNIT * np.abs(exact(a) + exact(b)) + SUBNORMAL, "tilecl.numpy")


def test_float16_overflow_gives_inf_and_nan_propagates(queue):
    a = np.array([60000, -60000, np.nan, 1, np.inf], dtype=np.float16)
    b = np.array([60000, -60000, 1, np.nan, 1], dtype=np.float16)
    result = tilecl.numpy.vector_add(a, b)
    assert result.dtype == np.float16
    assert result[0] == np.inf and result[1] == -np.inf and np.isnan(result[2:4]).all() and result[4] == np.inf
    scaled = tilecl.numpy.axpy(2.0, a[:2], np.zeros(2, np.float16))
    assert list(scaled) == [np.inf, -np.inf]
    # A sum beyond float16's range is a float32 (it is reduced in float32).
    assert tilecl.numpy.reduce(np.full(4, 60000, np.float16)) == np.float32(240000)


@pytest.mark.parametrize("rows, cols", [(0, 5), (1, 1), (1, 67), (67, 1), (31, 37), (129, 255)])
@pytest.mark.parametrize("dtype", [np.float16, BFLOAT16])
def test_16bit_transpose_moves_the_bits_from_padded_rows(queue, rng, rows, cols, dtype):
    whole = rng.integers(0, 1 << 16, size=(rows + 2, cols + 5), dtype=np.uint16).view(dtype)  # NaN patterns too
    window = whole[1 : 1 + rows, 2 : 2 + cols]
    out = Guarded(queue, (cols, rows), dtype)
    tilecl.transpose(cl_array.to_device(queue, whole)[1 : 1 + rows, 2 : 2 + cols], out=out.view)
    assert out.result().view(np.uint16).tolist() == window.T.view(np.uint16).tolist()
    assert tilecl.numpy.transpose(window).tobytes() == np.ascontiguousarray(window.T).tobytes()


@pytest.mark.parametrize("n", [1, 2, 97, 4099, 1 << 20])
def test_float16_reductions_are_float32_within_the_float_bound(queue, rng, n):
    x = random_16bit(rng, n, np.float16)
    device = device_window(queue, x, 7)
    total = tilecl.sum(device)
    assert total.dtype == np.float32
    values = exact(x)
    bound = (n + 2) * FLOAT_UNIT * np.abs(values).sum()  # float summation in any order
    assert abs(float(total.get()[()]) - values.sum()) <= bound
    assert tilecl.min(device).get()[()] == np.float32(x.min()) and tilecl.max(device).get()[()] == np.float32(x.max())
    assert tilecl.argmin(device).get()[()] == x.argmin() and tilecl.argmax(device).get()[()] == x.argmax()
    assert tilecl.numpy.reduce(x, "max") == np.float32(x.max()) and tilecl.numpy.reduce(x, "argmin") == x.argmin()


def test_float16_reduction_propagates_nan_and_writes_a_float32_out(queue, rng):
    x = random_16bit(rng, 101, np.float16)
    x[[40, 70]] = np.nan
    device = cl_array.to_device(queue, x)
    assert np.isnan(tilecl.max(device).get()[()]) and tilecl.argmin(device).get()[()] == 40
    out = cl_array.to_device(queue, np.full(3, np.nan, np.float32))
    tilecl.reduce(cl_array.to_device(queue, x[:40]), "sum", out=out[1:2])
    assert out.get()[1] == pytest.approx(exact(x[:40]).sum(), abs=42 * FLOAT_UNIT * np.abs(exact(x[:40])).sum())
    assert np.isnan(out.get()[[0, 2]]).all()
    with pytest.raises(tilecl.ArgumentTypeError, match="float16 differs from the input's float32"):
        tilecl.reduce(device, "sum", out=cl_array.empty(queue, (), np.float16))


def gemv_bound(a, x, alpha, beta, y, want, depth):
    """gemv.hpp: (depth + 2) 2^-24 (|alpha| sum |a x| + |beta y|) plus the rounding of y to half."""
    magnitude = abs(alpha) * (np.abs(a) @ np.abs(x)) + abs(beta) * np.abs(y)
    return (depth + 2) * FLOAT_UNIT * magnitude * (1 + HALF_UNIT) + HALF_UNIT * np.abs(want) + SUBNORMAL


@pytest.mark.parametrize("m, n", [(1, 1), (1, 67), (67, 1), (29, 37), (130, 257)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_float16_gemv_is_within_its_bound_for_both_orders_and_steps(queue, rng, m, n, order):
    a = np.asarray(random_16bit(rng, (m, n), np.float16), order=order)
    x_whole, y = random_16bit(rng, 2 * n, np.float16), random_16bit(rng, m, np.float16)
    x = x_whole[::2]
    out = Guarded(queue, (m,), np.float16)
    out.whole[out.window] = y
    tilecl.gemv(padded(queue, a), cl_array.to_device(queue, x_whole)[::2], out.view, alpha=0.75, beta=-0.5)
    want = 0.75 * (exact(a) @ exact(x)) - 0.5 * exact(y)
    assert_within(out.result(), want, gemv_bound(exact(a), exact(x), 0.75, -0.5, exact(y), want, n), "gemv float16")
    a_t = cl_array.to_device(queue, np.ascontiguousarray(a.T)).T  # the same matrix read transposed
    got = tilecl.gemv(a_t, cl_array.to_device(queue, np.ascontiguousarray(x)), alpha=0.75).get()
    want = 0.75 * (exact(a) @ exact(x))
    assert_within(got, want, gemv_bound(exact(a), exact(x), 0.75, 0, 0, want, n), "gemv float16, A transposed")


def gemm_bound(a, b, alpha, beta, c, want, k, unit):
    """gemm.hpp for 16-bit T: u |exact| + (1 + u) 2 (k + 4) 2^-24 magnitude (+ 2^-25 for half)."""
    magnitude = abs(alpha) * (np.abs(a) @ np.abs(b)) + abs(beta) * np.abs(c)
    return unit * np.abs(want) + (1 + unit) * 2 * (k + 4) * FLOAT_UNIT * magnitude + SUBNORMAL


GEMM_SHAPES = [(1, 1, 1), (7, 13, 5), (37, 29, 41), (67, 1, 129), (1, 67, 33), (65, 70, 131)]


@pytest.mark.parametrize("m, n, k", GEMM_SHAPES)
@pytest.mark.parametrize("dtype, unit", [(np.float16, HALF_UNIT), (BFLOAT16, 2.0**-8)])
@pytest.mark.parametrize("orders", ["CCC", "FCF", "CFC", "FFF"])
def test_16bit_gemm_is_within_its_bound_in_every_storage_order(queue, rng, m, n, k, dtype, unit, orders):
    a = np.asarray(random_16bit(rng, (m, k), dtype), order=orders[0])
    b = np.asarray(random_16bit(rng, (k, n), dtype), order=orders[1])
    c = random_16bit(rng, (m, n), dtype)
    if orders[2] == "C":
        out = Guarded(queue, (m, n), dtype)  # padded rows, an offset, NaN around
        whole = out.whole.get()
        whole[out.window] = c
        out.whole.set(whole)
        view = out.view
    else:
        view = cl_array.to_device(queue, np.asfortranarray(c))
    tilecl.gemm(padded(queue, a), padded(queue, b), view, alpha=1.5, beta=-0.5)
    got = out.result() if orders[2] == "C" else view.get()
    want = 1.5 * (exact(a) @ exact(b)) - 0.5 * exact(c)
    assert got.dtype == dtype
    assert_within(got, want, gemm_bound(exact(a), exact(b), 1.5, -0.5, exact(c), want, k, unit), f"gemm {dtype}")


@pytest.mark.parametrize("dtype, unit", [(np.float16, HALF_UNIT), (BFLOAT16, 2.0**-8)])
def test_16bit_gemm_through_tilecl_numpy_and_from_transposed_views(queue, rng, dtype, unit):
    m, n, k = 31, 17, 23
    a, b = random_16bit(rng, (k, m), dtype).T, random_16bit(rng, (k, n), dtype)  # a: a transposed view
    got = tilecl.numpy.gemm(a, b, alpha=2.0)
    want = 2.0 * (exact(a) @ exact(b))
    assert_within(got, want, gemm_bound(exact(a), exact(b), 2.0, 0, 0, want, k, unit), "tilecl.numpy.gemm")
    device = tilecl.gemm(cl_array.to_device(queue, np.ascontiguousarray(a.T)).T, cl_array.to_device(queue, b), alpha=2)
    assert_within(device.get(), want, gemm_bound(exact(a), exact(b), 2.0, 0, 0, want, k, unit), "a transposed view")


@pytest.mark.parametrize("batch, m, n, k", [(1, 1, 1, 1), (5, 7, 13, 5), (3, 37, 29, 41), (40, 8, 8, 8)])
def test_float16_gemm_strided_batched_is_within_its_bound(queue, rng, batch, m, n, k):
    a = random_16bit(rng, (batch, m, k), np.float16)
    b = random_16bit(rng, (batch, n, k), np.float16).transpose(0, 2, 1)  # each B read transposed
    c = random_16bit(rng, (batch, m, n), np.float16)
    out = cl_array.to_device(queue, c)
    b_stored = cl_array.to_device(queue, np.ascontiguousarray(b.transpose(0, 2, 1))).transpose((0, 2, 1))
    tilecl.gemm_strided_batched(device_window(queue, a, 3), b_stored, out, alpha=-0.75, beta=1.5)
    got = out.get()
    assert got.dtype == np.float16
    for i in range(batch):
        want = -0.75 * (exact(a[i]) @ exact(b[i])) + 1.5 * exact(c[i])
        bound = gemm_bound(exact(a[i]), exact(b[i]), -0.75, 1.5, exact(c[i]), want, k, HALF_UNIT)
        assert_within(got[i], want, bound, f"gemm_strided_batched float16, matrix {i}")


@pytest.mark.parametrize("m, n, k", [(1, 1, 1), (37, 29, 41), (129, 67, 257)])
def test_tf32_gemm_is_within_its_bound(queue, rng, m, n, k):
    a, b = rng.standard_normal((m, k), np.float32), rng.standard_normal((k, n), np.float32)
    c = rng.standard_normal((m, n), np.float32)
    out = cl_array.to_device(queue, c)
    tilecl.gemm(cl_array.to_device(queue, a), cl_array.to_device(queue, b), out, alpha=0.5, beta=2.0, math="tf32")
    want = 0.5 * (exact(a) @ exact(b)) + 2.0 * exact(c)
    magnitude = 0.5 * (np.abs(exact(a)) @ np.abs(exact(b))) + 2.0 * np.abs(exact(c))
    bound = (2.0**-10 + 2 * (k + 5) * FLOAT_UNIT) * magnitude
    assert_within(out.get(), want, bound, "gemm tf32")
    got = tilecl.numpy.gemm(a, b, math=tilecl.MathMode.TF32)
    want = exact(a) @ exact(b)
    assert_within(got, want, (2.0**-10 + 2 * (k + 5) * FLOAT_UNIT) * (np.abs(exact(a)) @ np.abs(exact(b))), "numpy")
    standard = tilecl.numpy.gemm(a, b, math="STANDARD")
    assert_within(standard, want, (k + 2) * FLOAT_UNIT * (np.abs(exact(a)) @ np.abs(exact(b))), "standard")


def test_unsupported_16bit_uses_and_math_modes_are_refused_before_anything_runs(queue, rng):
    half = cl_array.to_device(queue, random_16bit(rng, (4, 4), np.float16))
    brain = cl_array.to_device(queue, random_16bit(rng, (4, 4), BFLOAT16))
    single = cl_array.to_device(queue, rng.standard_normal((4, 4), np.float32))
    with pytest.raises(tilecl.ArgumentValueError, match=r"math mode tf32 takes float32 matrices, these are float16"):
        tilecl.gemm(half, half, math="tf32")
    with pytest.raises(tilecl.ArgumentValueError, match=r"math: 'fast' is not one of standard, tf32"):
        tilecl.gemm(single, single, math="fast")
    with pytest.raises(tilecl.ArgumentValueError, match=r"these are float64"):
        tilecl.numpy.gemm(np.eye(3), np.eye(3), math="tf32")
    with pytest.raises(tilecl.ArgumentTypeError, match=r"element type bfloat16 is not supported \(use float32"):
        tilecl.gemm_strided_batched(brain.reshape(1, 4, 4), brain.reshape(1, 4, 4))
    with pytest.raises(tilecl.ArgumentTypeError, match=r"element type bfloat16 is not supported"):
        tilecl.vector_add(brain, brain)
    for call in (lambda: tilecl.sum(brain), lambda: tilecl.gemv(brain, brain[0])):
        with pytest.raises(tilecl.ArgumentTypeError, match=r"bfloat16"):
            call()
    with pytest.raises(tilecl.ArgumentTypeError, match=r"differs from the input's float16"):
        tilecl.gemm(half, brain)


def test_tuning_names_the_16bit_types_as_tilecl_does(queue):
    assert tilecl.tuning.dtype_name(np.float16) == "half" and tilecl.tuning.dtype_name(BFLOAT16) == "bfloat16"
    assert [tilecl.tuning.dtype_name(name) for name in ("float16", "half", "bfloat16", "tf32")] == [
        "half",
        "half",
        "bfloat16",
        "tf32",
    ]
    assert tilecl.tuning.parameters_for(queue, "transpose", np.float16, "67x129").parameters
    assert tilecl.tuning.parameters_for(queue, "gemm_mma", "tf32", "64x64x64").parameters
