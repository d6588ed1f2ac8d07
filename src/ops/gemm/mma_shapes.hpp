// How half / bfloat16 / TF32 gemm chooses its kernel: shape classes as gemm's (ops/gemm/shapes.hpp), and a ranking
// derived from the device.
//
// On NVIDIA GPUs of compute capability 8.0 and newer (and while their compiler takes the PTX) the tensor-core kernel's
// tilings are ranked by a model: each compute unit runs its share of the work-groups, at full rate once `resident` of
// them are there; larger tiles move less data per product. The portable kernel comes last, as the fallback. Everywhere
// else only the portable kernel is ranked (shaped for CPUs under PoCL, or for GPUs); the tensor-core kernel runs there
// only when a caller forces it (emulated: tests).
#pragma once

#include <vector>

#include "ops/gemm/mma_variants.hpp"
#include "ops/gemm/problem.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail::gemm::mma {

// Configurations worth timing for this problem on this device, best first (the first is the default). Always at
// least one; every one valid for the device.
std::vector<Config> ranked_configs(const FormatInfo& format, const KernelProblem& p, const DeviceInfo& device);

}  // namespace tilecl::detail::gemm::mma
