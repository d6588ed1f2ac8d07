#include "ops/image/taps.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "ops/image/filter_checks.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

// getGaussianKernel's fixed taps for sigma <= 0 and n = 1, 3, 5, 7 (smooth.dispatch.cpp).
std::vector<double> opencv_small_kernel(std::size_t n) {
  switch (n) {
    case 1:
      return {1.0};
    case 3:
      return {0.25, 0.5, 0.25};
    case 5:
      return {0.0625, 0.25, 0.375, 0.25, 0.0625};
    default:
      return {0.03125, 0.109375, 0.21875, 0.28125, 0.21875, 0.109375, 0.03125};
  }
}

// cvRound(sigma * (3 or 4) * 2 + 1) | 1, the size cv::GaussianBlur derives from a positive sigma.
std::size_t derived_size(const std::string& op, const std::string& argument, double sigma, bool bytes) {
  const double size = std::nearbyint(sigma * (bytes ? 3.0 : 4.0) * 2.0 + 1.0);
  if (!(size <= static_cast<double>(2 * kMaxRadius + 1)))
    throw Error(op, argument, CL_INVALID_VALUE,
                "sigma " + std::to_string(sigma) + " gives a kernel size above the supported " +
                    std::to_string(2 * kMaxRadius + 1));
  return static_cast<std::size_t>(size) | 1U;
}

void check_sigma(const std::string& op, const std::string& argument, double sigma) {
  if (!(sigma >= 0.0) || !std::isfinite(sigma))
    throw Error(op, argument, CL_INVALID_VALUE,
                "sigma must be 0 (derived from the size) or positive and finite (it is " + std::to_string(sigma) + ")");
}

}  // namespace

std::vector<float> box_taps(std::uint64_t radius) {
  return std::vector<float>(static_cast<std::size_t>(2 * radius + 1),
                            static_cast<float>(1.0 / static_cast<double>(2 * radius + 1)));
}

std::vector<float> gaussian_blur_taps(double sigma, std::size_t radius) {
  std::vector<double> weights(2 * radius + 1);
  double sum = 0;
  const long r = static_cast<long>(radius);
  for (long d = -r; d <= r; ++d) {
    const double z = static_cast<double>(d) / sigma;  // d = 0: 0, whatever sigma; tiny sigma: inf, weight 0
    sum += (weights[static_cast<std::size_t>(d + r)] = std::exp(-0.5 * z * z));
  }
  std::vector<float> taps(weights.size());
  for (std::size_t i = 0; i < weights.size(); ++i) taps[i] = static_cast<float>(weights[i] / sum);
  return taps;
}

std::vector<double> opencv_gaussian_kernel(std::size_t n, double sigma) {
  if (sigma <= 0 && n % 2 == 1 && n <= 7) return opencv_small_kernel(n);
  // softdouble: IEEE double operations with one rounding each; mulAdd is fused.
  const double s = sigma > 0 ? sigma : std::fma(static_cast<double>(n), 0.15, 0.35);
  const double scale = -0.125 / (s * s);  // tiny sigma: -inf, and the outer taps exp(-inf) = 0
  const std::size_t half = (n - 1) / 2;
  std::vector<double> values(half);
  double sum = 0;
  long x = 1 - static_cast<long>(n);
  for (std::size_t i = 0; i < half; ++i, x += 2) {
    values[i] = std::exp(static_cast<double>(x * x) * scale);
    sum += values[i];
  }
  sum = sum * 2 + 1;  // the centre's exp(0), odd n
  const double normaliser = 1.0 / sum;
  std::vector<double> kernel(n);
  for (std::size_t i = 0; i < half; ++i) kernel[i] = kernel[n - 1 - i] = values[i] * normaliser;
  kernel[half] = normaliser;
  return kernel;
}

std::vector<std::uint32_t> opencv_gaussian_fixed(std::size_t n, double sigma) {
  const std::vector<double> kernel = opencv_gaussian_kernel(n, sigma);
  std::vector<std::uint32_t> fixed(n);
  const std::size_t half = n / 2;
  double error = 0;
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < half; ++i) {
    const double adjusted = kernel[i] * 256.0 + error;
    const auto value = static_cast<std::int64_t>(std::nearbyint(adjusted));
    error = adjusted - static_cast<double>(value);
    fixed[i] = fixed[n - 1 - i] = static_cast<std::uint32_t>(value);
    sum += value;
  }
  fixed[half] = static_cast<std::uint32_t>(256 - 2 * sum);
  return fixed;
}

GaussianSize resolve_gaussian(const std::string& op, const GaussianKernel& kernel, bool bytes) {
  check_sigma(op, "sigma_x", kernel.sigma_x);
  check_sigma(op, "sigma_y", kernel.sigma_y);
  GaussianSize size{kernel.width, kernel.height, kernel.sigma_x, kernel.sigma_y > 0 ? kernel.sigma_y : kernel.sigma_x};
  if (size.width == 0 && size.sigma_x > 0) size.width = derived_size(op, "sigma_x", size.sigma_x, bytes);
  if (size.height == 0 && size.sigma_y > 0) size.height = derived_size(op, "sigma_y", size.sigma_y, bytes);
  if (size.width == 0 || size.height == 0)
    throw Error(op, size.width == 0 ? "sigma_x" : "sigma_y", CL_INVALID_VALUE,
                "a kernel size of 0 needs a positive sigma to derive it from");
  radius_of_length(op, "ksize_width", size.width);  // odd, and within the supported radius
  radius_of_length(op, "ksize_height", size.height);
  return size;
}

FixedFinish gaussian_finish() {
  FixedFinish finish;
  finish.bias = 1U << 15;
  finish.multiplier = 1;
  finish.shift = 16;
  return finish;
}

FixedFinish box_finish(std::uint64_t taps, std::uint64_t row_elements) {
  FixedFinish finish;
  if (taps == 1) {  // no scaling at all: s = (s * 2) >> 1
    finish.multiplier = 2;
    finish.shift = 1;
    return finish;
  }
  if (taps <= 256) {
    // ColumnSum<ushort, uchar>: ((s + divDelta) * divScale) >> 23 (box_filter.simd.hpp).
    constexpr int kShift = 23;
    const double scale = static_cast<double>(1 << kShift) / static_cast<double>(taps);
    auto divisor_scale = static_cast<std::uint32_t>(std::floor(scale));
    const double fraction = scale - std::floor(scale);
    std::uint32_t delta = static_cast<std::uint32_t>(taps / 2);
    if (fraction < 0.5)
      ++delta;
    else
      ++divisor_scale;
    finish.bias = delta;
    finish.multiplier = divisor_scale;
    finish.shift = kShift;
    return finish;
  }
  // ColumnSum<int, uchar>: float(s) * float(1 / d) rounded, except the scalar tail (double: s / d rounded).
  finish.multiplier = static_cast<std::uint32_t>(taps);
  finish.scale = static_cast<float>(1.0 / static_cast<double>(taps));
  finish.float_end = taps <= (std::uint64_t{1} << 23) ? static_cast<std::int32_t>(row_elements / 8 * 8) : 0;
  return finish;
}

}  // namespace tilecl::detail
