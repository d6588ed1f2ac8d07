// gemm's "gemv" variant: a call with m or n of 1..kMaxGemvVectors run by gemv's kernels (kernels/gemv.cl), the
// large operand read once, each row or column of the small one a vector. Planned from the call like the other
// variants; its program is kept with the call's dispatch memo entry (the memo's program code holds the number of
// vectors, the form and R's alignment, everything else that selects the program).
#pragma once

#include <CL/opencl.hpp>
#include <optional>
#include <vector>

#include "build_options.hpp"
#include "ops/gemm/problem.hpp"
#include "ops/gemv.hpp"
#include "ops/op_frame.hpp"

namespace tilecl::detail::gemm {

// The row-major problem as gemv's kernels see it (operands without a buffer are fine for shape-only uses);
// nullopt when m and n both exceed kMaxGemvVectors.
std::optional<GemvProblem> gemv_problem(const KernelProblem& p);

// gemv's device-derived default for the problem's form and size: a valid configuration of the gemv variant.
// Requires min(m, n) <= kMaxGemvVectors.
Config gemv_default(const DTypeInfo& dtype, const KernelProblem& p, const DeviceInfo& device);

// The -D options of the variant's program for the problem (R taken as aligned).
BuildOptions gemv_options(const DTypeInfo& dtype, const Config& config, const KernelProblem& p);

// C = alpha op(A) op(B) + beta C through the gemv kernels (alpha != 0 and k >= 1: gemm scales C itself).
// Throws tilecl::Error (CL_INVALID_VALUE, argument "config") when m and n both exceed kMaxGemvVectors.
template <typename T>
cl::Event enqueue_gemv_variant(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved,
                               const KernelProblem& p, T alpha, T beta, const std::vector<cl::Event>* wait,
                               std::vector<cl::Event>* events);

}  // namespace tilecl::detail::gemm
