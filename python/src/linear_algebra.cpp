// Elementwise ops, transpose, reductions and GEMM on buffers given as handles. Arguments are tilecl's, in its
// order (element offsets, leading dimensions), after the NumPy dtype name and the queue; the Python layer
// derives them from the arrays. The GIL is released while tilecl validates and enqueues. The 16-bit floats (NumPy's
// float16, ml_dtypes' bfloat16) take float scalars, as their C++ overloads do.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include "bindings.hpp"
#include "handles.hpp"
#include "tilecl/elementwise.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/gemv.hpp"
#include "tilecl/reduce.hpp"
#include "tilecl/transpose.hpp"

namespace nb = nanobind;

namespace tilecl::python {
namespace {

// alpha's and beta's type for element type T: float for the 16-bit storage types, T otherwise.
template <typename T>
using Scalar = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16>, float, T>;

Handle vector_add_call(const std::string& dtype, Handle queue, std::size_t n, Handle a, std::size_t a_offset, Handle b,
                       std::size_t b_offset, Handle c, std::size_t c_offset, const HandleList& wait) {
  return with_dtype<float, double, half>("vector_add", dtype, [&](auto type) {
    cl::CommandQueue command_queue = queue_from(queue);
    cl::Buffer out = buffer_from(c);
    return hand_over(vector_add<decltype(type)>(command_queue, n, buffer_from(a), a_offset, buffer_from(b), b_offset,
                                                out, c_offset, WaitList(wait).get()));
  });
}

Handle axpy_call(const std::string& dtype, Handle queue, std::size_t n, double alpha, Handle x, std::size_t x_offset,
                 Handle y, std::size_t y_offset, const HandleList& wait) {
  return with_dtype<float, double, half>("axpy", dtype, [&](auto type) {
    using T = decltype(type);
    cl::CommandQueue command_queue = queue_from(queue);
    cl::Buffer inout = buffer_from(y);
    return hand_over(axpy<T>(command_queue, n, static_cast<Scalar<T>>(alpha), buffer_from(x), x_offset, inout, y_offset,
                             WaitList(wait).get()));
  });
}

Handle transpose_call(const std::string& dtype, Handle queue, std::size_t rows, std::size_t cols, Handle in,
                      std::size_t in_offset, std::size_t ld_in, Handle out, std::size_t out_offset, std::size_t ld_out,
                      const HandleList& wait) {
  return with_dtype<float, double, std::int32_t, std::uint8_t, half, bfloat16>("transpose", dtype, [&](auto type) {
    cl::CommandQueue command_queue = queue_from(queue);
    cl::Buffer destination = buffer_from(out);
    return hand_over(transpose<decltype(type)>(command_queue, rows, cols, buffer_from(in), in_offset, ld_in,
                                               destination, out_offset, ld_out, WaitList(wait).get()));
  });
}

Handle reduce_call(const std::string& dtype, Handle queue, int op, std::size_t n, Handle x, std::size_t x_offset,
                   Handle result, std::size_t result_offset, const HandleList& wait) {
  return with_dtype<float, double, std::int32_t, half>("reduce", dtype, [&](auto type) {
    cl::CommandQueue command_queue = queue_from(queue);
    cl::Buffer destination = buffer_from(result);
    return hand_over(reduce<decltype(type)>(command_queue, static_cast<ReduceOp>(op), n, buffer_from(x), x_offset,
                                            destination, result_offset, WaitList(wait).get()));
  });
}

// math: a tilecl::MathMode value, which only float takes (the Python layer refuses TF32 for other types first).
Handle gemm_call(const std::string& dtype, Handle queue, int math, int layout, int trans_a, int trans_b, std::size_t m,
                 std::size_t n, std::size_t k, double alpha, Handle a, std::size_t a_offset, std::size_t lda, Handle b,
                 std::size_t b_offset, std::size_t ldb, double beta, Handle c, std::size_t c_offset, std::size_t ldc,
                 const HandleList& wait) {
  return with_dtype<float, double, half, bfloat16>("gemm", dtype, [&](auto type) {
    using T = decltype(type);
    cl::CommandQueue command_queue = queue_from(queue);
    cl::Buffer product = buffer_from(c);
    const auto multiply = [&](auto... operands) {
      if constexpr (std::is_same_v<T, float>) {
        return gemm(command_queue, static_cast<MathMode>(math), operands...);
      } else {
        if (math != static_cast<int>(MathMode::Standard))
          throw Error("gemm", "math", CL_INVALID_VALUE, "a math mode other than standard takes float32 matrices");
        return gemm<T>(command_queue, operands...);
      }
    };
    return hand_over(multiply(static_cast<Layout>(layout), static_cast<Transpose>(trans_a),
                              static_cast<Transpose>(trans_b), m, n, k, static_cast<Scalar<T>>(alpha), buffer_from(a),
                              a_offset, lda, buffer_from(b), b_offset, ldb, static_cast<Scalar<T>>(beta), product,
                              c_offset, ldc, WaitList(wait).get()));
  });
}

Handle gemv_call(const std::string& dtype, Handle queue, int layout, int trans, std::size_t m, std::size_t n,
                 double alpha, Handle a, std::size_t a_offset, std::size_t lda, Handle x, std::size_t x_offset,
                 std::ptrdiff_t incx, double beta, Handle y, std::size_t y_offset, std::ptrdiff_t incy,
                 const HandleList& wait) {
  return with_dtype<float, double, half>("gemv", dtype, [&](auto type) {
    using T = decltype(type);
    cl::CommandQueue command_queue = queue_from(queue);
    cl::Buffer out = buffer_from(y);
    return hand_over(gemv<T>(command_queue, static_cast<Layout>(layout), static_cast<Transpose>(trans), m, n,
                             static_cast<Scalar<T>>(alpha), buffer_from(a), a_offset, lda, buffer_from(x), x_offset,
                             incx, static_cast<Scalar<T>>(beta), out, y_offset, incy, WaitList(wait).get()));
  });
}

// One operand of a strided batch: buffer, first element, leading dimension, stride between matrices.
using Strided = std::tuple<Handle, std::size_t, std::size_t, std::size_t>;

Handle gemm_strided_batched_call(const std::string& dtype, Handle queue, int layout, int trans_a, int trans_b,
                                 std::size_t m, std::size_t n, std::size_t k, double alpha, const Strided& a,
                                 const Strided& b, double beta, const Strided& c, std::size_t batch_count,
                                 const HandleList& wait) {
  return with_dtype<float, double, half>("gemm_strided_batched", dtype, [&](auto type) {
    using T = decltype(type);
    cl::CommandQueue command_queue = queue_from(queue);
    cl::Buffer product = buffer_from(std::get<0>(c));
    return hand_over(gemm_strided_batched<T>(
        command_queue, static_cast<Layout>(layout), static_cast<Transpose>(trans_a), static_cast<Transpose>(trans_b), m,
        n, k, static_cast<Scalar<T>>(alpha), buffer_from(std::get<0>(a)), std::get<1>(a), std::get<2>(a),
        std::get<3>(a), buffer_from(std::get<0>(b)), std::get<1>(b), std::get<2>(b), std::get<3>(b),
        static_cast<Scalar<T>>(beta), product, std::get<1>(c), std::get<2>(c), std::get<3>(c), batch_count,
        WaitList(wait).get()));
  });
}

}  // namespace

void bind_linear_algebra(nb::module_& module) {
  const auto release = nb::call_guard<nb::gil_scoped_release>();
  module.def("vector_add", &vector_add_call, release);
  module.def("axpy", &axpy_call, release);
  module.def("transpose", &transpose_call, release);
  module.def("reduce", &reduce_call, release);
  module.def("gemm", &gemm_call, release);
  module.def("gemv", &gemv_call, release);
  module.def("gemm_strided_batched", &gemm_strided_batched_call, release);
}

}  // namespace tilecl::python
