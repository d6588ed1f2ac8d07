// rgb_to_gray's kernel weights (ordered and typed for the source layout and the arithmetic) and its launch.
#pragma once

#include <CL/opencl.hpp>
#include <array>
#include <string>
#include <vector>

#include "checks.hpp"
#include "dtype.hpp"
#include "ops/image/gray_run.hpp"

namespace tilecl::detail {

// Elements per source pixel: 3 or 4.
std::uint64_t source_channels(ChannelOrder order);

// The weights of the source's elements 0, 1, 2 as the kernels take them: floats, or under the OpenCV
// arithmetic cvtColor's 15-bit integers (exactly representable as floats).
std::array<float, 3> kernel_weights(const GrayOptions& options, bool opencv);

cl::Event launch_gray(const QueueTarget& target, cl::CommandQueue& queue, const DTypeInfo& dtype,
                      const GrayShape& shape, const GrayPlan& plan, std::uint64_t width, std::uint64_t height,
                      const GrayOperands& operands, const std::array<float, 3>& weights,
                      const std::vector<cl::Event>* wait);

// The same with the plan's kernel at hand (a warm call's memo keeps one; its work-group checked once against
// gray_group_items, 0 meaning the driver chooses).
cl::Event launch_gray_kernel(cl::CommandQueue& queue, cl::Kernel& kernel, const GrayPlan& plan, std::uint64_t width,
                             std::uint64_t height, const GrayOperands& operands, const std::array<float, 3>& weights,
                             const std::vector<cl::Event>* wait);
std::size_t gray_group_items(const GrayPlan& plan);

}  // namespace tilecl::detail
