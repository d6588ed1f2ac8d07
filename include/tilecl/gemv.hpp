// Matrix-vector multiply (BLAS level 2). Units, events, errors and thread-safety: tilecl.hpp.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <vector>

#include "tilecl/element_types.hpp"
#include "tilecl/types.hpp"

namespace tilecl {

// y = alpha * op(A) * x + beta * y, with A m x n, in BLAS semantics and argument order. T: float or double (and
// tilecl::half, below).
//
// - layout: how A is stored. RowMajor: element (r, c) at a_offset + r * lda + c (lda >= n); ColMajor: at
//   a_offset + c * lda + r (lda >= m). Offsets and leading dimensions are in elements.
// - trans: Transpose::No uses A (x has n elements, y m); Transpose::Yes uses A^T (x has m, y n).
// - incx, incy: the step between consecutive elements of x and y, non-zero (0 raises CL_INVALID_VALUE) and
//   either sign, as in BLAS: with a negative step the vector is walked from the far end of its span, element i
//   of a vector of `length` elements at x_offset + (length - 1 - i) * |incx|. The span, (length - 1) * |inc| + 1
//   elements from the offset, must lie in the buffer.
// - beta == 0: y is not read, so NaN or garbage in y does not reach the result.
// - alpha == 0: A and x are not read (their buffers are still checked) and y = beta * y.
// - m == 0 or n == 0: nothing to do (as BLAS, y is not scaled); returns a null event, enqueues nothing and
//   checks no buffer (only that layout and trans are enumerators and the increments non-zero).
// - y must not overlap A or x (tilecl::Error CL_MEM_COPY_OVERLAP); A and x may overlap each other.
// - m, n, lda, A's span and each vector's span must stay below 2^31 elements (the kernels index in 32 bits).
//
// Both orientations stream A once at memory bandwidth: each output is a dot product along A's stored rows
// (RowMajor without transpose, ColMajor with), or the outputs sum down A's columns. May enqueue up to three
// kernels (gathering a strided or unaligned x into scratch memory, the product, adding depth slices when the
// outputs alone are too few to fill the device); they run in order after `wait` and the returned event is the
// last. Scratch memory comes from a workspace kept per context and device. Parameters come from the tuning
// database, first-use tuning or device-derived defaults (docs/TUNING.md); the shape buckets are listed in
// src/ops/gemv_tuning.cpp.
template <typename T>
detail::GemvEvent<T> gemv(cl::CommandQueue& queue, Layout layout, Transpose trans, std::size_t m, std::size_t n,
                          T alpha, const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& x,
                          std::size_t x_offset, std::ptrdiff_t incx, T beta, cl::Buffer& y, std::size_t y_offset,
                          std::ptrdiff_t incy, const std::vector<cl::Event>* wait = nullptr);

// gemv on tilecl::half storage (A, x and y hold IEEE binary16; no cl_khr_fp16 needed) with float alpha and beta:
// elements are read as float, products and sums computed in float, y rounded once to half (to nearest even;
// overflow gives infinity). Each y is within the float bound (depth + 2) * 2^-24 * (|alpha| sum |a x| + |beta y|)
// plus 2^-11 |y| of the exact result of the stored values. Otherwise as above.
template <typename T>
detail::HalfEvent<T> gemv(cl::CommandQueue& queue, Layout layout, Transpose trans, std::size_t m, std::size_t n,
                          float alpha, const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& x,
                          std::size_t x_offset, std::ptrdiff_t incx, float beta, cl::Buffer& y, std::size_t y_offset,
                          std::ptrdiff_t incy, const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl
