#include "ops/gemm/variants.hpp"

#include <algorithm>

#include "ops/gemv.hpp"
#include "ops/gemv_tuning.hpp"
#include "tuning/constraints.hpp"

namespace tilecl::detail::gemm {
namespace {

namespace c = constraints;
const std::vector<std::int64_t> kVectorWidths{1, 2, 4, 8, 16};

// Build parameters are declared in the order a search should vary them (the first turns fastest). The candidates
// are what is worth timing (an H200 sweep: 32-wide tiles, TILE_K 8, VEC 8 and 2 x 2 per work-item lost everywhere,
// WARP_N 8 gained nothing); other values within the ranges stay valid for overrides and tests.
VariantDescriptor<RegblockParams> regblock_variant(std::size_t element_size) {
  using F = VariantDescriptor<RegblockParams>::Field;
  using P = RegblockParams;
  const auto build = ParameterKind::Build, launch = ParameterKind::Launch;
  return {
      "regblock",
      "gemm_regblock",
      {F{"PAD", &P::pad, build, {0, 1}, 0, 64}, F{"USE_PREFETCH", &P::prefetch, build, {1, 0}, 0, 1},
       F{"USE_DOUBLE_BUFFER", &P::double_buffer, build, {0, 1}, 0, 1}, F{"TILE_K", &P::tile_k, build, {16, 32}, 1, 64},
       F{"WARP_N", &P::warp_n, build, {0}, 0, 16}, F{"VEC", &P::vec, build, {4, 2, 1}, 1, 16},
       F{"WPT_N", &P::wpt_n, build, {8, 4}, 1, 16}, F{"WPT_M", &P::wpt_m, build, {8, 4}, 1, 16},
       F{"TILE_N", &P::tile_n, build, {128, 64, 32}, 1, 256}, F{"TILE_M", &P::tile_m, build, {128, 64, 32}, 1, 256},
       F{"SPLIT", &P::split, launch, {1, 2, 4, 8, 16}, 1, 64}, F{"PACK", &P::pack, launch, {0}, 0, 1}},
      {c::one_of("VEC", kVectorWidths), c::multiple_of("TILE_M", {"WPT_M"}), c::multiple_of("TILE_N", {"WPT_N"}),
       c::multiple_of("WPT_M", {"VEC"}), c::multiple_of("WPT_N", {"VEC"}), c::multiple_of("TILE_K", {"VEC"}),
       c::product_at_most({"WPT_M", "WPT_N"}, 128, "accumulators per work-item"),
       c::derived("the work-group (TILE_N / WPT_N) x (TILE_M / WPT_M) fits the device",
                  [](const Values& v, const DeviceInfo& d) {
                    const auto x = static_cast<std::uint64_t>(at(v, "TILE_N") / at(v, "WPT_N"));
                    const auto y = static_cast<std::uint64_t>(at(v, "TILE_M") / at(v, "WPT_M"));
                    return x <= d.max_work_item_sizes[0] && y <= d.max_work_item_sizes[1] &&
                           x * y <= d.max_work_group_size;
                  }),
       c::derived("TILE_M * TILE_K and TILE_N * TILE_K are multiples of VEC * work-group size (whole vector loads), "
                  "at most 32 vectors per work-item",
                  [](const Values& v, const DeviceInfo&) {
                    const auto threads = (at(v, "TILE_N") / at(v, "WPT_N")) * (at(v, "TILE_M") / at(v, "WPT_M"));
                    const auto per_step = at(v, "VEC") * threads;
                    const auto a = at(v, "TILE_M") * at(v, "TILE_K"), b = at(v, "TILE_N") * at(v, "TILE_K");
                    return a % per_step == 0 && b % per_step == 0 && a / per_step <= 32 && b / per_step <= 32;
                  }),
       c::not_both("USE_DOUBLE_BUFFER", "USE_PREFETCH"),
       c::local_memory_fits("(1 + USE_DOUBLE_BUFFER) * TILE_K * (TILE_M + TILE_N + 2 * PAD rounded up to VEC) "
                            "elements",
                            [element_size](const Values& v) {
                              RegblockParams p;
                              p.tile_m = at(v, "TILE_M"), p.tile_n = at(v, "TILE_N"), p.tile_k = at(v, "TILE_K");
                              p.vec = at(v, "VEC"), p.pad = at(v, "PAD");
                              p.double_buffer = at(v, "USE_DOUBLE_BUFFER");
                              return regblock_local_bytes(p, element_size);
                            }),
       c::derived("WARP_N in {0, 4, 8, 16}; if set, 32 % WARP_N == 0, (TILE_N / WPT_N) % WARP_N == 0, (TILE_M / "
                  "WPT_M) % (32 / WARP_N) == 0 and the work-group is a multiple of 32",
                  [](const Values& v, const DeviceInfo&) {
                    const auto warp_n = at(v, "WARP_N");
                    if (warp_n == 0) return true;
                    if (warp_n != 4 && warp_n != 8 && warp_n != 16) return false;
                    const auto x = at(v, "TILE_N") / at(v, "WPT_N"), y = at(v, "TILE_M") / at(v, "WPT_M");
                    return x % warp_n == 0 && y % (32 / warp_n) == 0 && (x * y) % 32 == 0;
                  })}};
}

VariantDescriptor<TiledParams> tiled_variant(std::size_t element_size) {
  using F = VariantDescriptor<TiledParams>::Field;
  return {"tiled",
          "gemm_tiled",
          {F{"PAD", &TiledParams::pad, ParameterKind::Build, {1, 0}, 0, 64},
           F{"TILE", &TiledParams::tile, ParameterKind::Build, {16, 8, 32}, 1, 32}},
          {c::work_group_fits("TILE", "TILE", false),
           c::local_memory_fits("2 * TILE * (TILE + PAD) elements", [element_size](const Values& v) {
             const auto tile = static_cast<std::uint64_t>(at(v, "TILE"));
             return 2 * tile * (tile + static_cast<std::uint64_t>(at(v, "PAD"))) * element_size;
           })}};
}

VariantDescriptor<CpuParams> cpu_variant() {
  using F = VariantDescriptor<CpuParams>::Field;
  using P = CpuParams;
  return {"cpu",
          "gemm_cpu",
          {F{"K_BLOCK", &P::k_block, ParameterKind::Build, {0, 128, 64, 256}, 0, 4096},
           F{"USE_PACKED_B", &P::packed_b, ParameterKind::Build, {1, 0}, 0, 1},
           F{"WPT_N", &P::wpt_n, ParameterKind::Build, {64, 32, 16}, 1, 128},
           F{"WPT_M", &P::wpt_m, ParameterKind::Build, {6, 4, 8, 1}, 1, 16},
           F{"VEC", &P::vec, ParameterKind::Build, {16, 8, 4}, 1, 16},
           F{"WG_X", &P::wg_x, ParameterKind::Launch, {1, 8}, 0, 1024},
           F{"WG_Y", &P::wg_y, ParameterKind::Launch, {8, 1, 16}, 0, 1024}},
          {c::one_of("VEC", kVectorWidths), c::multiple_of("WPT_N", {"VEC"}),
           c::product_at_most({"WPT_M", "WPT_N"}, 512, "accumulators per work-item"),
           c::work_group_fits("WG_X", "WG_Y", true)}};
}

VariantDescriptor<SkinnyParams> skinny_variant(bool small_m, std::size_t element_size) {
  using F = VariantDescriptor<SkinnyParams>::Field;
  using P = SkinnyParams;
  std::vector<F> fields{F{"WPT_M", &P::wpt_m, ParameterKind::Build, {1, 2, 4, 8}, 1, 16}};
  if (!small_m) fields.push_back(F{"WPT_N", &P::wpt_n, ParameterKind::Build, {1, 2, 4, 8}, 1, 16});
  fields.push_back(F{"VEC", &P::vec, ParameterKind::Build, {4, 2, 1}, 1, 16});
  fields.push_back(F{"WG_Y", &P::wg_y, ParameterKind::Build, {8, 4, 1}, 1, 1024});
  fields.push_back(F{"WG_X", &P::wg_x, ParameterKind::Build, {32, 64, 8}, 1, 1024});
  fields.push_back(F{"SPLIT", &P::split, ParameterKind::Launch, {1, 2, 4, 8, 16}, 1, 64});
  std::vector<Constraint> rules{c::one_of("VEC", kVectorWidths), c::work_group_fits("WG_X", "WG_Y", false)};
  // On CPUs PoCL keeps every work-item's accumulators across the kernel's barriers in one array on a worker thread's
  // stack: WPT_M * WPT_N * VEC of them per work-item. 4 MiB (WG_X 1024, WPT 16 x 4, VEC 16) crashed the process
  // (CI seed 4053305191, tuning.space_properties); 1 MiB is kept as the bound.
  std::vector<std::string> per_group{"WG_X", "WG_Y", "WPT_M", "VEC"};
  if (!small_m) per_group.push_back("WPT_N");
  rules.push_back(c::derived("on CPUs, WG_X * WG_Y * WPT_M" + std::string(small_m ? "" : " * WPT_N") +
                                 " * VEC accumulators per work-group within 1 MiB",
                             [per_group, element_size](const Values& v, const DeviceInfo& d) {
                               if (!d.is_cpu() && d.local_memory_is_dedicated) return true;
                               return static_cast<std::uint64_t>(c::product(v, per_group)) * element_size <=
                                      (std::uint64_t{1} << 20);
                             }));
  if (small_m) {
    rules.push_back(c::local_memory_fits("WG_X * WG_Y * VEC elements", [element_size](const Values& v) {
      return static_cast<std::uint64_t>(c::product(v, {"WG_X", "WG_Y", "VEC"})) * element_size;
    }));
  } else {
    rules.push_back(c::product_at_most({"WPT_M", "WPT_N"}, 64, "outputs per work-item"));
    rules.push_back(c::local_memory_fits("WG_X * WG_Y elements", [element_size](const Values& v) {
      return static_cast<std::uint64_t>(c::product(v, {"WG_X", "WG_Y"})) * element_size;
    }));
  }
  return {small_m ? "skinny_m" : "skinny_n", small_m ? "gemm_skinny_m" : "gemm_skinny_n", fields, rules};
}

VariantDescriptor<NaiveParams> naive_variant() {
  using F = VariantDescriptor<NaiveParams>::Field;
  return {"naive",
          "gemm_naive",
          {F{"WG_X", &NaiveParams::wg_x, ParameterKind::Launch, {16, 32, 8}, 0, 1024},
           F{"WG_Y", &NaiveParams::wg_y, ParameterKind::Launch, {16, 8, 4, 1}, 0, 1024}},
          {c::work_group_fits("WG_X", "WG_Y", true)}};
}

// gemv.cl's parameters and rules (ops/gemv_tuning.cpp); fewer candidates than gemv's own space, so a full search
// of a gemv category stays walkable beside the skinny kernels.
VariantDescriptor<GemvParams> gemv_variant(std::size_t element_size) {
  using F = VariantDescriptor<GemvParams>::Field;
  using P = GemvParams;
  const auto build = ParameterKind::Build;
  return {"gemv",
          "gemv_dots",
          {F{"UNROLL", &P::unroll, build, {4, 8, 1}, 1, 16}, F{"WPT", &P::wpt, build, {1, 2, 4}, 1, 16},
           F{"VEC", &P::vec, build, {4, 1, 8}, 1, 16}, F{"WG_Y", &P::wg_y, build, {8, 1, 32}, 1, 1024},
           F{"WG_X", &P::wg_x, build, {32, 1, 8}, 1, 1024},
           F{"SPLIT", &P::split, ParameterKind::Launch, {16, 4, 1}, 1, 64}},
          gemv_constraints(element_size)};
}

Variants make_variants(std::size_t element_size) {
  Variants v{regblock_variant(element_size),
             tiled_variant(element_size),
             cpu_variant(),
             skinny_variant(true, element_size),
             skinny_variant(false, element_size),
             naive_variant(),
             gemv_variant(element_size),
             {},
             {}};
  std::vector<VariantSpace> spaces{v.regblock.space(), v.tiled.space(),    v.cpu.space(),
                                   v.skinny_m.space(), v.skinny_n.space(), v.naive.space()};
  v.matrix_space = SearchSpace(spaces);
  spaces.push_back(v.gemv.space());
  spaces.back().family = "gemv";
  v.space = SearchSpace(spaces);
  return v;
}

}  // namespace

std::uint64_t regblock_local_bytes(const RegblockParams& p, std::size_t element_size) {
  const std::int64_t pad = (p.pad + p.vec - 1) / p.vec * p.vec;
  return static_cast<std::uint64_t>((1 + p.double_buffer) * p.tile_k * (p.tile_m + p.tile_n + 2 * pad)) * element_size;
}

const Variants& variants_for(const DTypeInfo& dtype) {
  static const Variants words = make_variants(4), doubles = make_variants(8);
  return dtype.size == 8 ? doubles : words;
}

const SearchSpace& space_for(const DTypeInfo& dtype, const KernelProblem& problem) {
  const Variants& v = variants_for(dtype);
  return std::min(problem.m, problem.n) <= kMaxGemvVectors ? v.space : v.matrix_space;
}

FamilyMacros gemm_family_macros() {
  const Variants& v = variants_for(dtype_of<float>());
  return {"gemm",
          {macros_of(v.regblock), macros_of(v.tiled), macros_of(v.cpu), macros_of(v.skinny_m), macros_of(v.skinny_n),
           macros_of(v.naive)},
          {"DTYPE", "TRANS_A", "TRANS_B", "TRANS_C", "GEMM_VARIANT", "USE_ALIGNED_A", "USE_ALIGNED_B"}};
}

}  // namespace tilecl::detail::gemm
