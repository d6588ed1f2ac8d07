// How half / bfloat16 / TF32 gemm chooses its kernel: shape classes as gemm's (ops/gemm/shapes.hpp), and a ranking
// derived from the device.
//
// On NVIDIA GPUs of compute capability 8.0 and newer (and while their compiler takes the PTX) the tensor-core kernel's
// tilings are ranked by a model: each compute unit runs its share of the work-groups, at full rate once `resident` of
// them are there; larger tiles move less data per product. The portable kernel comes last, as the fallback. Everywhere
// else only the portable kernel is ranked (shaped for CPUs under PoCL, or for GPUs); the tensor-core kernel runs there
// only when a caller forces it (emulated: tests). There via_float comes first from kViaFloatMultiplyAdds on (second
// below it, so first-use tuning times it too; TF32: always first, it is float gemm): float gemm's kernels beat the
// portable one's by more than its two conversions and float C cost. Where the tensor cores run, via_float is ranked
// second, so first-use tuning times it, in TF32 mode for products up to kViaFloatBesideTensorCores multiply-adds
// (float gemm in place) and for half products with m or n of at most 8 (it runs them as gemv<half>).
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

// Where the tensor cores run, TF32's via_float (float gemm in place) is timed beside them up to 2^31 multiply-adds
// (about 1300^3). H100 (seed-13 sweep, first-use tuning): the tensor-core kernel took 1.3-2.4x float gemm's time on
// mid-size products whose few output tiles or long K leave most compute units idle (TF32 596 x 274 x 5160: 0.181 ms
// against 0.100; half 2750 x 26 x 4733: 0.121 against 0.079) and won from about 2^30 with many tiles (TF32
// 131 x 4926 x 3506: 1.7x).
constexpr double kViaFloatBesideTensorCores = 0x1p31;

// A call whose A or B the tensor-core kernel cannot copy 16 bytes at a time (a leading dimension or offset off 16
// bytes' worth of elements) packs it first -- a launch of its own, which cost small products more than their main
// kernel took -- or reads it in place (IN_PLACE = 1: element loads, one launch). Every tiling is ranked in place up to
// kInPlaceFirst multiply-adds (the best packed form timed beside them); up to kInPlaceBeside the best tiling's
// in-place form is ranked after the best tiling and its K shares, so first-use tuning times it; beyond, packing alone
// (the main kernel's 16-byte copies pay for the pack there).
constexpr double kInPlaceFirst = 0x1p27;
constexpr double kInPlaceBeside = 0x1p33;

// The portable kernel's default configuration on this device (the fallback where via_float's workspace would not fit).
Config portable_default(const DeviceInfo& device);

}  // namespace tilecl::detail::gemm::mma
