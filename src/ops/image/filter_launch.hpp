// Enqueueing a filter plan: its program, geometry, kernel arguments, and for the two-pass form the workspace.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "checks.hpp"
#include "dtype.hpp"
#include "ops/image/filter_types.hpp"
#include "ops/image/tap_buffers.hpp"

namespace tilecl::detail {

// Enqueues the plan's kernels after `wait` and the taps' copies; returns their events, first to last.
std::vector<cl::Event> launch_filter(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                                     const DTypeInfo& dtype, const FilterPlan& plan, const FilterProblem& problem,
                                     const ImageOperands& image, const BoundTaps& taps,
                                     const std::vector<cl::Event>* wait);

}  // namespace tilecl::detail
