#include "multi_device/halo_rows.hpp"

#include "ops/image/border.hpp"

namespace tilecl::detail {

std::optional<std::size_t> border_row(long long row, std::size_t height, Border border) {
  const long folded = fold_index(static_cast<long>(row), static_cast<long>(height), border);
  if (folded < 0) return std::nullopt;
  return static_cast<std::size_t>(folded);
}

std::vector<RowRun> extended_band_rows(std::size_t height, IndexRange band, std::size_t halo, Border border) {
  std::vector<RowRun> runs;
  const std::size_t rows = band.size() + 2 * halo;
  for (std::size_t to = 0; to < rows; ++to) {
    const long long row =
        static_cast<long long>(band.begin) + static_cast<long long>(to) - static_cast<long long>(halo);
    const std::optional<std::size_t> from = border_row(row, height, border);
    if (!runs.empty()) {
      RowRun& last = runs.back();
      const bool continues = from ? (!last.zeros && *from == last.from + last.count) : last.zeros;
      if (continues) {
        ++last.count;
        continue;
      }
    }
    runs.push_back({to, 1, !from, from.value_or(0)});
  }
  return runs;
}

}  // namespace tilecl::detail
