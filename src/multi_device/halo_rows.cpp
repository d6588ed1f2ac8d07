#include "multi_device/halo_rows.hpp"

namespace tilecl::detail {

std::optional<std::size_t> border_row(long long row, std::size_t height, Border border) {
  const auto n = static_cast<long long>(height);
  if (row >= 0 && row < n) return static_cast<std::size_t>(row);
  switch (border) {
    case Border::Zero:
    case Border::Constant:  // the multi-device filters take the rule alone: their constant is 0
      return std::nullopt;
    case Border::Clamp:
      return row < 0 ? 0 : height - 1;
    case Border::Mirror: {
      if (n == 1) return 0;
      const long long period = 2 * n - 2;
      const long long folded = ((row % period) + period) % period;
      return static_cast<std::size_t>(folded < n ? folded : period - folded);
    }
    case Border::Wrap:
      return static_cast<std::size_t>(((row % n) + n) % n);
    case Border::Reflect: {
      const long long period = 2 * n;
      const long long folded = ((row % period) + period) % period;
      return static_cast<std::size_t>(folded < n ? folded : period - 1 - folded);
    }
  }
  return std::nullopt;
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
