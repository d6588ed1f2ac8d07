// The convolve ops with an explicit configuration (tests, the tuner, the benchmark's naive rows), and their
// search spaces and defaults; the public API picks a configuration itself.
#pragma once

#include <CL/opencl.hpp>
#include <optional>
#include <vector>

#include "dtype.hpp"
#include "tilecl/convolve.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

// Which kernels can serve a call: direct ones (any 2-D filter: convolve2d) or separable ones (a row and a
// column filter: separable_filter, box_blur, gaussian_blur).
enum class FilterForm { Direct, Separable };

// What the search space and the default depend on besides the device and the element type.
struct FilterShape {
  FilterForm form = FilterForm::Direct;
  std::uint64_t channels = 1;
  int radius_x = 0;
  int radius_y = 0;
};

SearchSpace convolve_search_space(const FilterShape& shape, const DTypeInfo& dtype);
Config convolve_default_config(const FilterShape& shape, const DTypeInfo& dtype, const DeviceInfo& device);

template <typename T>
cl::Event convolve2d_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                          std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                          cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, const cl::Buffer& filter,
                          std::size_t filter_offset, std::size_t filter_width, std::size_t filter_height, Border border,
                          const std::vector<cl::Event>* wait = nullptr);

template <typename T>
cl::Event separable_filter_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch,
                                const cl::Buffer& row_filter, std::size_t row_filter_offset,
                                std::size_t row_filter_length, const cl::Buffer& column_filter,
                                std::size_t column_filter_offset, std::size_t column_filter_length, Border border,
                                const std::vector<cl::Event>* wait = nullptr);

template <typename T>
cl::Event box_blur_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                        std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                        cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, std::size_t radius_x,
                        std::size_t radius_y, Border border, const std::vector<cl::Event>* wait = nullptr);

template <typename T>
cl::Event gaussian_blur_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                             std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                             cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, double sigma,
                             Border border, std::optional<std::size_t> radius = std::nullopt,
                             const std::vector<cl::Event>* wait = nullptr);

// The taps gaussian_blur uses: exp(-d^2 / (2 sigma^2)), d in [-radius, radius], normalised in double.
std::vector<float> gaussian_blur_taps(double sigma, std::size_t radius);

}  // namespace tilecl::detail
