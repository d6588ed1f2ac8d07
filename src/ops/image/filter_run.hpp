// The path every filter call takes after its op-specific checks: validate the images and taps, choose a
// configuration (explicit, or the tuning service's), bind the taps, launch.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "ops/image/filter_subject.hpp"
#include "ops/image/tap_buffers.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail {

// One call, as its op's entry describes it.
struct FilterCall {
  FilterOp op = FilterOp::Convolve2d;
  FilterProblem problem;
  ImageOperands image{};
  std::vector<TapsArgument> buffers;  // the caller's taps (convolve2d, separable_filter)
  TapWords row, column;               // or taps built on the host (the blurs)
  std::string size_argument;          // named when the taps exceed the constant memory
};

template <typename T>
cl::Event run_filter(const Config* explicit_config, cl::CommandQueue& queue, const FilterCall& call,
                     const std::vector<cl::Event>* wait);

}  // namespace tilecl::detail
