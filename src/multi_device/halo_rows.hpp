// The rows a band of an image needs for a filter of vertical radius `halo`: its own rows plus `halo` rows above
// and below, as the border rule reads them. Copying these rows into a buffer of their own (the "extended
// band") and filtering that buffer gives the band's rows exactly as filtering the whole image does: every
// output row of the band reads only rows of the extended band, which hold the values the whole-image call
// reads; only the extended band's own first and last `halo` output rows differ, and they are dropped.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "multi_device/shares.hpp"
#include "tilecl/types.hpp"

namespace tilecl::detail {

// The image row that row `row` (which may lie outside [0, height)) reads under `border`, or nothing when the
// rule reads zeros (Zero, and Constant, whose value the multi-device filters fix at 0). height > 0. The
// single-device folding (fold_index, src/ops/image/border.hpp), as kernels/convolve.cl applies it.
std::optional<std::size_t> border_row(long long row, std::size_t height, Border border);

// Consecutive rows of an extended band: `count` rows from extended row `to`, copies of image rows from `from`
// upwards, or zeros.
struct RowRun {
  std::size_t to = 0;
  std::size_t count = 0;
  bool zeros = false;
  std::size_t from = 0;
};

// The extended band of rows [band.begin, band.end) of an image of `height` rows: band.size() + 2 halo rows, as
// runs in order (ascending source rows merged into one run).
std::vector<RowRun> extended_band_rows(std::size_t height, IndexRange band, std::size_t halo, Border border);

}  // namespace tilecl::detail
