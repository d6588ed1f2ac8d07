// Filter construction for the blurs: box and Gaussian taps (tilecl's and OpenCV's), cv::GaussianBlur's
// size and sigma rules, and the fixed-point finish of OpenCV's byte arithmetic (kernels/convolve.cl).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/image/filter_types.hpp"
#include "tilecl/convolve.hpp"

namespace tilecl::detail {

// Keeps every tap index within the kernels' 32-bit arithmetic, whatever constant memory a device reports.
constexpr std::uint64_t kMaxRadius = 65535;

// 2r + 1 taps of 1 / (2r + 1).
std::vector<float> box_taps(std::uint64_t radius);

// tilecl's Gaussian (gaussian_blur with sigma and radius): exp(-(d / sigma)^2 / 2) for d in [-radius, radius],
// normalised in double. Any positive finite sigma: one too small to reach the next tap gives a single 1 (a
// copy), never 0 / 0.
std::vector<float> gaussian_blur_taps(double sigma, std::size_t radius);

// OpenCV 4.6's getGaussianKernel in double (the arithmetic of its softdouble code): sigma <= 0 takes its fixed
// taps for n = 1, 3, 5, 7 and else 0.3 ((n - 1) / 2 - 1) + 0.8; the centre tap is 1 before normalising.
std::vector<double> opencv_gaussian_kernel(std::size_t n, double sigma);

// The same as 8-bit fixed-point integers summing to 256 (OpenCV's error diffusion from the outer taps in; the
// centre takes the rest): GaussianBlur's taps on bytes.
std::vector<std::uint32_t> opencv_gaussian_fixed(std::size_t n, double sigma);

// A GaussianKernel with its sizes and sigmas resolved as cv::GaussianBlur resolves them for the element type.
struct GaussianSize {
  std::size_t width = 1, height = 1;
  double sigma_x = 0.0, sigma_y = 0.0;
};
// Throws tilecl::Error ("sigma_x", "sigma_y": negative or not finite, both 0 with a size 0, a derived size
// beyond the supported radius; "width"/"height" of the kernel ("ksize_width", "ksize_height"): even or too
// large).
GaussianSize resolve_gaussian(const std::string& op, const GaussianKernel& kernel, bool bytes);

// The finish of GaussianBlur's fixed-point sums: (s + 2^15) >> 16.
FixedFinish gaussian_finish();
// The finish of blur's integer sums over `taps` pixels in rows of `row_elements` (OpenCV's divScale and
// divDelta up to 256 taps; above, its float path before the last row_elements % 8 elements, its double path
// after them and for more than 2^23 taps).
FixedFinish box_finish(std::uint64_t taps, std::uint64_t row_elements);

}  // namespace tilecl::detail
