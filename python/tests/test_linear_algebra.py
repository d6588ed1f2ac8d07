"""vector_add, axpy, transpose, reductions and GEMM on PyOpenCL arrays against NumPy, at awkward sizes, with
offsets, padded rows, transposed views, poisoned and guarded outputs."""

from __future__ import annotations

import numpy as np
import pyopencl.array as cl_array
import pytest
import tilecl
from support import Guarded

SIZES = [0, 1, 7, 97, 1031, 65537]
FLOATS = [np.float32, np.float64]


def random_array(rng, shape, dtype):
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


def tolerance(dtype, terms=1):
    """The library's bound per unit of magnitude: (terms + 2) eps (README, Promises)."""
    return (terms + 2) * np.finfo(dtype).eps


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", FLOATS)
def test_vector_add_and_axpy_match_numpy(queue, rng, n, dtype):
    a, b = random_array(rng, n, dtype), random_array(rng, n, dtype)
    out = Guarded(queue, (n,), dtype)
    returned = tilecl.vector_add(cl_array.to_device(queue, a), cl_array.to_device(queue, b), out=out.view)
    assert returned is out.view
    np.testing.assert_allclose(out.result(), a + b, rtol=tolerance(dtype))
    y = Guarded(queue, (n,), dtype)
    y.whole[y.window] = cl_array.to_device(queue, b)
    tilecl.axpy(-1.75, cl_array.to_device(queue, a), y.view)
    np.testing.assert_allclose(y.result(), -1.75 * a + b, rtol=tolerance(dtype), atol=tolerance(dtype))


def test_vector_add_takes_any_shape_in_either_order_and_works_in_place(queue, rng):
    a = random_array(rng, (5, 3, 4), np.float32)
    b = random_array(rng, (5, 3, 4), np.float32)
    device_a = cl_array.to_device(queue, a)
    result = tilecl.vector_add(device_a, cl_array.to_device(queue, b))
    np.testing.assert_allclose(result.get(), a + b, rtol=1e-6)
    fortran = cl_array.to_device(queue, np.asfortranarray(a))
    tilecl.vector_add(fortran, cl_array.to_device(queue, np.asfortranarray(b)), out=fortran)
    np.testing.assert_allclose(fortran.get(), a + b, rtol=1e-6)


@pytest.mark.parametrize("rows, cols", [(0, 5), (1, 1), (1, 67), (67, 1), (31, 37), (129, 255)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8])
def test_transpose_is_bit_exact_also_from_padded_rows(queue, rng, rows, cols, dtype):
    whole = random_array(rng, (rows + 2, cols + 5), dtype)
    window = whole[1 : 1 + rows, 2 : 2 + cols]
    out = Guarded(queue, (cols, rows), dtype)
    tilecl.transpose(cl_array.to_device(queue, whole)[1 : 1 + rows, 2 : 2 + cols], out=out.view)
    np.testing.assert_array_equal(out.result(), window.T)
    assert (
        tilecl.transpose(cl_array.to_device(queue, np.ascontiguousarray(window))).get().tobytes()
        == np.ascontiguousarray(window.T).tobytes()
    )


@pytest.mark.parametrize("n", [1, 2, 97, 4099, 1 << 20])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_reductions_match_numpy(queue, rng, n, dtype):
    x = random_array(rng, n, dtype) if dtype != np.int32 else rng.integers(-1000, 1000, n, dtype=np.int32)
    device = cl_array.to_device(queue, x)
    total = tilecl.sum(device).get()[()]
    if dtype == np.int32:
        assert total == x.sum(dtype=np.int64)
    else:
        assert total == pytest.approx(x.sum(dtype=np.float64), abs=float(2e-6 * np.abs(x).sum()) + 1e-12)
    assert tilecl.min(device).get()[()] == x.min() and tilecl.max(device).get()[()] == x.max()
    assert tilecl.argmin(device).get()[()] == x.argmin() and tilecl.argmax(device).get()[()] == x.argmax()
    assert tilecl.reduce(device, "argmax").dtype == np.int32


def test_reductions_propagate_nan_and_write_into_out_at_an_offset(queue, rng):
    x = rng.standard_normal(1000).astype(np.float32)
    x[[17, 600]] = np.nan
    device = cl_array.to_device(queue, x)
    assert np.isnan(tilecl.max(device).get()[()])
    assert tilecl.argmin(device).get()[()] == 17
    out = Guarded(queue, (1,), np.float32)
    tilecl.sum(device[:17], out=out.view)
    assert out.result()[0] == pytest.approx(x[:17].sum(), rel=1e-5)
    assert tilecl.sum(cl_array.empty(queue, 0, np.float32)).get()[()] == 0


GEMM_SHAPES = [(1, 1, 1), (1, 67, 33), (67, 1, 13), (17, 19, 0), (37, 41, 43), (130, 67, 129)]


@pytest.mark.parametrize("m, n, k", GEMM_SHAPES)
@pytest.mark.parametrize("dtype", FLOATS)
def test_gemm_matches_numpy_for_every_storage_order(queue, rng, m, n, k, dtype):
    a, b, c = random_array(rng, (m, k), dtype), random_array(rng, (k, n), dtype), random_array(rng, (m, n), dtype)
    expected = 1.5 * a.astype(np.longdouble) @ b - 0.5 * c.astype(np.longdouble)
    bound = tolerance(dtype, k) * (1.5 * np.abs(a) @ np.abs(b) + 0.5 * np.abs(c)) + 1e-30
    for order_a, order_b, order_c in [("C", "C", "C"), ("F", "C", "C"), ("C", "F", "F"), ("F", "F", "C")]:
        out = cl_array.to_device(queue, np.asarray(c, order=order_c))
        tilecl.gemm(
            cl_array.to_device(queue, np.asarray(a, order=order_a)),
            cl_array.to_device(queue, np.asarray(b, order=order_b)),
            out,
            alpha=1.5,
            beta=-0.5,
        )
        assert np.all(np.abs(out.get() - expected) <= bound), (order_a, order_b, order_c)


def test_gemm_reads_transposed_views_and_padded_rows_and_ignores_nan_in_out_when_beta_is_zero(queue, rng):
    a = random_array(rng, (45, 31), np.float32)  # used as a.T: 31 x 45
    b_whole = random_array(rng, (45, 40), np.float32)
    device_b = cl_array.to_device(queue, b_whole)[:, 3:30]
    out = Guarded(queue, (31, 27), np.float32)
    tilecl.gemm(cl_array.to_device(queue, a).T, device_b, out.view)
    expected = a.T.astype(np.float64) @ b_whole[:, 3:30]
    np.testing.assert_allclose(out.result(), expected, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(
        tilecl.gemm(cl_array.to_device(queue, a).T, device_b).get(), expected, rtol=1e-4, atol=1e-4
    )


@pytest.mark.parametrize("dtype", FLOATS)
def test_gemv_matches_numpy_for_both_storage_orders_steps_and_beta(queue, rng, dtype):
    m, n = 37, 53
    a = random_array(rng, (m, n), dtype)
    x_whole, y = random_array(rng, (2 * n,), dtype), random_array(rng, (m,), dtype)
    x = x_whole[::2]
    expected = 1.5 * a.astype(np.longdouble) @ x - 0.5 * y.astype(np.longdouble)
    bound = tolerance(dtype, n) * (1.5 * np.abs(a) @ np.abs(x) + 0.5 * np.abs(y)) + 1e-30
    for order in ("C", "F"):
        out = cl_array.to_device(queue, y)
        device_x = cl_array.to_device(queue, x_whole)[::2]
        tilecl.gemv(cl_array.to_device(queue, np.asarray(a, order=order)), device_x, out, alpha=1.5, beta=-0.5)
        assert np.all(np.abs(out.get() - expected) <= bound), order
    # A transposed view, a new output (beta = 0), and y = a @ x of a strided output with NaN around it.
    dense_x = np.ascontiguousarray(x)  # pyopencl uploads contiguous arrays only
    result = tilecl.gemv(cl_array.to_device(queue, a.T.copy()).T, cl_array.to_device(queue, dense_x)).get()
    np.testing.assert_allclose(result, a.astype(np.float64) @ x, rtol=1e-4, atol=1e-4)
    poisoned = cl_array.to_device(queue, np.full(2 * m, np.nan, dtype))
    tilecl.gemv(cl_array.to_device(queue, a), cl_array.to_device(queue, dense_x), poisoned[::2])
    got = poisoned.get()
    np.testing.assert_allclose(got[::2], a.astype(np.float64) @ x, rtol=1e-4, atol=1e-4)
    assert np.all(np.isnan(got[1::2]))


def test_gemv_refuses_mismatched_shapes(queue, rng):
    a = cl_array.to_device(queue, random_array(rng, (4, 5), np.float32))
    with pytest.raises(tilecl.Error):
        tilecl.gemv(a, cl_array.to_device(queue, random_array(rng, (4,), np.float32)))
    with pytest.raises(tilecl.Error):
        tilecl.gemv(a, cl_array.to_device(queue, random_array(rng, (5,), np.float32)), beta=1.0)


@pytest.mark.parametrize("dtype", FLOATS)
def test_gemm_strided_batched_matches_numpy_in_every_storage_order(queue, rng, dtype):
    batch, m, n, k = 5, 7, 11, 13
    a, b = random_array(rng, (batch, m, k), dtype), random_array(rng, (batch, k, n), dtype)
    c = random_array(rng, (batch, m, n), dtype)
    expected = 0.75 * np.matmul(a.astype(np.longdouble), b) + 2.0 * c.astype(np.longdouble)
    bound = tolerance(dtype, k) * (0.75 * np.matmul(np.abs(a), np.abs(b)) + 2.0 * np.abs(c)) + 1e-30

    def stored(array, order):  # on the device, each matrix in C or Fortran order, the batch outermost
        if order == "C":
            return cl_array.to_device(queue, array)
        return cl_array.to_device(queue, np.ascontiguousarray(array.transpose(0, 2, 1))).transpose((0, 2, 1))

    def host(device_array):  # pyopencl reads back contiguous arrays only
        if device_array.flags.c_contiguous:
            return device_array.get()
        return device_array.transpose((0, 2, 1)).get().transpose(0, 2, 1)

    for order_a, order_b, order_c in [("C", "C", "C"), ("F", "C", "F"), ("C", "F", "C")]:
        out = stored(c, order_c)
        tilecl.gemm_strided_batched(
            stored(a, order_a),
            stored(b, order_b),
            out,
            alpha=0.75,
            beta=2.0,
        )
        assert np.all(np.abs(host(out) - expected) <= bound), (order_a, order_b, order_c)
    # One b for every product (a broadcast view: batch stride 0), into a new array.
    shared = random_array(rng, (k, n), dtype)
    device_shared = cl_array.to_device(queue, shared)
    broadcast = cl_array.Array(
        queue, (batch, k, n), dtype, strides=(0,) + device_shared.strides, data=device_shared.base_data
    )
    got = tilecl.gemm_strided_batched(cl_array.to_device(queue, a), broadcast).get()
    np.testing.assert_allclose(got, np.matmul(a.astype(np.float64), shared), rtol=1e-4, atol=1e-4)
    with pytest.raises(tilecl.Error):
        tilecl.gemm_strided_batched(cl_array.to_device(queue, a), cl_array.to_device(queue, b[:, :-1, :].copy()))
