// rgb_to_gray with an explicit configuration (tests, the tuner, the benchmark's naive row); the public API
// picks one itself.
#pragma once

#include <CL/opencl.hpp>
#include <vector>

#include "dtype.hpp"
#include "tilecl/color.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

template <typename T>
cl::Event rgb_to_gray_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                           const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                           std::size_t dst_offset, std::size_t dst_pitch, const GrayWeights& weights = GrayWeights(),
                           const std::vector<cl::Event>* wait = nullptr);

SearchSpace rgb_to_gray_search_space(const DTypeInfo& dtype);
Config rgb_to_gray_default_config(const DTypeInfo& dtype, const DeviceInfo& device);

}  // namespace tilecl::detail
