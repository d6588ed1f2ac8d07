"""Bad input raises before anything is enqueued: Python-side checks as tilecl.ArgumentTypeError /
ArgumentValueError, the C++ library's as tilecl.Error, each with tilecl's message, op, argument and status.
Zero-sized problems are no-ops."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array
import pytest
import tilecl
import tilecl.numpy as tnp


def device(queue, shape, dtype=np.float32):
    return cl_array.to_device(queue, np.ones(shape, dtype=dtype))


def raises(kind, op, argument, function, *arguments, **options):
    with pytest.raises(kind) as caught:
        function(*arguments, **options)
    error = caught.value
    assert isinstance(error, tilecl.Error)
    assert (error.op, error.argument) == (op, argument), str(error)
    assert str(error).startswith(f"tilecl::{op}: {argument}: ") and str(error).endswith(f"[{error.status_name}]")
    return error


def test_wrong_element_types_raise_type_errors(queue):
    raises(TypeError, "gaussian_blur", "src", tilecl.gaussian_blur, device(queue, (4, 4), np.int16), 1.0)
    raises(TypeError, "gemm", "b", tilecl.gemm, device(queue, (2, 2)), device(queue, (2, 2), np.float64))
    raises(TypeError, "vector_add", "a", tnp.vector_add, np.ones(3, np.int32), np.ones(3, np.int32))
    raises(
        TypeError, "convolve2d", "kernel", tilecl.convolve2d, device(queue, (4, 4)), device(queue, (3, 3), np.float64)
    )


def test_shapes_and_layouts_the_ops_cannot_take_raise_value_errors(queue):
    raises(ValueError, "gemm", "b", tilecl.gemm, device(queue, (2, 3)), device(queue, (2, 3)))
    raises(ValueError, "gemm", "out", tilecl.gemm, device(queue, (2, 3)), device(queue, (3, 4)), device(queue, (2, 5)))
    raises(ValueError, "gemm", "beta", tilecl.gemm, device(queue, (2, 3)), device(queue, (3, 4)), beta=1.0)
    raises(ValueError, "gemm", "a", tilecl.gemm, device(queue, (4, 6))[::2, ::2], device(queue, (3, 4)))
    raises(ValueError, "gaussian_blur", "src", tilecl.gaussian_blur, device(queue, (4, 4, 5)), 1.0)
    raises(ValueError, "gaussian_blur", "src", tilecl.gaussian_blur, device(queue, (4,)), 1.0)
    raises(ValueError, "box_blur", "src", tilecl.box_blur, device(queue, (4, 8))[:, ::2], 1)
    raises(ValueError, "box_blur", "radius", tilecl.box_blur, device(queue, (4, 8)), -1)
    raises(ValueError, "gaussian_blur", "border", tilecl.gaussian_blur, device(queue, (4, 4)), 1.0, border="reflect")
    raises(ValueError, "rgb_to_gray", "src", tilecl.rgb_to_gray, device(queue, (4, 4)))
    raises(ValueError, "vector_add", "b", tilecl.vector_add, device(queue, 4), device(queue, 5))
    raises(ValueError, "vector_add", "a", tilecl.vector_add, device(queue, 8)[::2], device(queue, 4))
    raises(ValueError, "transpose", "out", tilecl.transpose, device(queue, (2, 3)), device(queue, (2, 3)))
    raises(ValueError, "reduce", "op", tilecl.reduce, device(queue, 3), "median")
    raises(ValueError, "reduce", "out", tilecl.sum, device(queue, 3), device(queue, 2))
    raises(TypeError, "vector_add", "a", tilecl.vector_add, np.ones(3, np.float32), np.ones(3, np.float32))
    raises(ValueError, "gaussian_blur", "src", tnp.gaussian_blur, np.ones((2, 2, 2), np.uint8), 1.0)


def test_library_errors_carry_op_argument_and_status(queue):
    error = raises(tilecl.Error, "gaussian_blur", "sigma", tilecl.gaussian_blur, device(queue, (4, 4)), -1.0)
    assert error.status == -30 and error.status_name == "CL_INVALID_VALUE"
    error = raises(
        tilecl.Error,
        "convolve2d",
        "filter_width",
        tilecl.convolve2d,
        device(queue, (4, 4)),
        np.ones((3, 4), np.float32),
    )
    assert error.status_name == "CL_INVALID_VALUE"
    x = device(queue, 64)
    error = raises(tilecl.Error, "transpose", "out", tilecl.transpose, x[:32].reshape(4, 8), x[8:40].reshape(8, 4))
    assert error.status_name == "CL_MEM_COPY_OVERLAP"
    error = raises(tilecl.Error, "reduce", "n", tilecl.max, cl_array.empty(queue, 0, np.float32))


def test_arrays_of_another_context_are_refused(queue):
    other = cl.CommandQueue(cl.Context([queue.device]))
    error = raises(tilecl.Error, "vector_add", "b", tilecl.vector_add, device(queue, 4), device(other, 4))
    assert error.status_name == "CL_INVALID_CONTEXT"


def test_zero_sized_problems_are_no_ops_that_return_their_output(queue):
    for shape in [(0, 5), (5, 0), (0, 0, 3)]:
        result = tilecl.gaussian_blur(cl_array.empty(queue, shape, np.float32), 1.0)
        assert result.shape == shape and result.events == []
    assert tilecl.gemm(device(queue, (0, 3)), device(queue, (3, 4))).shape == (0, 4)
    assert tnp.vector_add(np.ones(0), np.ones(0)).shape == (0,)


def test_the_error_hierarchy():
    assert issubclass(tilecl.BuildError, tilecl.Error)
    assert issubclass(tilecl.ArgumentTypeError, TypeError) and issubclass(tilecl.ArgumentValueError, ValueError)


def test_a_kernel_that_fails_to_compile_raises_build_error_with_the_log(tmp_path):
    kernels = os.path.join(os.path.dirname(__file__), "..", "..", "kernels")
    for name in os.listdir(kernels):
        shutil.copy(os.path.join(kernels, name), tmp_path / name)
    with open(tmp_path / "elementwise.cl", "a") as source:
        source.write("\nthis is not OpenCL C;\n")
    program = (
        "import numpy, tilecl, tilecl.numpy\n"
        "try:\n"
        "    tilecl.numpy.vector_add(numpy.ones(4), numpy.ones(4))\n"
        "except tilecl.BuildError as error:\n"
        "    print(type(error).__name__, error.op, error.family, error.status_name, 'unknown type name' in error.log)\n"
    )
    environment = {**os.environ, "TILECL_KERNEL_DIR": str(tmp_path), "TILECL_CACHE": "off"}
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=environment)
    assert result.stdout.split() == ["BuildError", "vector_add", "elementwise", "CL_BUILD_PROGRAM_FAILURE", "True"], (
        result.stdout + result.stderr
    )
