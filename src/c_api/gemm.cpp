// C API: gemm (include/tilecl/tilecl.h).
#include "tilecl/gemm.hpp"

#include "c_api/call.hpp"

static_assert(TILECL_MATH_STANDARD == static_cast<int>(tilecl::MathMode::Standard) &&
                  TILECL_MATH_TF32 == static_cast<int>(tilecl::MathMode::TF32),
              "tilecl_math_mode must match tilecl::MathMode");
static_assert(TILECL_ROW_MAJOR == static_cast<int>(tilecl::Layout::RowMajor) &&
                  TILECL_COL_MAJOR == static_cast<int>(tilecl::Layout::ColMajor) &&
                  TILECL_NO_TRANSPOSE == static_cast<int>(tilecl::Transpose::No) &&
                  TILECL_TRANSPOSE == static_cast<int>(tilecl::Transpose::Yes),
              "tilecl_layout and tilecl_transpose must match tilecl::Layout and tilecl::Transpose");

namespace tilecl::c_api {
namespace {

// The operands of one call: the three matrices with their offsets and leading dimensions.
struct Matrices {
  cl_mem a;
  size_t a_offset, lda;
  cl_mem b;
  size_t b_offset, ldb;
  cl_mem c;
  size_t c_offset, ldc;
};

// T: the element type; Scalar: alpha's and beta's (float for the 16-bit types).
template <typename T, typename Scalar>
tilecl_status gemm(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a, tilecl_transpose trans_b,
                   size_t m, size_t n, size_t k, Scalar alpha, Scalar beta, const Matrices& x, const Events& events) {
  return enqueue("gemm", queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer c = buffer("gemm", "c", x.c);
    return tilecl::gemm<T>(q, static_cast<Layout>(layout), static_cast<Transpose>(trans_a),
                           static_cast<Transpose>(trans_b), m, n, k, alpha, buffer("gemm", "a", x.a), x.a_offset, x.lda,
                           buffer("gemm", "b", x.b), x.b_offset, x.ldb, beta, c, x.c_offset, x.ldc, wait);
  });
}

// Float gemm in a math mode (tilecl::MathMode; a value outside the enumeration is the call's CL_INVALID_VALUE).
tilecl_status gemm_math(cl_command_queue queue, tilecl_math_mode mode, tilecl_layout layout, tilecl_transpose trans_a,
                        tilecl_transpose trans_b, size_t m, size_t n, size_t k, float alpha, float beta,
                        const Matrices& x, const Events& events) {
  return enqueue("gemm", queue, events, [&](cl::CommandQueue& q, const std::vector<cl::Event>* wait) {
    cl::Buffer c = buffer("gemm", "c", x.c);
    return tilecl::gemm(q, static_cast<MathMode>(mode), static_cast<Layout>(layout), static_cast<Transpose>(trans_a),
                        static_cast<Transpose>(trans_b), m, n, k, alpha, buffer("gemm", "a", x.a), x.a_offset, x.lda,
                        buffer("gemm", "b", x.b), x.b_offset, x.ldb, beta, c, x.c_offset, x.ldc, wait);
  });
}

}  // namespace
}  // namespace tilecl::c_api

#define TILECL_C_GEMM(suffix, T, Scalar)                                                                              \
  tilecl_status tilecl_gemm_##suffix(cl_command_queue queue, tilecl_layout layout, tilecl_transpose trans_a,          \
                                     tilecl_transpose trans_b, size_t m, size_t n, size_t k, Scalar alpha, cl_mem a,  \
                                     size_t a_offset, size_t lda, cl_mem b, size_t b_offset, size_t ldb, Scalar beta, \
                                     cl_mem c, size_t c_offset, size_t ldc, TILECL_C_WAIT_PARAMETERS) {               \
    return tilecl::c_api::gemm<T, Scalar>(queue, layout, trans_a, trans_b, m, n, k, alpha, beta,                      \
                                          {a, a_offset, lda, b, b_offset, ldb, c, c_offset, ldc}, TILECL_C_EVENTS);   \
  }

extern "C" {
TILECL_C_GEMM(f32, float, float)
TILECL_C_GEMM(f64, double, double)
TILECL_C_GEMM(f16, tilecl::half, float)
TILECL_C_GEMM(bf16, tilecl::bfloat16, float)

tilecl_status tilecl_gemm_f32_math(cl_command_queue queue, tilecl_math_mode mode, tilecl_layout layout,
                                   tilecl_transpose trans_a, tilecl_transpose trans_b, size_t m, size_t n, size_t k,
                                   float alpha, cl_mem a, size_t a_offset, size_t lda, cl_mem b, size_t b_offset,
                                   size_t ldb, float beta, cl_mem c, size_t c_offset, size_t ldc,
                                   TILECL_C_WAIT_PARAMETERS) {
  return tilecl::c_api::gemm_math(queue, mode, layout, trans_a, trans_b, m, n, k, alpha, beta,
                                  {a, a_offset, lda, b, b_offset, ldb, c, c_offset, ldc}, TILECL_C_EVENTS);
}
}
