// C API: gemv, gemm_strided_batched and gemm_batched (include/tilecl/tilecl.h).
#include <vector>

#include "c_api/call.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/gemv.hpp"

namespace tilecl::c_api {
namespace {

Layout layout_of(tilecl_layout layout) { return static_cast<Layout>(layout); }
Transpose transpose_of(tilecl_transpose trans) { return static_cast<Transpose>(trans); }

// A stored operand of a call: the buffer, where it starts and its leading dimension (and, batched, the stride).
struct Operand {
  cl_mem buffer;
  size_t offset, ld, stride;
};

// Scalar: alpha's and beta's type (float for tilecl::half).
template <typename T, typename Scalar>
tilecl_status gemv(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans, size_t m, size_t n,
                   Scalar alpha, const Operand& a, const Operand& x, ptrdiff_t incx, Scalar beta, const Operand& y,
                   ptrdiff_t incy, const Events& events) {
  return enqueue("gemv", queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer out = buffer("gemv", "y", y.buffer);
    return tilecl::gemv<T>(q, layout_of(layout), transpose_of(trans), m, n, alpha, buffer("gemv", "a", a.buffer),
                           a.offset, a.ld, buffer("gemv", "x", x.buffer), x.offset, incx, beta, out, y.offset, incy,
                           wait);
  });
}

struct Shape {
  tilecl_layout layout;
  tilecl_transpose trans_a, trans_b;
  size_t m, n, k;
};

template <typename T, typename Scalar>
tilecl_status gemm_strided_batched(cl_command_queue queue, const Shape& s, Scalar alpha, const Operand& a,
                                   const Operand& b, Scalar beta, const Operand& c, size_t batch_count,
                                   const Events& events) {
  constexpr const char* kOp = "gemm_strided_batched";
  return enqueue(kOp, queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer out = buffer(kOp, "c", c.buffer);
    return tilecl::gemm_strided_batched<T>(q, layout_of(s.layout), transpose_of(s.trans_a), transpose_of(s.trans_b),
                                           s.m, s.n, s.k, alpha, buffer(kOp, "a", a.buffer), a.offset, a.ld, a.stride,
                                           buffer(kOp, "b", b.buffer), b.offset, b.ld, b.stride, beta, out, c.offset,
                                           c.ld, c.stride, batch_count, wait);
  });
}

// The batch_count entries of a host array (NULL is refused unless the batch is empty).
template <typename V>
std::vector<V> host_array(const char* name, const V* values, size_t count) {
  if (values == nullptr && count > 0)
    throw Error("gemm_batched", name, CL_INVALID_VALUE, "NULL array for a batch of " + std::to_string(count));
  return count > 0 ? std::vector<V>(values, values + count) : std::vector<V>();
}

// Per-matrix offsets and scalars of gemm_batched: host arrays of batch_count entries.
template <typename Scalar>
struct PerMatrix {
  const Scalar *alphas, *betas;
  const size_t *a_offsets, *b_offsets, *c_offsets;
};

template <typename T, typename Scalar>
tilecl_status gemm_batched(cl_command_queue queue, const Shape& s, const PerMatrix<Scalar>& per, const Operand& a,
                           const Operand& b, const Operand& c, size_t batch_count, const Events& events) {
  constexpr const char* kOp = "gemm_batched";
  return enqueue(kOp, queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    const auto alphas = host_array("alphas", per.alphas, batch_count);
    const auto betas = host_array("betas", per.betas, batch_count);
    const auto a_offsets = host_array("a_offsets", per.a_offsets, batch_count);
    const auto b_offsets = host_array("b_offsets", per.b_offsets, batch_count);
    const auto c_offsets = host_array("c_offsets", per.c_offsets, batch_count);
    cl::Buffer out = buffer(kOp, "c", c.buffer);
    return tilecl::gemm_batched<T>(q, layout_of(s.layout), transpose_of(s.trans_a), transpose_of(s.trans_b), s.m, s.n,
                                   s.k, alphas, buffer(kOp, "a", a.buffer), a_offsets, a.ld, buffer(kOp, "b", b.buffer),
                                   b_offsets, b.ld, betas, out, c_offsets, c.ld, wait);
  });
}

}  // namespace
}  // namespace tilecl::c_api

#define TILECL_C_GEMV(suffix, T, Scalar)                                                                             \
  tilecl_status tilecl_gemv_##suffix(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans, size_t m, \
                                     size_t n, Scalar alpha, cl_mem a, size_t a_offset, size_t lda, cl_mem x,        \
                                     size_t x_offset, ptrdiff_t incx, Scalar beta, cl_mem y, size_t y_offset,        \
                                     ptrdiff_t incy, TILECL_C_WAIT_PARAMETERS) {                                     \
    return tilecl::c_api::gemv<T, Scalar>(queue, layout, trans, m, n, alpha, {a, a_offset, lda, 0},                  \
                                          {x, x_offset, 0, 0}, incx, beta, {y, y_offset, 0, 0}, incy,                \
                                          TILECL_C_EVENTS);                                                          \
  }

#define TILECL_C_BATCHED(suffix, T, Scalar)                                                                            \
  tilecl_status tilecl_gemm_strided_batched_##suffix(                                                                  \
      cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a, tilecl_transpose trans_b, size_t m,      \
      size_t n, size_t k, Scalar alpha, cl_mem a, size_t a_offset, size_t lda, size_t stride_a, cl_mem b,              \
      size_t b_offset, size_t ldb, size_t stride_b, Scalar beta, cl_mem c, size_t c_offset, size_t ldc,                \
      size_t stride_c, size_t batch_count, TILECL_C_WAIT_PARAMETERS) {                                                 \
    return tilecl::c_api::gemm_strided_batched<T, Scalar>(                                                             \
        queue, {layout, trans_a, trans_b, m, n, k}, alpha, {a, a_offset, lda, stride_a}, {b, b_offset, ldb, stride_b}, \
        beta, {c, c_offset, ldc, stride_c}, batch_count, TILECL_C_EVENTS);                                             \
  }                                                                                                                    \
  tilecl_status tilecl_gemm_batched_##suffix(                                                                          \
      cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a, tilecl_transpose trans_b, size_t m,      \
      size_t n, size_t k, const Scalar* alphas, cl_mem a, const size_t* a_offsets, size_t lda, cl_mem b,               \
      const size_t* b_offsets, size_t ldb, const Scalar* betas, cl_mem c, const size_t* c_offsets, size_t ldc,         \
      size_t batch_count, TILECL_C_WAIT_PARAMETERS) {                                                                  \
    return tilecl::c_api::gemm_batched<T, Scalar>(queue, {layout, trans_a, trans_b, m, n, k},                          \
                                                  {alphas, betas, a_offsets, b_offsets, c_offsets}, {a, 0, lda, 0},    \
                                                  {b, 0, ldb, 0}, {c, 0, ldc, 0}, batch_count, TILECL_C_EVENTS);       \
  }

extern "C" {
TILECL_C_GEMV(f32, float, float)
TILECL_C_GEMV(f64, double, double)
TILECL_C_GEMV(f16, tilecl::half, float)
TILECL_C_BATCHED(f32, float, float)
TILECL_C_BATCHED(f64, double, double)
TILECL_C_BATCHED(f16, tilecl::half, float)
}
