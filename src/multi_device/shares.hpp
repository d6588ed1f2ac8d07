// How work is divided: contiguous ranges of an index space (rows, products, frame rows) in proportion to
// weights, and a range cut into pieces.
#pragma once

#include <cstddef>
#include <vector>

namespace tilecl::detail {

struct IndexRange {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const { return end - begin; }
  bool empty() const { return end == begin; }
};

// [0, total) in weights.size() consecutive ranges, range i holding about total * w_i / sum(w) indices (largest
// remainders round up, ties to the earlier range). Ranges may be empty (more weights than indices).
std::vector<IndexRange> split_by_weights(std::size_t total, const std::vector<double>& weights);

// `range` in at most `pieces` non-empty consecutive ranges whose sizes differ by at most 1 (none when the range
// is empty).
std::vector<IndexRange> cut_evenly(IndexRange range, std::size_t pieces);

// `range` cut at every multiple of `period` (frame boundaries), then each part cut into pieces of at most
// `max_size` indices, as evenly as possible.
std::vector<IndexRange> cut_at_periods(IndexRange range, std::size_t period, std::size_t max_size);

}  // namespace tilecl::detail
