#include "multi_device/shares.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tilecl::detail {

std::vector<IndexRange> split_by_weights(std::size_t total, const std::vector<double>& weights) {
  const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<std::size_t> sizes(weights.size());
  std::vector<double> remainders(weights.size());
  std::size_t assigned = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double exact = static_cast<double>(total) * weights[i] / sum;
    sizes[i] = std::min(total - assigned, static_cast<std::size_t>(std::floor(exact)));
    remainders[i] = exact - static_cast<double>(sizes[i]);
    assigned += sizes[i];
  }
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainders[a] > remainders[b]; });
  for (std::size_t i = 0; assigned < total; i = (i + 1) % order.size(), ++assigned) ++sizes[order[i]];
  std::vector<IndexRange> ranges;
  std::size_t begin = 0;
  for (const std::size_t size : sizes) {
    ranges.push_back({begin, begin + size});
    begin += size;
  }
  return ranges;
}

std::vector<IndexRange> cut_evenly(IndexRange range, std::size_t pieces) {
  std::vector<IndexRange> parts;
  const std::size_t count = std::min(std::max<std::size_t>(pieces, 1), range.size());
  std::size_t begin = range.begin;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t size = range.size() / count + (i < range.size() % count ? 1 : 0);
    parts.push_back({begin, begin + size});
    begin += size;
  }
  return parts;
}

std::vector<IndexRange> cut_at_periods(IndexRange range, std::size_t period, std::size_t max_size) {
  std::vector<IndexRange> parts;
  for (std::size_t begin = range.begin; begin < range.end;) {
    const std::size_t end = std::min(range.end, (begin / period + 1) * period);
    const std::size_t size = end - begin;
    const auto pieces = cut_evenly({begin, end}, (size + max_size - 1) / max_size);
    parts.insert(parts.end(), pieces.begin(), pieces.end());
    begin = end;
  }
  return parts;
}

}  // namespace tilecl::detail
