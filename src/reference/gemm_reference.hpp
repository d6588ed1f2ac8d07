// Host reference for GEMM in BLAS semantics, accumulated in double precision.
//
//   C = alpha * op(A) * op(B) + beta * C,  op(A) m x k, op(B) k x n, C m x n,
//   Layout RowMajor: element (r, c) of a stored matrix at r * ld + c; ColMajor: at c * ld + r.
//   beta == 0: C is not read (NaN in C does not propagate). k == 0: C = beta * C.
//
// Pointers are already offset by the caller. Header-only; no OpenCL. Used by the GEMM harness, the test
// suite and the tuner (verification of a candidate before it may win).
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

#include "tilecl/types.hpp"

namespace tilecl::reference {

enum class Layout { RowMajor, ColMajor };
enum class Transpose { No, Yes };

// Index of element (row, col) of a stored matrix.
inline std::size_t matrix_index(Layout layout, std::size_t row, std::size_t col, std::size_t ld) {
  return layout == Layout::RowMajor ? row * ld + col : col * ld + row;
}

// Stored extents (rows, cols in the given layout's sense) of op(X) = rows_op x cols_op.
struct Extent {
  std::size_t rows, cols;
};
inline Extent stored_extent(Transpose trans, std::size_t rows_op, std::size_t cols_op) {
  return trans == Transpose::No ? Extent{rows_op, cols_op} : Extent{cols_op, rows_op};
}

// Smallest leading dimension that is legal for a stored rows x cols matrix in this layout.
inline std::size_t min_ld(Layout layout, Extent e) {
  const std::size_t v = layout == Layout::RowMajor ? e.cols : e.rows;
  return v > 0 ? v : 1;
}

// Elements a buffer must hold past its offset for a stored rows x cols matrix.
inline std::size_t required_elements(Layout layout, Extent e, std::size_t ld) {
  if (e.rows == 0 || e.cols == 0) return 0;
  return layout == Layout::RowMajor ? (e.rows - 1) * ld + e.cols : (e.cols - 1) * ld + e.rows;
}

// op(X)(i, j) for a stored matrix X.
template <typename T>
inline double op_element(Layout layout, Transpose trans, const T* x, std::size_t ld, std::size_t i, std::size_t j) {
  return trans == Transpose::No ? double(x[matrix_index(layout, i, j, ld)]) : double(x[matrix_index(layout, j, i, ld)]);
}

// sum_p op(A)(i, p) * op(B)(p, j) in double, and sum_p |op(A)(i, p) * op(B)(p, j)| in *magnitude.
template <typename T>
double gemm_dot(Layout layout, Transpose trans_a, Transpose trans_b, std::size_t i, std::size_t j, std::size_t k,
                const T* a, std::size_t lda, const T* b, std::size_t ldb, double* magnitude = nullptr) {
  double sum = 0, mag = 0;
  for (std::size_t p = 0; p < k; ++p) {
    const double prod = op_element(layout, trans_a, a, lda, i, p) * op_element(layout, trans_b, b, ldb, p, j);
    sum += prod;
    mag += std::fabs(prod);
  }
  if (magnitude) *magnitude = mag;
  return sum;
}

// The full reference GEMM; result rounded to T. Also returns, per output, the magnitude
// |alpha| * sum |a b| + |beta| * |c| that bounds the rounding error (in C's layout, ld = ldc).
template <typename T>
void gemm(Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n, std::size_t k,
          double alpha, const T* a, std::size_t lda, const T* b, std::size_t ldb, double beta, T* c, std::size_t ldc,
          std::vector<double>* magnitude = nullptr) {
  if (magnitude) magnitude->assign(required_elements(layout, {m, n}, ldc), 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double mag = 0;
      const double dot = k > 0 ? gemm_dot(layout, trans_a, trans_b, i, j, k, a, lda, b, ldb, &mag) : 0.0;
      const std::size_t idx = matrix_index(layout, i, j, ldc);
      const double old = beta == 0.0 ? 0.0 : double(c[idx]);
      c[idx] = T(alpha * dot + beta * old);
      if (magnitude) (*magnitude)[idx] = std::fabs(alpha) * mag + std::fabs(beta) * std::fabs(old);
    }
  }
}

// Accepted absolute error for an output whose magnitude bound is `magnitude` after a k-term sum in T:
// a worst-case style bound (k + 2) * eps * magnitude, with a floor for tiny magnitudes.
template <typename T>
double gemm_tolerance(std::size_t k, double magnitude) {
  const double eps = std::numeric_limits<T>::epsilon();
  return double(k + 2) * eps * magnitude + 4 * std::numeric_limits<T>::min();
}

// The accepted error of an output stored as T: gemm_tolerance's, in float for tilecl::half storage (computed in
// float), plus one spacing of half at the result (2^-10 relative, 2^-24 absolute): the reference and the device
// each round a value within that float bound of the other to half once.
template <typename T>
double storage_tolerance(std::size_t k, double magnitude, T result) {
  if constexpr (std::is_same_v<T, half>) {
    return gemm_tolerance<float>(k, magnitude) + std::ldexp(std::abs(static_cast<float>(result)), -10) +
           std::ldexp(1.0, -24);
  } else {
    return gemm_tolerance<T>(k, magnitude);
  }
}

}  // namespace tilecl::reference
