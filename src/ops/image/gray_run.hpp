// rgb_to_gray's path: options checked and turned into the kernels' weights, images validated, a configuration
// chosen (explicit, or the tuning service's), the kernel launched; and its tuning subject.
#pragma once

#include <CL/opencl.hpp>
#include <memory>
#include <string>
#include <vector>

#include "ops/image/gray_space.hpp"
#include "tilecl/color.hpp"
#include "tuning/tuning_subject.hpp"

namespace tilecl::detail {

constexpr const char* kGrayOp = "rgb_to_gray";

struct GrayOperands {
  const cl::Buffer* src;
  std::uint64_t src_offset, src_pitch;
  cl::Buffer* dst;
  std::uint64_t dst_offset, dst_pitch;
};

template <typename T>
cl::Event run_rgb_to_gray(const Config* explicit_config, cl::CommandQueue& queue, std::uint64_t width,
                          std::uint64_t height, const GrayOperands& operands, const GrayOptions& options,
                          const std::vector<cl::Event>* wait);

// From `tilecl tune --shape` text: WIDTHxHEIGHT[,rgb|bgr|rgba|bgra][,opencv], e.g. 7680x4320,rgba.
std::unique_ptr<TuningSubject> parse_gray_subject(const std::string& dtype, const std::string& shape);

}  // namespace tilecl::detail
