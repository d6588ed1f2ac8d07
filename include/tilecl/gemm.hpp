// General matrix multiply (BLAS level 3). Units, events, errors and thread-safety: tilecl.hpp.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <vector>

#include "tilecl/element_types.hpp"
#include "tilecl/types.hpp"

namespace tilecl {

// C = alpha * op(A) * op(B) + beta * C, with op(A) m x k, op(B) k x n and C m x n, in BLAS semantics and
// argument order. T: float or double.
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
detail::FloatingEvent<T> gemm(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                              std::size_t m, std::size_t n, std::size_t k, T alpha, const cl::Buffer& a,
                              std::size_t a_offset, std::size_t lda, const cl::Buffer& b, std::size_t b_offset,
                              std::size_t ldb, T beta, cl::Buffer& c, std::size_t c_offset, std::size_t ldc,
                              const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
