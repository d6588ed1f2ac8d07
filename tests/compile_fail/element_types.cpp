// Compiled, never linked or run, by the compile.element_types test (tests/compile_fail/CMakeLists.txt): with
// TILECL_UNSUPPORTED every public op is named with an element type it does not take, and the compile must fail
// with the static_assert of include/tilecl/element_types.hpp for each; without it, every op with every type it
// takes, which must compile (so the check cannot pass by rejecting everything).
#include <cstdint>
#include <tilecl/tilecl.hpp>

namespace {

using tilecl::Border;
using tilecl::Layout;
using tilecl::ReduceOp;
using tilecl::Transpose;

#ifdef TILECL_UNSUPPORTED
// One distinct type per op of a family: a class template fails (and is reported) once per type.
void unsupported(cl::CommandQueue& q, cl::Buffer& b) {
  tilecl::vector_add<int>(q, 1, b, 0, b, 0, b, 0);
  tilecl::axpy<long>(q, 1, 1L, b, 0, b, 0);
  tilecl::gemm<std::uint8_t>(q, Layout::RowMajor, Transpose::No, Transpose::No, 1, 1, 1, 1, b, 0, 1, b, 0, 1, 0, b, 0,
                             1);
  tilecl::gemv<short>(q, Layout::RowMajor, Transpose::No, 1, 1, 1, b, 0, 1, b, 0, 1, 0, b, 0, 1);
  tilecl::gemm_strided_batched<unsigned long>(q, Layout::RowMajor, Transpose::No, Transpose::No, 1, 1, 1, 1, b, 0, 1, 0,
                                              b, 0, 1, 0, 0, b, 0, 1, 0, 1);
  tilecl::gemm_batched<long double>(q, Layout::RowMajor, Transpose::No, Transpose::No, 1, 1, 1, {1}, b, {0}, 1, b, {0},
                                    1, {0}, b, {0}, 1);
  tilecl::transpose<std::int64_t>(q, 1, 1, b, 0, 1, b, 0, 1);
  tilecl::reduce<std::uint16_t>(q, ReduceOp::Sum, 1, b, 0, b, 0);
  tilecl::reduce_value<std::uint8_t>(q, ReduceOp::Sum, 1, b, 0);
  tilecl::reduce_index<short>(q, ReduceOp::ArgMax, 1, b, 0);
  tilecl::rgb_to_gray<double>(q, 1, 1, b, 0, 3, b, 0, 1);
  tilecl::convolve2d<std::int8_t>(q, 1, 1, 1, b, 0, 1, b, 0, 1, b, 0, 1, 1, Border::Zero);
  tilecl::separable_filter<unsigned>(q, 1, 1, 1, b, 0, 1, b, 0, 1, b, 0, 1, b, 0, 1, Border::Zero);
  tilecl::box_blur<char>(q, 1, 1, 1, b, 0, 1, b, 0, 1, 1, 1, Border::Zero);
  tilecl::gaussian_blur<int>(q, 1, 1, 1, b, 0, 1, b, 0, 1, 1.0, Border::Zero);
}
#else
template <typename T>
void floating(cl::CommandQueue& q, cl::Buffer& b) {
  tilecl::vector_add<T>(q, 1, b, 0, b, 0, b, 0);
  tilecl::axpy<T>(q, 1, T(1), b, 0, b, 0);
  tilecl::gemm<T>(q, Layout::RowMajor, Transpose::No, Transpose::No, 1, 1, 1, T(1), b, 0, 1, b, 0, 1, T(0), b, 0, 1);
  tilecl::gemv<T>(q, Layout::RowMajor, Transpose::No, 1, 1, T(1), b, 0, 1, b, 0, 1, T(0), b, 0, 1);
  tilecl::gemm_strided_batched<T>(q, Layout::RowMajor, Transpose::No, Transpose::No, 1, 1, 1, T(1), b, 0, 1, 0, b, 0, 1,
                                  0, T(0), b, 0, 1, 0, 1);
  tilecl::gemm_batched<T>(q, Layout::RowMajor, Transpose::No, Transpose::No, 1, 1, 1, {T(1)}, b, {0}, 1, b, {0}, 1,
                          {T(0)}, b, {0}, 1);
}
template <typename T>
void reducible(cl::CommandQueue& q, cl::Buffer& b) {
  tilecl::reduce<T>(q, ReduceOp::Sum, 1, b, 0, b, 0);
  tilecl::reduce_value<T>(q, ReduceOp::Sum, 1, b, 0);
  tilecl::reduce_index<T>(q, ReduceOp::ArgMax, 1, b, 0);
}
template <typename T>
void image(cl::CommandQueue& q, cl::Buffer& b) {
  tilecl::rgb_to_gray<T>(q, 1, 1, b, 0, 3, b, 0, 1);
  tilecl::convolve2d<T>(q, 1, 1, 1, b, 0, 1, b, 0, 1, b, 0, 1, 1, Border::Zero);
  tilecl::separable_filter<T>(q, 1, 1, 1, b, 0, 1, b, 0, 1, b, 0, 1, b, 0, 1, Border::Zero);
  tilecl::box_blur<T>(q, 1, 1, 1, b, 0, 1, b, 0, 1, 1, 1, Border::Zero);
  tilecl::gaussian_blur<T>(q, 1, 1, 1, b, 0, 1, b, 0, 1, 1.0, Border::Zero);
}
[[maybe_unused]] void supported(cl::CommandQueue& q, cl::Buffer& b) {
  floating<float>(q, b);
  floating<double>(q, b);
  tilecl::transpose<float>(q, 1, 1, b, 0, 1, b, 0, 1);
  tilecl::transpose<double>(q, 1, 1, b, 0, 1, b, 0, 1);
  tilecl::transpose<std::int32_t>(q, 1, 1, b, 0, 1, b, 0, 1);
  tilecl::transpose<std::uint8_t>(q, 1, 1, b, 0, 1, b, 0, 1);
  tilecl::vector_add<tilecl::half>(q, 1, b, 0, b, 0, b, 0);
  tilecl::axpy<tilecl::half>(q, 1, 1.0f, b, 0, b, 0);
  tilecl::axpy(q, 1, 2.0f, b, 0, b, 0);  // T deduced from alpha: float
  tilecl::gemv<tilecl::half>(q, Layout::RowMajor, Transpose::No, 1, 1, 1.0f, b, 0, 1, b, 0, 1, 0.0f, b, 0, 1);
  tilecl::transpose<tilecl::half>(q, 1, 1, b, 0, 1, b, 0, 1);
  tilecl::transpose<tilecl::bfloat16>(q, 1, 1, b, 0, 1, b, 0, 1);
  reducible<float>(q, b);
  reducible<double>(q, b);
  reducible<std::int32_t>(q, b);
  reducible<tilecl::half>(q, b);
  [[maybe_unused]] const float half_sum = tilecl::reduce_value<tilecl::half>(q, ReduceOp::Sum, 1, b, 0);
  image<std::uint8_t>(q, b);
  image<float>(q, b);
  tilecl::gemm<tilecl::half>(q, Layout::RowMajor, Transpose::No, Transpose::No, 1, 1, 1, 1.0f, b, 0, 1, b, 0, 1, 0.0f,
                             b, 0, 1);
  tilecl::gemm<tilecl::bfloat16>(q, Layout::RowMajor, Transpose::No, Transpose::No, 1, 1, 1, 1.0f, b, 0, 1, b, 0, 1,
                                 0.0f, b, 0, 1);
}
#endif

}  // namespace
