// General matrix multiply (BLAS level 3). Units, events, errors and thread-safety: tilecl.hpp.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "tilecl/element_types.hpp"
#include "tilecl/types.hpp"

namespace tilecl {

// C = alpha * op(A) * op(B) + beta * C, with op(A) m x k, op(B) k x n and C m x n, in BLAS semantics and
// argument order. T: float or double (half and bfloat16: below).
//
// - layout: how all three matrices are stored. RowMajor: element (r, c) at offset + r * ld + c; ColMajor: at
//   offset + c * ld + r. Offsets and leading dimensions are in elements; ld may exceed the stored rows
//   (ColMajor) or columns (RowMajor), never be smaller (nor below 1).
// - trans_a / trans_b: Transpose::Yes uses the stored matrix transposed (A is then stored k x m).
// - beta == 0: C is not read, so NaN or garbage in C does not reach the result.
// - alpha == 0 or k == 0: A and B are not read and C = beta * C (still enqueued). With k == 0 only their leading
//   dimensions are checked, not their buffers.
// - m == 0 or n == 0: nothing to do; returns a null event, enqueues nothing and checks no buffer (only that
//   layout, trans_a and trans_b are enumerators).
// - C must not overlap A or B (tilecl::Error CL_MEM_COPY_OVERLAP); A and B may overlap each other.
// - Each matrix must span fewer than 2^31 elements (the kernels index in 32 bits).
//
// May enqueue several kernels (packing an operand whose alignment rules out vector loads, splitting K across
// work-groups and adding the slices); they run in order after `wait` and the returned event is the last one.
// Scratch memory comes from a workspace kept per context and device (no allocation per call once it has
// grown). Parameters come from the tuning database, first-use tuning or device-derived defaults
// (docs/TUNING.md); the shape buckets are listed in src/ops/gemm.cpp.
template <typename T>
detail::GemmEvent<T> gemm(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m,
                          std::size_t n, std::size_t k, T alpha, const cl::Buffer& a, std::size_t a_offset,
                          std::size_t lda, const cl::Buffer& b, std::size_t b_offset, std::size_t ldb, T beta,
                          cl::Buffer& c, std::size_t c_offset, std::size_t ldc,
                          const std::vector<cl::Event>* wait = nullptr);

// ---- 16-bit floats and TF32 ---------------------------------------------------------------------------------
//
// The same product on half or bfloat16 matrices (tilecl/types.hpp), T = half or bfloat16, with alpha and beta in
// float: gemm<half>(queue, layout, ..., 1.0f, a, ..., 0.0f, c, ...). Products are accumulated in float and each
// result is rounded once to T (to nearest, ties to even; beyond the format's range: infinity). Arguments, special
// cases and errors as above, counting elements of T.
//
// On NVIDIA GPUs of compute capability 8.0 and newer the tensor cores compute it (inline PTX: mma.sync, ldmatrix,
// cp.async; an operand whose leading dimension or offset is not a multiple of 8 is first copied to a workspace);
// on every other device, or if the driver does not build the PTX (reported once, never an error), float gemm's
// kernels do for large products (A and B are widened to floats in a workspace of 4 (mk + kn + mn) bytes, C is
// rounded from the float product; a half product with m or n of at most 8 runs as gemv<half>; where that workspace
// would not fit one allocation, or for small products, a portable kernel reads the 16-bit elements in place). Accuracy,
// against the exact product of the stored values (exact), with k-term sums and magnitude = |alpha| sum_p |a_ip b_pj| +
// |beta c_ij|:
//     |c_ij - exact| <= u |exact| + (1 + u) 2 (k + 4) 2^-24 magnitude + (2^-25 for half),
// u = 2^-11 for half, 2^-8 for bfloat16 (the rounding to 16 bits; the rest is float accumulation).
template <typename T>
detail::Gemm16Event<T> gemm(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m,
                            std::size_t n, std::size_t k, float alpha, const cl::Buffer& a, std::size_t a_offset,
                            std::size_t lda, const cl::Buffer& b, std::size_t b_offset, std::size_t ldb, float beta,
                            cl::Buffer& c, std::size_t c_offset, std::size_t ldc,
                            const std::vector<cl::Event>* wait = nullptr);

// How float gemm may compute. Standard: every multiply-add in IEEE single precision, as gemm<float>. TF32: A and B
// may be rounded to TF32 (8-bit exponent, 10-bit mantissa: to nearest, ties away from zero) before the products,
// which are accumulated in float -- on NVIDIA GPUs of compute capability 8.0 and newer, the tensor cores, several
// times faster. Where TF32 would not pay (small, GEMV-like and skinny shapes, other devices, and products up to 2^31
// multiply-adds where first-use tuning measured float gemm faster at that shape) the call runs as Standard, which
// meets the TF32 bound too. TF32 is never chosen unless asked for.
enum class MathMode { Standard, TF32 };

// C = alpha * op(A) * op(B) + beta * C on float matrices in the given math mode (arguments as gemm<float>). Accuracy
// in TF32 mode, against the exact product (exact) and magnitude = |alpha| sum_p |a_ip b_pj| + |beta c_ij|:
//     |c_ij - exact| <= (2^-10 + 2 (k + 5) 2^-24) magnitude,
// about 1e-3 of the magnitude, against (k + 2) 2^-24 of it for Standard. tilecl::Error CL_INVALID_VALUE for a mode
// that is not an enumerator.
cl::Event gemm(cl::CommandQueue& queue, MathMode mode, Layout layout, Transpose trans_a, Transpose trans_b,
               std::size_t m, std::size_t n, std::size_t k, float alpha, const cl::Buffer& a, std::size_t a_offset,
               std::size_t lda, const cl::Buffer& b, std::size_t b_offset, std::size_t ldb, float beta, cl::Buffer& c,
               std::size_t c_offset, std::size_t ldc, const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
