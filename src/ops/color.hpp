// rgb_to_gray with an explicit configuration (tests, the tuner, the benchmark's naive row), and its search space
// and defaults; the public API picks a configuration itself. The modules behind it are in src/ops/image/
// (gray_space, gray_launch, gray_subject, gray_run).
#pragma once

#include <CL/opencl.hpp>
#include <vector>

#include "dtype.hpp"
#include "ops/image/gray_space.hpp"
#include "tilecl/color.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

template <typename T>
cl::Event rgb_to_gray_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                           const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                           std::size_t dst_offset, std::size_t dst_pitch, const GrayOptions& options = GrayOptions(),
                           const std::vector<cl::Event>* wait = nullptr);

}  // namespace tilecl::detail
