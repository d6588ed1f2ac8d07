// The convolve ops with an explicit configuration (tests, the tuner, the benchmark's naive rows), and their
// search spaces and defaults; the public API picks a configuration itself. The modules behind them are in
// src/ops/image/ (filter_*: types, space, program, launch, reference, subject, run; border; taps; tap_buffers).
#pragma once

#include <CL/opencl.hpp>
#include <optional>
#include <vector>

#include "dtype.hpp"
#include "ops/image/filter_space.hpp"
#include "ops/image/filter_types.hpp"
#include "ops/image/taps.hpp"
#include "tilecl/convolve.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

template <typename T>
cl::Event convolve2d_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                          std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                          cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, const cl::Buffer& filter,
                          std::size_t filter_offset, std::size_t filter_width, std::size_t filter_height,
                          const FilterOptions& options, const std::vector<cl::Event>* wait = nullptr);

template <typename T>
cl::Event separable_filter_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch,
                                const cl::Buffer& row_filter, std::size_t row_filter_offset,
                                std::size_t row_filter_length, const cl::Buffer& column_filter,
                                std::size_t column_filter_offset, std::size_t column_filter_length,
                                const FilterOptions& options, const std::vector<cl::Event>* wait = nullptr);

template <typename T>
cl::Event box_blur_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                        std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                        cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, std::size_t radius_x,
                        std::size_t radius_y, const FilterOptions& options,
                        const std::vector<cl::Event>* wait = nullptr);

template <typename T>
cl::Event gaussian_blur_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                             std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                             cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, double sigma,
                             const FilterOptions& options, std::optional<std::size_t> radius = std::nullopt,
                             const std::vector<cl::Event>* wait = nullptr);

template <typename T>
cl::Event gaussian_blur_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                             std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                             cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch,
                             const GaussianKernel& kernel, const FilterOptions& options,
                             const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl::detail
