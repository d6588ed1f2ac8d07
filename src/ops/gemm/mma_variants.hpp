// gemm on 16-bit floats (half, bfloat16) and float in TF32 mode (kernels/gemm_mma.cl documents every macro): the
// element formats, the two kernel variants and the search space they make.
//
//   mma       gemm_mma_sync: tensor cores through inline PTX on NVIDIA GPUs of compute capability 8.0 and newer;
//             elsewhere the same kernel with its warp-level instructions emulated (correct and slow: for tests and
//             oclgrind, never ranked there).
//   portable  gemm_mma_portable: any device, elements decoded to float one at a time.
//   via_float half and bfloat16: A and B widened to floats in a workspace (gemm_mma_widen), the product by float
//             gemm with its own tuned choice for the shape, the result narrowed into C (gemm_mma_narrow). No
//             parameters of its own. On devices without tensor cores it brings the float kernels' speed (register
//             blocking, local-memory tiles, the CPU kernel) for the price of two conversions and a float C; beside
//             them, the float kernels' single launch for products too small to fill the tensor cores. A half
//             product with m or n of at most 8 (and k >= 1) runs as gemv<half> instead: its kernels read the matrix
//             in place. TF32: float gemm on the caller's operands (nothing to widen), exact float products.
#pragma once

#include <cstdint>
#include <string>

#include "dtype.hpp"
#include "tilecl/device.hpp"
#include "tuning/variant.hpp"

namespace tilecl::detail::gemm::mma {

enum class Format { F16, BF16, TF32 };

struct FormatInfo {
  Format format;
  const DTypeInfo* dtype;  // the tuning key's dtype: "half", "bfloat16", "tf32"
  const char* macro;       // MMA_TYPE
  std::size_t element_size;
  std::int64_t chunk;  // elements per 16 bytes: what cp.async moves at once, and the alignment it needs
  std::int64_t mma_k;  // K of one mma.sync
};
const FormatInfo& format_info(Format format);
// "half", "bfloat16" or "tf32"; nullptr for anything else.
const FormatInfo* format_named(const std::string& dtype);

struct SyncParams {
  std::int64_t tile_m = 128, tile_n = 128, tile_k = 32, warps_m = 2, warps_n = 4, stages = 3, split_k = 1,
               registers = 0, in_place = 0;
};
struct PortableParams {
  std::int64_t wpt_m = 4, wpt_n = 4, k_step = 4, wg_x = 8, wg_y = 8;
};

struct ViaFloatParams {};

struct Variants {
  VariantDescriptor<SyncParams> sync;
  VariantDescriptor<PortableParams> portable;
  VariantDescriptor<ViaFloatParams> via_float;
  SearchSpace space;
};
const Variants& variants_for(Format format);

// Whether gemm_mma_sync runs its PTX on this device (USE_PTX = 1): an NVIDIA GPU of compute capability 8.0 or newer
// whose compiler has not refused the PTX in this process.
bool uses_ptx(const DeviceInfo& device);
// Records that the device's compiler refused the PTX kernels (reported once); uses_ptx() is false from then on.
void record_ptx_failure(const DeviceInfo& device, const std::string& reason);

// Local memory of a gemm_mma_sync configuration in bytes (the emulation's exchange area included when emulated).
std::uint64_t sync_local_bytes(const SyncParams& p, const FormatInfo& format, bool emulated);

// The macros the problem sets (not a configuration): for the macro contract test.
FamilyMacros mma_family_macros();

}  // namespace tilecl::detail::gemm::mma
