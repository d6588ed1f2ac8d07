// Enqueueing a filter plan: its program, geometry, kernel arguments, and for the two-pass form the workspace.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "build_options.hpp"
#include "checks.hpp"
#include "dtype.hpp"
#include "ops/image/filter_types.hpp"
#include "ops/image/tap_buffers.hpp"
#include "program_cache.hpp"

namespace tilecl::detail {

// Enqueues the plan's kernels after `wait` and the taps' copies; returns their events, first to last.
std::vector<cl::Event> launch_filter(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                                     const DTypeInfo& dtype, const FilterPlan& plan, const FilterProblem& problem,
                                     const ImageOperands& image, const BoundTaps& taps,
                                     const std::vector<cl::Event>* wait);

// The same from a program already at hand. `kernel`, when not null, is the plan's single kernel, leased by the
// caller (a warm call's memo keeps one, its work-group size checked once: filter_group_items); null leases it here
// and checks the work-group. The two-pass form leases its two kernels itself.
std::vector<cl::Event> launch_filter_from(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                                          CompiledProgram& program, cl::Kernel* kernel, const FilterPlan& plan,
                                          const FilterProblem& problem, const ImageOperands& image,
                                          const BoundTaps& taps, const std::vector<cl::Event>* wait);

// The program a plan builds for a problem, the name of its (first) kernel, and the most work-items of one work-group
// any call of the plan launches (0: the driver chooses; flat groups are fitted to each call, never above this).
BuildOptions filter_program_options(const FilterProblem& problem, const DTypeInfo& dtype, const FilterPlan& plan);
std::string filter_main_kernel(const FilterProblem& problem, const FilterPlan& plan);
std::size_t filter_group_items(const FilterPlan& plan, const FilterProblem& problem);

}  // namespace tilecl::detail
