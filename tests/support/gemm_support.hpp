// What the gemm-family test suites share: one call's arguments (everything the BLAS signature takes except the
// buffers) and their description, the conversions to the host reference's enums, and a stored matrix surrounded
// by a chosen value (so a kernel that reads outside the matrix shows it in C).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reference/gemm_reference.hpp"
#include "sweeps/shapes.hpp"
#include "tilecl/types.hpp"

namespace tilecl::test {

inline reference::Layout ref_layout(Layout layout) {
  return layout == Layout::RowMajor ? reference::Layout::RowMajor : reference::Layout::ColMajor;
}
inline reference::Transpose ref_trans(Transpose trans) {
  return trans == Transpose::Yes ? reference::Transpose::Yes : reference::Transpose::No;
}

// One gemm call's scalars, sizes, offsets and leading dimensions beyond the minimum.
struct GemmProblem {
  Layout layout = Layout::RowMajor;
  Transpose trans_a = Transpose::No, trans_b = Transpose::No;
  std::size_t m = 1, n = 1, k = 1;
  double alpha = 1.0, beta = 0.0;
  std::size_t a_offset = 0, b_offset = 0, c_offset = 0;
  std::size_t lda_extra = 0, ldb_extra = 0, ldc_extra = 0;

  std::string describe() const {
    return std::string(layout == Layout::RowMajor ? "row " : "col ") + (trans_a == Transpose::Yes ? "T" : "N") +
           (trans_b == Transpose::Yes ? "T " : "N ") + std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k) + " alpha " + std::to_string(alpha) + " beta " + std::to_string(beta) + " offsets " +
           std::to_string(a_offset) + "," + std::to_string(b_offset) + "," + std::to_string(c_offset) + " ld+" +
           std::to_string(lda_extra) + "," + std::to_string(ldb_extra) + "," + std::to_string(ldc_extra);
  }
};

// A sweep's shape (bench/sweeps/shapes.hpp) as a problem: sizes, transposes, layout and leading-dimension padding;
// scalars and offsets are the caller's.
inline GemmProblem sweep_problem(const bench::sweeps::GemmShape& s) {
  GemmProblem p;
  p.layout = s.layout, p.trans_a = s.trans_a, p.trans_b = s.trans_b, p.m = s.m, p.n = s.n, p.k = s.k;
  p.lda_extra = s.lda - s.minimal_ld(s.a_rows(), s.a_cols());
  p.ldb_extra = s.ldb - s.minimal_ld(s.b_rows(), s.b_cols());
  p.ldc_extra = s.ldc - s.minimal_ld(s.m, s.n);
  return p;
}

// A stored matrix after `offset` elements and before `guard` more: `inside(row, col)` for its elements (called in
// row-major order), `outside` everywhere else (the offset, row padding and the guard).
template <typename T, typename Inside>
std::vector<T> stored_matrix(reference::Layout layout, reference::Extent extent, std::size_t offset, std::size_t ld,
                             std::size_t guard, T outside, Inside&& inside) {
  std::vector<T> values(offset + reference::required_elements(layout, extent, ld) + guard, outside);
  for (std::size_t r = 0; r < extent.rows; ++r)
    for (std::size_t c = 0; c < extent.cols; ++c)
      values[offset + reference::matrix_index(layout, r, c, ld)] = inside(r, c);
  return values;
}

}  // namespace tilecl::test
