// The host reference the filter ops' tuning subject verifies candidates with: exact sums in double for the
// float arithmetic, and a bit-exact model of the OpenCV arithmetic (fused float sums for direct filters,
// integer sums and finish for separable ones). (The test suite has a reference of its own, and OpenCV itself.)
#pragma once

#include <cstdint>
#include <vector>

#include "ops/image/filter_types.hpp"

namespace tilecl::detail {

// A problem's taps: the 2-D filter (direct form) or row and column filters; under the OpenCV arithmetic the
// separable taps are integers.
struct HostTaps {
  std::vector<float> direct, row, column;
  std::vector<std::uint32_t> row_fixed, column_fixed;
};

// Filters the image at src[src_offset...] (pitch src_pitch) into out[out_offset + y * out_pitch + e], leaving the
// rest of `out` as it is. Float arithmetic: the exact value; OpenCV arithmetic: the byte OpenCV computes.
template <typename T>
void reference_filter(const std::vector<T>& src, std::uint64_t src_offset, std::uint64_t src_pitch,
                      std::vector<double>& out, std::uint64_t out_offset, std::uint64_t out_pitch,
                      const FilterProblem& problem, const HostTaps& taps);

}  // namespace tilecl::detail
