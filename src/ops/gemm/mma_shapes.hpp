// How half / bfloat16 / TF32 gemm chooses its kernel: shape classes as gemm's (ops/gemm/shapes.hpp), and a ranking
// derived from the device.
//
// On NVIDIA GPUs of compute capability 8.0 and newer (and while their compiler takes the PTX) the tensor-core kernel's
// tilings are ranked by a model: each compute unit runs its share of the work-groups, at full rate once `resident` of
// them are there; larger tiles move less data per product. The portable kernel comes last, as the fallback. Everywhere
// else only the portable kernel is ranked (shaped for CPUs under PoCL, or for GPUs); the tensor-core kernel runs there
// only when a caller forces it (emulated: tests). There, for half and bfloat16, via_float comes first from
// kViaFloatMultiplyAdds on (second below it, so first-use tuning times it too): float gemm's kernels beat the
// portable one's by more than its two conversions and float C cost. Where the tensor cores run, half products with m
// or n of at most 8 rank it second (it runs them as gemv<half>), so first-use tuning times it.
#pragma once

#include <vector>

#include "ops/gemm/mma_variants.hpp"
#include "ops/gemm/problem.hpp"
#include "tuning/search_space.hpp"

namespace tilecl::detail::gemm::mma {

// Configurations worth timing for this problem on this device, best first (the first is the default). Always at
// least one; every one valid for the device.
std::vector<Config> ranked_configs(const FormatInfo& format, const KernelProblem& p, const DeviceInfo& device);

// Where via_float is ranked first: 2^15 multiply-adds (32^3). PoCL (2-core Xeon VM, 2026-12-06): the portable
// kernel's default took 2.1x float gemm's time at 32^3, 5x at 64^3, 13x at 128^3, 20-34x at 256^3 to 512^3 and on
// 8 x 2000 x 300; via_float costs three more enqueues (15-20 us each there).
constexpr double kViaFloatMultiplyAdds = 0x1p15;

// The portable kernel's default configuration on this device (the fallback where via_float's workspace would not fit).
Config portable_default(const DeviceInfo& device);

}  // namespace tilecl::detail::gemm::mma
