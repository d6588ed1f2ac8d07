#include "ops/image/filter_reference.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "ops/image/border.hpp"

namespace tilecl::detail {
namespace {

// Element e of row y (both may lie outside the image) under the problem's border rule.
template <typename T>
struct Sampler {
  const std::vector<T>& src;
  std::uint64_t offset, pitch;
  const FilterProblem& problem;

  double operator()(long y, long x, long channel) const {
    const long yy = fold_index(y, static_cast<long>(problem.height), problem.border);
    const long xx = fold_index(x, static_cast<long>(problem.width), problem.border);
    if (yy < 0 || xx < 0) return problem.border_value;
    const auto channels = static_cast<long>(problem.shape.channels);
    return static_cast<double>(src[offset + static_cast<std::uint64_t>(yy) * pitch + xx * channels + channel]);
  }
};

// Calls f(y, x, channel, element index in the row) for every element of the image.
void for_each_element(const FilterProblem& problem, const std::function<void(long, long, long, long)>& f) {
  const auto channels = static_cast<long>(problem.shape.channels);
  for (long y = 0; y < static_cast<long>(problem.height); ++y)
    for (long x = 0; x < static_cast<long>(problem.width); ++x)
      for (long c = 0; c < channels; ++c) f(y, x, c, x * channels + c);
}

// OpenCV's filter2D on bytes: s = fma(x, f, s) in tap order, cvRound, saturation (0 beyond int).
double opencv_direct(const std::vector<float>& filter, int rx, int ry, const std::function<double(long, long)>& at) {
  float s = 0.0f;
  for (long dy = -ry; dy <= ry; ++dy)
    for (long dx = -rx; dx <= rx; ++dx)
      s = std::fma(static_cast<float>(at(dy, dx)), filter[static_cast<std::size_t>((dy + ry) * (2 * rx + 1) + dx + rx)],
                   s);
  if (!(std::fabs(s) < 2147483648.0f)) return 0.0;
  return std::clamp(static_cast<double>(std::nearbyint(s)), 0.0, 255.0);
}

std::uint32_t fixed_finish(std::uint64_t sum, const FixedFinish& finish, long element) {
  const auto s = static_cast<std::uint32_t>(sum);
  if (finish.shift != 0) return std::min<std::uint32_t>(((s + finish.bias) * finish.multiplier) >> finish.shift, 255);
  if (element < finish.float_end) {
    const float scaled = static_cast<float>(s) * finish.scale;
    return static_cast<std::uint32_t>(std::clamp(std::nearbyint(scaled), 0.0f, 255.0f));
  }
  const std::uint32_t d = finish.multiplier, q = s / d;
  return std::min<std::uint32_t>(q + (2 * (s - q * d) > d ? 1 : 0), 255);
}

// The separable filter in two passes: every image row along x (the row filter's sums, exact in double: integers
// under the OpenCV arithmetic), then the columns, rows outside the image folded or, for the constant, the row
// filter over a row of the constant.
template <typename T>
void separable_reference(const Sampler<T>& sample, std::vector<double>& out, std::uint64_t out_offset,
                         std::uint64_t out_pitch, const FilterProblem& problem, const HostTaps& taps) {
  const int rx = problem.shape.radius_x, ry = problem.shape.radius_y;
  const bool fixed = problem.shape.opencv;
  auto row_tap = [&](long dx) {
    const auto i = static_cast<std::size_t>(dx + rx);
    return fixed ? static_cast<double>(taps.row_fixed[i]) : static_cast<double>(taps.row[i]);
  };
  const long row_elements = static_cast<long>(problem.width * problem.shape.channels);
  std::vector<double> mid(static_cast<std::size_t>(row_elements) * problem.height);
  double constant_row = 0;
  for (long dx = -rx; dx <= rx; ++dx) constant_row += row_tap(dx) * problem.border_value;
  for_each_element(problem, [&](long y, long x, long c, long e) {
    double sum = 0;
    for (long dx = -rx; dx <= rx; ++dx) sum += row_tap(dx) * sample(y, x + dx, c);
    mid[static_cast<std::size_t>(y * row_elements + e)] = sum;
  });
  for_each_element(problem, [&](long y, long, long, long e) {
    double sum = 0;
    for (long dy = -ry; dy <= ry; ++dy) {
      const auto j = static_cast<std::size_t>(dy + ry);
      const double tap = fixed ? static_cast<double>(taps.column_fixed[j]) : static_cast<double>(taps.column[j]);
      const long yy = fold_index(y + dy, static_cast<long>(problem.height), problem.border);
      sum += tap * (yy < 0 ? constant_row : mid[static_cast<std::size_t>(yy * row_elements + e)]);
    }
    out[out_offset + static_cast<std::uint64_t>(y) * out_pitch + static_cast<std::uint64_t>(e)] =
        fixed ? fixed_finish(static_cast<std::uint64_t>(sum), problem.finish, e) : sum;
  });
}

template <typename T>
void direct_reference(const Sampler<T>& sample, std::vector<double>& out, std::uint64_t out_offset,
                      std::uint64_t out_pitch, const FilterProblem& problem, const HostTaps& taps) {
  const int rx = problem.shape.radius_x, ry = problem.shape.radius_y;
  for_each_element(problem, [&](long y, long x, long c, long e) {
    auto at = [&](long dy, long dx) { return sample(y + dy, x + dx, c); };
    double value = 0;
    if (problem.shape.opencv) {
      value = opencv_direct(taps.direct, rx, ry, at);
    } else {
      for (long dy = -ry; dy <= ry; ++dy)
        for (long dx = -rx; dx <= rx; ++dx)
          value += static_cast<double>(taps.direct[static_cast<std::size_t>((dy + ry) * (2 * rx + 1) + dx + rx)]) *
                   at(dy, dx);
    }
    out[out_offset + static_cast<std::uint64_t>(y) * out_pitch + static_cast<std::uint64_t>(e)] = value;
  });
}

}  // namespace

// The sampler and both forms' loops live in the anonymous namespace above: lambdas that capture a sampler inside
// this exported template would give it members of an internal type (GCC's -Wsubobject-linkage in unity builds).
template <typename T>
void reference_filter(const std::vector<T>& src, std::uint64_t src_offset, std::uint64_t src_pitch,
                      std::vector<double>& out, std::uint64_t out_offset, std::uint64_t out_pitch,
                      const FilterProblem& problem, const HostTaps& taps) {
  const Sampler<T> sample{src, src_offset, src_pitch, problem};
  if (problem.shape.form == FilterForm::Separable)
    separable_reference(sample, out, out_offset, out_pitch, problem, taps);
  else
    direct_reference(sample, out, out_offset, out_pitch, problem, taps);
}

template void reference_filter<float>(const std::vector<float>&, std::uint64_t, std::uint64_t, std::vector<double>&,
                                      std::uint64_t, std::uint64_t, const FilterProblem&, const HostTaps&);
template void reference_filter<std::uint8_t>(const std::vector<std::uint8_t>&, std::uint64_t, std::uint64_t,
                                             std::vector<double>&, std::uint64_t, std::uint64_t, const FilterProblem&,
                                             const HostTaps&);

}  // namespace tilecl::detail
