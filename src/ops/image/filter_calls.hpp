// Each filter op's own checks and what it hands to run_filter: the problem (shape, border, constant, finish),
// the operands, and its taps (the caller's buffers, or built on the host for the blurs).
#pragma once

#include <optional>

#include "ops/image/filter_run.hpp"
#include "tilecl/convolve.hpp"

namespace tilecl::detail {

// The arguments every filter op shares.
struct FilterImages {
  std::size_t width, height, channels;
  ImageOperands image;
};

FilterCall convolve2d_call(const FilterImages& images, const TapsArgument& filter, std::size_t filter_width,
                           std::size_t filter_height, const FilterOptions& options, bool bytes);

FilterCall separable_call(const FilterImages& images, const TapsArgument& row, const TapsArgument& column,
                          const FilterOptions& options, bool bytes);

FilterCall box_call(const FilterImages& images, std::size_t radius_x, std::size_t radius_y,
                    const FilterOptions& options, bool bytes);

// gaussian_blur(sigma, radius): tilecl's taps (OpenCV's fixed-point ones for (2 radius + 1, sigma) under its
// arithmetic).
FilterCall gaussian_sigma_call(const FilterImages& images, double sigma, std::optional<std::size_t> radius,
                               const FilterOptions& options, bool bytes);

// gaussian_blur(GaussianKernel): cv::GaussianBlur's sizes, sigmas and taps.
FilterCall gaussian_kernel_call(const FilterImages& images, const GaussianKernel& kernel, const FilterOptions& options,
                                bool bytes);

}  // namespace tilecl::detail
