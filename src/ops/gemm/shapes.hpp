// How gemm's choice follows the shape.
//
// A call's tuned choice is stored per shape class: a category that decides which kernels can win (below), plus the
// sizes of m, n and k in steps of a power of four, plus the transposes. Calls of one class share a choice; the
// choice is tuned, on first use, at the first call's own shape (scaled down when huge), never at a representative
// of a bucket, so a ragged, skinny or mid-size call gets the configuration that is fast for a call like it.
//
// Categories (m, n, k of the row-major problem), tested in this order:
//   small        m*n*k < 2^21
//   gemv-rows    min(m, n) <= 8,  large operand contiguous along the long side of C
//   gemv-dots    min(m, n) <= 8,  large operand contiguous along k  (the gemv variant's categories: 1..8 vectors)
//   skinny-rows  min(m, n) <= 32, as gemv-rows
//   skinny-dots  min(m, n) <= 32, as gemv-dots
//   shallow      k <= 256 and m*n >= 2^24
//   deep         m*n <= 2^20 and k >= 2048 (few output tiles: split K)
//   medium       m*n*k < 2^33
//   large        everything else
// "Rows" and "dots" tell which skinny kernel reads the large operand contiguously.
//
// Defaults (when nothing is tuned) come from the device's properties: on GPUs a cost model ranks register-blocked
// tilings by the waves of work-groups they make on the device's compute units and by what each tile size sustains,
// and sizes split-K from the same count; on CPUs the kernel without local memory. In the gemv categories the gemv
// variant competes (ops/gemm/gemv_variant.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dtype.hpp"
#include "ops/gemm/problem.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail::gemm {

struct Category {
  const char* name;
  std::uint64_t m, n, k;  // the shape `tilecl tune` times when no shape is given
};
const std::vector<Category>& categories();
const Category& category_of(const KernelProblem& p);
const Category& category_named(const std::string& name);

// The shape class: its code (a number, for the per-thread memo) and its name in the tuning database, e.g.
// "medium:m9n9k10:NT" (log2 of the sizes rounded down to even numbers, the transposes); small products with m or n
// of 1..8 are a class of their own, "small-narrow:...", whose choices may be the gemv variant.
std::uint64_t class_code(const KernelProblem& p);
std::string class_name(const KernelProblem& p);

// Configurations worth timing for this problem on this device, best first by the device-derived model (the first
// is the default). Always at least one; every one valid for the device.
std::vector<Config> ranked_configs(const DTypeInfo& dtype, const KernelProblem& p, const DeviceInfo& device);
Config default_config(const DTypeInfo& dtype, const KernelProblem& p, const DeviceInfo& device);

// What tuning searches for a category: every variant for the gemv categories (whose calls all have m or n <= 8),
// else every variant but gemv.
const SearchSpace& tuning_space(const DTypeInfo& dtype, const std::string& category);

}  // namespace tilecl::detail::gemm
