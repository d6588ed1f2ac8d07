// What one half / bfloat16 / TF32 gemm call enqueues, worked out on the host (pure arithmetic, unit-tested without
// a device):
//   1. gemm_mma_pack for each operand gemm_mma_sync cannot copy 16 bytes at a time (a leading dimension or offset
//      that is not a multiple of 16 bytes' worth of elements): it goes to a workspace with its rows padded to a
//      multiple of 16 bytes (zeros) -- unless the configuration has IN_PLACE = 1, which builds gemm_mma_sync to read
//      such an operand in place (A_IN_PLACE, B_IN_PLACE) instead;
//   2. the main kernel, gemm_mma_sync or gemm_mma_portable (which reads any layout in place);
//   3. with SPLIT_K > 1, gemm_mma_split_sum: gemm_mma_sync wrote SPLIT_K matrices of partial float sums into the
//      workspace (after the packed operands), and this kernel adds them into C;
// or, for the via_float variant: gemm_mma_widen of op(A)'s and op(B)'s stored matrices into float copies (rows padded
// to 16 floats with zeros), float gemm into a float workspace, and gemm_mma_narrow into C.
#pragma once

#include <CL/opencl.hpp>
#include <cstdint>
#include <string>

#include "build_options.hpp"
#include "ops/gemm/mma_variants.hpp"
#include "ops/gemm/problem.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail::gemm::mma {

// An operand as stored: rows x cols (row-major), and where gemm_mma_pack puts it when packed; or in_place, when the
// tensor-core kernel reads it element by element where it lies (IN_PLACE = 1).
struct StoredOperand {
  std::uint64_t rows = 0, cols = 0;
  bool packed = false, in_place = false;
  std::uint64_t packed_ld = 0, at = 0;  // the packed copy: leading dimension and workspace offset (elements)
};

// A float matrix in the via_float workspace: its offset and leading dimension (floats).
struct FloatPlace {
  std::uint64_t at = 0, ld = 0;
};

struct Plan {
  std::string variant, kernel;
  KernelProblem p;
  bool use_ptx = false;         // gemm_mma_sync: PTX (1) or emulated warp instructions (0)
  StoredOperand a, b;           // op(A) and op(B) as stored
  std::uint64_t workspace = 0;  // elements
  // gemm_mma_sync with SPLIT_K > 1: `split` dense m x n float matrices of partial sums in the workspace, the first at
  // element `partials_at` (a 256-byte boundary).
  std::uint64_t split = 1, partials_at = 0;
  // via_float: the widened A and B (stored as the caller's, rows padded) and the float product, in a workspace of
  // float_workspace floats.
  FloatPlace wide_a, wide_b, sums;
  std::uint64_t float_workspace = 0;
  cl::NDRange global, local;
  std::uint64_t work_group = 0;  // 0: the driver chooses
};

// The plan of `config` for the row-major problem `problem` on a device where gemm_mma_sync does (use_ptx) or does
// not run its PTX. Throws tilecl::Error when a packed operand would exceed the kernels' 32-bit index range.
Plan make_plan(const FormatInfo& format, const Config& config, const KernelProblem& problem, bool use_ptx);

// Which operands of the problem the tensor-core kernel packs (its rows must start on 16-byte boundaries): bit 0 A,
// bit 1 B; 0 when k is 0. A leading dimension of 0 (a tuning shape that names none) means the minimal one.
unsigned packed_operands(const FormatInfo& format, const KernelProblem& problem);

// Whether the plan's workspace fits the device (one allocation, and 32-bit indices in the kernels). A via_float
// plan that does not runs the portable kernel instead.
bool workspace_fits(const Plan& plan, const DeviceInfo& device);

// The -D options (and, for a PTX build with a register cap, the compiler flag) of the plan's program.
BuildOptions main_options(const FormatInfo& format, const Config& config, const Plan& plan);

}  // namespace tilecl::detail::gemm::mma
