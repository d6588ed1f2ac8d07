// gemm's kernel variants, one descriptor each (kernels/gemm.cl documents every macro), and the search space they
// make. Parameter ranges bound the work per item, the registers and the local memory, so every configuration a
// space accepts compiles and runs in bounded time (issue: hostile tuning entries).
#pragma once

#include <cstdint>

#include "dtype.hpp"
#include "ops/gemm/problem.hpp"
#include "tuning/variant.hpp"

namespace tilecl::detail::gemm {

struct RegblockParams {
  std::int64_t tile_m = 64, tile_n = 64, tile_k = 16, wpt_m = 4, wpt_n = 4, vec = 4, pad = 0, double_buffer = 1,
               prefetch = 0, warp_n = 0, split = 1, pack = 0;
};
struct TiledParams {
  std::int64_t tile = 16, pad = 1;
};
struct CpuParams {
  std::int64_t wpt_m = 4, wpt_n = 16, vec = 8, packed_b = 0, k_block = 0, wg_x = 1, wg_y = 8;
};
struct SkinnyParams {  // skinny_m ignores wpt_n
  std::int64_t wpt_m = 1, wpt_n = 1, vec = 4, wg_x = 32, wg_y = 8, split = 1;
};
struct GemvParams {  // the gemv kernels (kernels/gemv.cl) for calls with m or n of 1..8
  std::int64_t vec = 4, wpt = 1, wg_x = 32, wg_y = 8, unroll = 4, split = 16;
};
struct NaiveParams {
  std::int64_t wg_x = 16, wg_y = 16;
};

struct Variants {
  VariantDescriptor<RegblockParams> regblock;
  VariantDescriptor<TiledParams> tiled;
  VariantDescriptor<CpuParams> cpu;
  VariantDescriptor<SkinnyParams> skinny_m, skinny_n;
  VariantDescriptor<NaiveParams> naive;
  VariantDescriptor<GemvParams> gemv;  // builds from the gemv family, takes m or n <= kMaxGemvVectors only
  SearchSpace space;                   // every variant
  SearchSpace matrix_space;            // every variant but gemv: calls with m and n above kMaxGemvVectors
};

// Built once per element size (local-memory constraints depend on it).
const Variants& variants_for(const DTypeInfo& dtype);

// What an explicit configuration of this call must meet: `space`, or `matrix_space` when m and n are both above
// kMaxGemvVectors (the gemv variant cannot run the call).
const SearchSpace& space_for(const DTypeInfo& dtype, const KernelProblem& problem);

// The macros the problem sets (not a configuration): for the macro contract test.
FamilyMacros gemm_family_macros();

// Local memory of a regblock configuration, in bytes.
std::uint64_t regblock_local_bytes(const RegblockParams& p, std::size_t element_size);

}  // namespace tilecl::detail::gemm
