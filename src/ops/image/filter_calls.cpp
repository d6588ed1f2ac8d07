#include "ops/image/filter_calls.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "ops/image/border.hpp"
#include "ops/image/filter_checks.hpp"
#include "ops/image/taps.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

// OpenCV's filter2D computes filters of this many taps or more through a DFT (dft_filter_size, with SSE3).
constexpr std::uint64_t kOpenCVDirectLimit = 130;
// Integer sums of byte images under the OpenCV arithmetic stay within 32 bits up to this many taps.
constexpr std::uint64_t kOpenCVBoxLimit = std::uint64_t{1} << 24;

// The options' border and arithmetic; whether the call takes OpenCV's byte arithmetic.
bool check_options(const std::string& op, const FilterOptions& options, bool bytes) {
  check_border(op, options);
  if (options.arithmetic != Arithmetic::Float && options.arithmetic != Arithmetic::OpenCV)
    throw Error(op, "arithmetic", CL_INVALID_VALUE,
                std::to_string(static_cast<int>(options.arithmetic)) + " is not a tilecl::Arithmetic");
  return bytes && options.arithmetic == Arithmetic::OpenCV;
}

FilterCall call_of(FilterOp op, const FilterImages& images, FilterShape shape, const FilterOptions& options,
                   bool bytes) {
  check_channels(filter_op_name(op), images.channels);
  shape.channels = images.channels;
  shape.integer_taps = integer_taps_of(op, shape, bytes);
  FilterCall call;
  call.op = op;
  call.problem = FilterProblem{images.width,
                               images.height,
                               shape,
                               options.border,
                               border_constant(options, bytes),
                               finish_of(op, shape, images.width)};
  call.image = images.image;
  return call;
}

// Whether taps read the same backwards, bit for bit.
bool palindrome(const TapWords& taps) { return std::equal(taps.begin(), taps.end(), taps.rbegin()); }

// Whether float taps (as words) are non-negative and sum to `sum` (in double).
bool non_negative(const TapWords& taps, double& sum) {
  sum = 0;
  for (std::uint32_t word : taps) {
    float tap = 0;
    std::memcpy(&tap, &word, sizeof tap);
    if (!(tap >= 0.0f) || !std::isfinite(tap)) return false;
    sum += tap;
  }
  return true;
}

// Whether every float sum of a byte image under these taps lies in 0 .. 255.5 (USE_UNIT_GAIN): elements and
// border values are 0..255, the taps non-negative, and a float sum of n non-negative terms is below the exact sum
// times 1 + n 2^-24; the bound taken, 1 + (n + 4) 2^-23, leaves room for the conversions and the column sum's pairing.
bool unit_gain_taps(const TapWords& row, const TapWords& column) {
  double row_sum = 0, column_sum = 0;
  if (!non_negative(row, row_sum) || !non_negative(column, column_sum)) return false;
  const double n = static_cast<double>(row.size() + column.size());
  return 255.0 * row_sum * column_sum * (1.0 + (n + 4.0) * std::ldexp(1.0, -23)) < 255.5;
}

// Marks a blur's call by its host-built taps: symmetric in both directions (USE_SYMMETRIC), and on bytes with
// float sums of unit gain (USE_UNIT_GAIN).
FilterCall with_tap_properties(FilterCall call, bool bytes) {
  FilterShape& shape = call.problem.shape;
  shape.symmetric = palindrome(call.row) && palindrome(call.column);
  shape.unit_gain = bytes && !shape.opencv && unit_gain_taps(call.row, call.column);
  return call;
}

// The taps of a Gaussian of `size` taps and `sigma` in one of OpenCV's forms, from the last few this thread built
// (a warm call builds none: cv::getGaussianKernel's arithmetic was a tenth of a small blur's host time).
TapWords opencv_taps(std::size_t size, double sigma, bool fixed) {
  struct Entry {
    std::size_t size = 0;
    double sigma = 0;
    bool fixed = false;
    TapWords taps;
  };
  thread_local std::array<Entry, 8> entries;
  thread_local std::size_t next = 0;
  for (const Entry& e : entries)
    if (!e.taps.empty() && e.size == size && e.sigma == sigma && e.fixed == fixed) return e.taps;
  Entry& slot = entries[next];
  next = (next + 1) % entries.size();
  if (fixed) {
    slot.taps = fixed_tap_words(opencv_gaussian_fixed(size, sigma), false);
  } else {
    // cv::getGaussianKernel's taps in double, rounded to float.
    std::vector<float> taps;
    for (double tap : opencv_gaussian_kernel(size, sigma)) taps.push_back(static_cast<float>(tap));
    slot.taps = tap_words(taps);
  }
  slot.size = size;
  slot.sigma = sigma;
  slot.fixed = fixed;
  return slot.taps;
}

}  // namespace

FilterCall convolve2d_call(const FilterImages& images, const TapsArgument& filter, std::size_t filter_width,
                           std::size_t filter_height, const FilterOptions& options, bool bytes) {
  const std::string op = filter_op_name(FilterOp::Convolve2d);
  const bool opencv = check_options(op, options, bytes);
  const FilterShape shape{FilterForm::Direct, images.channels, radius_of_length(op, "filter_width", filter_width),
                          radius_of_length(op, "filter_height", filter_height), opencv};
  const std::uint64_t taps = static_cast<std::uint64_t>(filter_width) * filter_height;
  const std::string size_argument = filter_width >= filter_height ? "filter_width" : "filter_height";
  if (opencv && taps >= kOpenCVDirectLimit)
    throw Error(op, size_argument, CL_INVALID_VALUE,
                std::to_string(taps) + " taps: OpenCV filters " + std::to_string(kOpenCVDirectLimit) +
                    " taps or more through a DFT, which Arithmetic::OpenCV does not reproduce");
  FilterCall call = call_of(FilterOp::Convolve2d, images, shape, options, bytes);
  call.buffers = {filter};
  call.buffers.front().count = taps;
  call.size_argument = size_argument;
  return call;
}

FilterCall separable_call(const FilterImages& images, const TapsArgument& row, const TapsArgument& column,
                          const FilterOptions& options, bool bytes) {
  const std::string op = filter_op_name(FilterOp::Separable);
  if (check_options(op, options, bytes))
    throw Error(op, "arithmetic", CL_INVALID_VALUE,
                "Arithmetic::OpenCV covers gaussian_blur, box_blur, convolve2d and rgb_to_gray; separable_filter "
                "has no bit-exact OpenCV counterpart");
  const FilterShape shape{FilterForm::Separable, images.channels, radius_of_length(op, "row_filter_length", row.count),
                          radius_of_length(op, "column_filter_length", column.count)};
  FilterCall call = call_of(FilterOp::Separable, images, shape, options, bytes);
  call.buffers = {row, column};
  call.size_argument = row.count >= column.count ? "row_filter_length" : "column_filter_length";
  return call;
}

FilterCall box_call(const FilterImages& images, std::size_t radius_x, std::size_t radius_y,
                    const FilterOptions& options, bool bytes) {
  const std::string op = filter_op_name(FilterOp::Box);
  const bool opencv = check_options(op, options, bytes);
  const std::uint64_t taps =
      (2 * static_cast<std::uint64_t>(radius_x) + 1) * (2 * static_cast<std::uint64_t>(radius_y) + 1);
  const FilterShape shape{FilterForm::Separable,
                          images.channels,
                          checked_radius(op, "radius_x", radius_x),
                          checked_radius(op, "radius_y", radius_y),
                          opencv,
                          opencv && taps > 256};
  const std::string size_argument = radius_x >= radius_y ? "radius_x" : "radius_y";
  if (opencv && taps > kOpenCVBoxLimit)
    throw Error(op, size_argument, CL_INVALID_VALUE,
                std::to_string(taps) + " taps: Arithmetic::OpenCV sums at most " + std::to_string(kOpenCVBoxLimit) +
                    " bytes per pixel in 32 bits");
  FilterCall call = call_of(FilterOp::Box, images, shape, options, bytes);
  if (opencv) {
    call.row = fixed_tap_words(std::vector<std::uint32_t>(2 * radius_x + 1, 1), shape.dividing_finish);
    call.column = fixed_tap_words(std::vector<std::uint32_t>(2 * radius_y + 1, 1), shape.dividing_finish);
  } else {
    call.row = tap_words(box_taps(radius_x));
    call.column = tap_words(box_taps(radius_y));
  }
  call.size_argument = size_argument;
  return with_tap_properties(call, bytes);
}

FilterCall gaussian_sigma_call(const FilterImages& images, double sigma, std::optional<std::size_t> radius,
                               const FilterOptions& options, bool bytes) {
  const std::string op = filter_op_name(FilterOp::Gaussian);
  const bool opencv = check_options(op, options, bytes);
  if (!(sigma > 0) || !std::isfinite(sigma))
    throw Error(op, "sigma", CL_INVALID_VALUE,
                "sigma must be positive and finite (it is " + std::to_string(sigma) + ")");
  std::string radius_argument = "radius";
  if (!radius) {
    radius_argument = "sigma";
    const double derived = std::max(1.0, std::ceil(3.0 * sigma));
    if (derived > static_cast<double>(kMaxRadius))
      throw Error(
          op, "sigma", CL_INVALID_VALUE,
          "sigma " + std::to_string(sigma) + " gives a radius above the supported " + std::to_string(kMaxRadius));
    radius = static_cast<std::size_t>(derived);
  }
  const int r = checked_radius(op, radius_argument, *radius);
  FilterCall call = call_of(FilterOp::Gaussian, images,
                            FilterShape{FilterForm::Separable, images.channels, r, r, opencv}, options, bytes);
  call.row = opencv ? fixed_tap_words(opencv_gaussian_fixed(2 * *radius + 1, sigma), false)
                    : tap_words(gaussian_blur_taps(sigma, *radius));
  call.column = call.row;
  call.size_argument = radius_argument;
  return with_tap_properties(call, bytes);
}

FilterCall gaussian_kernel_call(const FilterImages& images, const GaussianKernel& kernel, const FilterOptions& options,
                                bool bytes) {
  const std::string op = filter_op_name(FilterOp::Gaussian);
  const bool opencv = check_options(op, options, bytes);
  const GaussianSize size = resolve_gaussian(op, kernel, bytes);
  const FilterShape shape{FilterForm::Separable, images.channels, static_cast<int>(size.width / 2),
                          static_cast<int>(size.height / 2), opencv};
  FilterCall call = call_of(FilterOp::Gaussian, images, shape, options, bytes);
  call.row = opencv_taps(size.width, size.sigma_x, opencv);
  call.column = opencv_taps(size.height, size.sigma_y, opencv);
  call.size_argument = size.width >= size.height ? "ksize_width" : "ksize_height";
  return with_tap_properties(call, bytes);
}

}  // namespace tilecl::detail
