// Host reference for GEMV in BLAS semantics, accumulated in double precision.
//
//   y = alpha * op(A) * x + beta * y,  A m x n stored in `layout` (gemm_reference.hpp's matrix_index),
//   op(A) = A (x has n elements, y m) or A^T (x has m, y n).
//   Increments are non-zero; a negative one walks the vector from the far end of its span (BLAS): element i
//   of a vector of `length` at step inc sits at (inc > 0 ? i : length - 1 - i) * |inc| from its offset.
//   beta == 0: y is not read (NaN in y does not propagate).
//
// Pointers are already offset by the caller. Header-only; no OpenCL. Used by the GEMV tuning subject and the
// test suite.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "gemm_reference.hpp"

namespace tilecl::reference {

inline std::size_t vector_index(std::size_t i, std::size_t length, std::ptrdiff_t inc) {
  const auto step = static_cast<std::size_t>(inc < 0 ? -inc : inc);
  return (inc > 0 ? i : length - 1 - i) * step;
}

// Elements a vector of `length` at step inc spans from its offset (0 for an empty vector).
inline std::size_t vector_span(std::size_t length, std::ptrdiff_t inc) {
  return length == 0 ? 0 : (length - 1) * static_cast<std::size_t>(inc < 0 ? -inc : inc) + 1;
}

// The reference GEMV; results rounded to T. Also returns, per element of y (in y's logical order), the bound
// |alpha| * sum |a x| + |beta| * |y| on the rounding error's scale.
template <typename T>
void gemv(Layout layout, Transpose trans, std::size_t m, std::size_t n, double alpha, const T* a, std::size_t lda,
          const T* x, std::ptrdiff_t incx, double beta, T* y, std::ptrdiff_t incy,
          std::vector<double>* magnitude = nullptr) {
  const bool transposed = trans == Transpose::Yes;
  const std::size_t x_length = transposed ? m : n, y_length = transposed ? n : m;
  if (magnitude) magnitude->assign(y_length, 0.0);
  for (std::size_t i = 0; i < y_length; ++i) {
    double sum = 0, mag = 0;
    for (std::size_t j = 0; j < x_length; ++j) {
      const double element =
          transposed ? double(a[matrix_index(layout, j, i, lda)]) : double(a[matrix_index(layout, i, j, lda)]);
      const double product = element * double(x[vector_index(j, x_length, incx)]);
      sum += product;
      mag += std::fabs(product);
    }
    T& out = y[vector_index(i, y_length, incy)];
    const double old = beta == 0.0 ? 0.0 : double(out);
    out = T(alpha * sum + beta * old);
    if (magnitude) (*magnitude)[i] = std::fabs(alpha) * mag + std::fabs(beta) * std::fabs(old);
  }
}

}  // namespace tilecl::reference
