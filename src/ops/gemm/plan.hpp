// What one gemm call enqueues, worked out on the host from the configuration and the call: which operands are
// packed (or read element by element), the K slices, the workspace layout and the NDRange of the main kernel.
// Pure arithmetic (no OpenCL), so it is unit-tested without a device.
//
// In order, whatever the configuration needs:
//   1. pack A and/or B (gemm_pack) into a zero-padded workspace when they miss the vector-load rules (regblock with
//      PACK = 0 reads such an operand element by element instead, no pack launch);
//   2. pack op(B) into k-major panels (gemm_pack_panels) for gemm_cpu with USE_PACKED_B;
//   3. the main kernel, writing K-slice partials to the workspace when K is split;
//   4. gemm_splitk_reduce: C = alpha * (sum of the slices) + beta * C.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <string>

#include "build_options.hpp"
#include "ops/gemm/problem.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail::gemm {

// A stored matrix: rows x cols.
struct Extent {
  std::uint64_t rows = 0, cols = 0;
};

struct Plan {
  std::string variant, kernel;
  KernelProblem p;  // oriented for the variant
  std::uint64_t vec = 1;
  bool aligned_a = true, aligned_b = true;  // regblock: aligned vector loads (else element loads)
  bool pack_a = false, pack_b = false;
  std::uint64_t k_run = 0;  // K the main kernel runs (rounded up to VEC when packing pads K)
  Extent a_stored, b_stored, a_packed, b_packed, c_stored;
  std::uint64_t slices = 1, k_slice = 0;  // K split: slices of k_slice
  std::uint64_t w_ld = 0, w_stride = 0;   // the partials of each slice: c_stored rows x w_ld, w_stride apart
  bool panels = false;                    // gemm_cpu with USE_PACKED_B
  std::uint64_t panel = 1, panel_stride = 0;
  std::uint64_t a_at = 0, b_at = 0, w_at = 0, panels_at = 0, workspace = 0;  // workspace layout, in elements
  cl::NDRange global, local;
  std::uint64_t work_group = 0;
  bool splittable = false;  // the kernel takes the split-K arguments
};

// The plan of `config` for the row-major problem `problem` (not yet oriented). Throws tilecl::Error when a packed
// operand or the partials would exceed the kernels' 32-bit index range.
Plan make_plan(const Config& config, const KernelProblem& problem);

// The -D options of the plan's main kernel program (DTYPE, transposes, the variant, its build parameters, and
// regblock's aligned-load switches).
BuildOptions main_options(const DTypeInfo& dtype, const Config& config, const Plan& plan);

// What else than the configuration selects the programs of a call: the transposes, the orientation a skinny
// kernel would pick, the alignment of the operands (for the vector-load rules) and, for the gemv variant, the
// number of vectors. Equal codes, equal programs.
std::uint64_t program_code(const KernelProblem& problem);

}  // namespace tilecl::detail::gemm
