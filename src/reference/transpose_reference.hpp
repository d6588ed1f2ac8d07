// Host reference for the transpose family: out = in^T for row-major matrices (bit-exact, any element type).
#pragma once

#include <cstddef>

namespace tilecl::reference {

// in is rows x cols with leading dimension ld_in (>= cols); out is cols x rows with leading dimension ld_out
// (>= rows). Elements of out outside the cols x rows region are left untouched.
template <typename T>
void transpose(std::size_t rows, std::size_t cols, const T* in, std::size_t ld_in, T* out, std::size_t ld_out) {
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) out[c * ld_out + r] = in[r * ld_in + c];
  }
}

}  // namespace tilecl::reference
