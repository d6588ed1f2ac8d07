#include "ops/gemm/shapes.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "ops/gemm/gemv_variant.hpp"
#include "ops/gemm/variants.hpp"
#include "ops/gemv.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail::gemm {
namespace {

bool is_skinny(const std::string& name) {
  return name == "gemv-rows" || name == "gemv-dots" || name == "skinny-rows" || name == "skinny-dots";
}
bool is_gemv(const std::string& name) { return name == "gemv-rows" || name == "gemv-dots"; }

// log2 of x rounded down to an even number (sizes in steps of a power of four), as a small integer.
std::uint64_t size_bin(std::uint64_t x) {
  std::uint64_t bits = 0;
  while ((x >> (bits + 1)) != 0) ++bits;
  return bits / 2 * 2;
}

// ---- CPUs ---------------------------------------------------------------------------------------------------

// gemm_cpu's K_BLOCK for B read in place: K in blocks between barriers, so that the 8 work-items of a group (PoCL runs
// them one after another between barriers) read each block of their shared columns of B from the L1 cache instead of
// each streaming all of K in turn. It pays where those columns are sparse rows of a wide B and too long to stay in
// L2: PoCL on the 2-core AVX-512 VM (bench/results/pocl-cpu/session11/k-block-calls.txt, through the library):
// 192 x 192 x 8192 11.1 -> 6.1 ms, 64 x 2048 x 4096 33.3 -> 19.0 ms; but 40 x 40 x 20000 (B's rows are dense: one
// group, prefetched streams) 3.1 -> 4.0 ms and 128 x 128 x 2048 1.17 -> 1.32 ms.
constexpr std::int64_t kCpuKBlock = 128;
std::int64_t cpu_k_block(const DTypeInfo& dtype, const KernelProblem& p, std::int64_t wpt_n) {
  const double columns_bytes = static_cast<double>(p.k) * static_cast<double>(wpt_n * dtype.size);
  return columns_bytes >= 0x1p20 && p.n >= 2 * static_cast<std::uint64_t>(wpt_n) ? kCpuKBlock : 0;
}

// Measured with PoCL on AVX-512 (docs/notes/gemm.md): one SIMD register per vector, 6 rows x 4 vectors of
// accumulators where there are 32 vector registers (native float width 16), 6 x 2 where there are 16; B packed into
// k-major panels; a work-group along M so neighbours share a panel in cache. Work-group sizes are fixed, never the
// driver's choice: PoCL compiles a kernel per local size and would pick a new one for many new shapes.
Config cpu_default(const DTypeInfo& dtype, const std::string& category, const DeviceInfo& device) {
  const unsigned native = dtype.size == 8 ? device.native_vector_width_double : device.native_vector_width_float;
  std::int64_t vec = 1;
  while (vec * 2 <= std::min<std::int64_t>(16, native)) vec *= 2;
  const std::int64_t vectors = device.native_vector_width_float >= 16 ? 4 : 2;
  auto cpu_config = [vec](std::int64_t wpt_m, std::int64_t wpt_n, std::int64_t packed, std::int64_t wg_x,
                          std::int64_t wg_y, std::int64_t k_block = 0) {
    return Config{"cpu",
                  {{"WPT_M", wpt_m},
                   {"WPT_N", wpt_n},
                   {"VEC", vec},
                   {"USE_PACKED_B", packed},
                   {"K_BLOCK", k_block},
                   {"WG_X", wg_x},
                   {"WG_Y", wg_y}}};
  };
  if (category == "small") return cpu_config(4, 2 * vec, 0, 1, 8);  // one launch: packing costs as much as the product
  // Memory-bound shapes read the large operand once, in place: rows of B (WPT_M covers the few rows of C) ...
  if (category == "gemv-rows") return cpu_config(1, vectors * vec, 0, 8, 1);
  if (category == "skinny-rows") return cpu_config(8, vectors * vec, 0, 8, 1);
  // ... or rows of A: dot products for a single column (4 rows per work-item, 8 work-items per row), and broadcast
  // scalars of A against one vector of B columns for a few columns.
  if (category == "gemv-dots")
    return {"skinny_n", {{"WPT_M", 4}, {"WPT_N", 1}, {"VEC", vec}, {"WG_X", 8}, {"WG_Y", 1}, {"SPLIT", 1}}};
  if (category == "skinny-dots") return cpu_config(8, vec, 0, 1, 8);
  // Few rows or columns of C against a long K: packing B costs more than its reuse saves. B is read in place; K in
  // blocks or not by the call's shape (cpu_k_block, in ranked_configs).
  if (category == "deep") return cpu_config(6, vectors * vec, 0, 1, 8);
  return cpu_config(6, vectors * vec, 1, 1, 8);
}

// ---- GPUs: skinny kernels -----------------------------------------------------------------------------------

// The smallest power-of-two number of K slices (at most 16) that gives `groups` work-groups at least `target`.
std::int64_t split_for(std::uint64_t groups, std::uint64_t target) {
  std::int64_t split = 1;
  while (split < 16 && groups * static_cast<std::uint64_t>(split) < target) split *= 2;
  return split;
}

std::vector<Config> skinny_configs(const DTypeInfo& dtype, const std::string& category, const KernelProblem& p,
                                   const DeviceInfo& device) {
  const std::int64_t wide = std::max<std::int64_t>(1, 16 / static_cast<std::int64_t>(dtype.size));
  const std::uint64_t units = std::max(1u, device.compute_units);
  const std::uint64_t narrow = std::min(p.m, p.n), wide_side = std::max(p.m, p.n);
  if (category == "gemv-rows" || category == "skinny-rows") {
    const std::int64_t rows = category == "gemv-rows" ? 1 : 4, wg_x = category == "gemv-rows" ? 64 : 32;
    const std::uint64_t groups = ceil_div(wide_side, wg_x * wide) * ceil_div(narrow, rows);
    return {{"skinny_m",
             {{"WPT_M", rows},
              {"VEC", wide},
              {"WG_X", wg_x},
              {"WG_Y", 256 / wg_x},
              {"SPLIT", split_for(groups, 4 * units)}}},
            {"skinny_m", {{"WPT_M", rows}, {"VEC", 1}, {"WG_X", 16}, {"WG_Y", 4}, {"SPLIT", 1}}}};
  }
  const std::int64_t rows = category == "gemv-dots" ? 2 : 1, cols = category == "gemv-dots" ? 1 : 4;
  const std::int64_t wg_y = category == "gemv-dots" ? 4 : 8;
  const std::uint64_t groups = ceil_div(wide_side, wg_y * rows) * ceil_div(narrow, cols);
  return {{"skinny_n",
           {{"WPT_M", rows},
            {"WPT_N", cols},
            {"VEC", wide},
            {"WG_X", 32},
            {"WG_Y", wg_y},
            {"SPLIT", split_for(groups, 2 * units)}}},
          {"skinny_n", {{"WPT_M", 1}, {"WPT_N", 1}, {"VEC", 1}, {"WG_X", 16}, {"WG_Y", 4}, {"SPLIT", 1}}}};
}

// ---- GPUs: the register-blocked kernel, ranked by a model ---------------------------------------------------

// A tiling of gemm_regblock and what it sustains: `resident` work-groups per compute unit at full speed, and
// `efficiency`, the share of the best tiling's rate per compute unit once that many are resident. Measured on an
// H200 (docs/notes/gemm.md); on another GPU the ranking, not the absolute figures, is what counts.
struct Tiling {
  std::int64_t tile_m, tile_n, wpt_m, wpt_n, double_buffer;
  double resident, efficiency;
};
const std::vector<Tiling>& tilings() {
  static const std::vector<Tiling> all{{128, 128, 8, 8, 0, 1, 1.00}, {128, 64, 8, 8, 0, 2, 0.90},
                                       {64, 128, 8, 8, 0, 2, 0.90},  {64, 64, 8, 8, 0, 4, 0.80},
                                       {64, 64, 4, 4, 1, 3, 0.70},   {32, 64, 4, 4, 0, 6, 0.62},
                                       {64, 32, 4, 4, 0, 6, 0.62},   {32, 32, 4, 4, 0, 10, 0.45}};
  return all;
}

Config regblock_config(const Tiling& t, std::int64_t vec, std::int64_t split) {
  return {"regblock",
          {{"TILE_M", t.tile_m},
           {"TILE_N", t.tile_n},
           {"TILE_K", 16},
           {"WPT_M", t.wpt_m},
           {"WPT_N", t.wpt_n},
           {"VEC", vec},
           {"PAD", 0},
           {"USE_DOUBLE_BUFFER", t.double_buffer},
           {"USE_PREFETCH", 1 - t.double_buffer},
           {"WARP_N", 0},
           {"SPLIT", split},
           {"PACK", 0}}};
}

// Model time (arbitrary units) of a tiling with `split` K slices: each compute unit runs its share of the
// work-groups, at full rate once `resident` are there and slower when fewer are (latency no longer hidden);
// split-K adds the reduction of the slices.
double model_time(const Tiling& t, std::int64_t split, const KernelProblem& p, std::uint64_t units) {
  const double tiles = static_cast<double>(ceil_div(p.m, t.tile_m) * ceil_div(p.n, t.tile_n));
  const double groups = tiles * static_cast<double>(split);
  const double per_unit = std::ceil(groups / static_cast<double>(units));
  const double k_slice = std::ceil(static_cast<double>(p.k) / static_cast<double>(split) / 16.0) * 16.0;
  const double fill = std::min(1.0, per_unit / t.resident);
  const double compute =
      per_unit * static_cast<double>(t.tile_m * t.tile_n) * k_slice / (t.efficiency * std::sqrt(fill));
  // The reduction reads every slice's partial C and writes C (bytes, in the same units at ~25 bytes per FMA slot).
  const double reduce = split > 1 ? 4e4 + static_cast<double>(p.m * p.n) * static_cast<double>(split + 1) * 64.0 /
                                              static_cast<double>(units)
                                  : 0;
  return compute + reduce + 2e4 * (split > 1 ? 2 : 1);
}

std::vector<Config> regblock_ranked(const DTypeInfo& dtype, const KernelProblem& p, const DeviceInfo& device) {
  const std::int64_t vec = std::max<std::int64_t>(1, 16 / static_cast<std::int64_t>(dtype.size));
  const std::uint64_t units = std::max(1u, device.compute_units);
  const SearchSpace& space = variants_for(dtype).space;
  std::vector<std::pair<double, Config>> scored;
  for (const Tiling& t : tilings()) {
    for (std::int64_t split : {1, 2, 4, 8, 16}) {
      if (split > 1 && p.k / static_cast<std::uint64_t>(split) < 256) break;
      Config config = regblock_config(t, vec, split);
      if (!space.validate(config, device).empty()) continue;
      scored.emplace_back(model_time(t, split, p, units), std::move(config));
    }
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Config> ranked;
  ranked.reserve(scored.size());
  for (auto& [time, config] : scored) ranked.push_back(std::move(config));
  return ranked;
}

}  // namespace

const std::vector<Category>& categories() {
  static const std::vector<Category> table{
      {"small", 127, 127, 127},        {"gemv-rows", 1, 4096, 4096},    {"gemv-dots", 4096, 1, 4096},
      {"skinny-rows", 16, 4096, 4096}, {"skinny-dots", 4096, 16, 4096}, {"shallow", 8192, 8192, 64},
      {"deep", 8192, 64, 8192},        {"medium", 1024, 1024, 1024},    {"large", 4096, 4096, 4096}};
  return table;
}

const Category& category_named(const std::string& name) {
  for (const auto& category : categories())
    if (name == category.name) return category;
  throw Error(kOp, "bucket", CL_INVALID_VALUE, "no shape category named '" + name + "'");
}

const Category& category_of(const KernelProblem& p) {
  const double m = static_cast<double>(p.m), n = static_cast<double>(p.n), k = static_cast<double>(p.k);
  if (m * n * k < 0x1p21) return category_named("small");
  const std::uint64_t narrow = std::min(p.m, p.n);
  if (narrow <= 32) {
    // The large operand is B when m is the small side, else A; "rows" when it is contiguous along the long side of
    // C (B not transposed, or A transposed).
    const bool rows = p.m <= p.n ? !p.trans_b : p.trans_a;
    if (narrow <= kMaxGemvVectors) return category_named(rows ? "gemv-rows" : "gemv-dots");
    return category_named(rows ? "skinny-rows" : "skinny-dots");
  }
  if (p.k <= 256 && m * n >= 0x1p24) return category_named("shallow");
  if (m * n <= 0x1p20 && p.k >= 2048) return category_named("deep");
  return category_named(m * n * k < 0x1p33 ? "medium" : "large");
}

namespace {

// A small product that the gemv variant can run (m or n of 1..8): its own class, since the size bins put 8 and 9..15
// in one bin and a gemv choice cannot serve a call with both sides above 8.
// `category` is category_of(p), which the callers have already.
bool small_gemv_capable(const Category& category, const KernelProblem& p) {
  static const Category& small = category_named("small");
  return &category == &small && std::min(p.m, p.n) <= kMaxGemvVectors;
}

}  // namespace

std::uint64_t class_code(const KernelProblem& p) {
  const Category& category = category_of(p);
  const auto index = static_cast<std::uint64_t>(&category - categories().data());
  return index | size_bin(p.m) << 4 | size_bin(p.n) << 10 | size_bin(p.k) << 16 |
         static_cast<std::uint64_t>(p.trans_a) << 22 | static_cast<std::uint64_t>(p.trans_b) << 23 |
         static_cast<std::uint64_t>(small_gemv_capable(category, p)) << 30;  // bits 24-29: gemm_mma's packing
}

std::string class_name(const KernelProblem& p) {
  const Category& category = category_of(p);
  return std::string(category.name) + (small_gemv_capable(category, p) ? "-narrow" : "") + ":m" +
         std::to_string(size_bin(p.m)) + "n" + std::to_string(size_bin(p.n)) + "k" + std::to_string(size_bin(p.k)) +
         ":" + (p.trans_a ? "T" : "N") + (p.trans_b ? "T" : "N");
}

namespace {

// The gemv variant first where it applies: it reads the large operand once, at memory bandwidth, for all 1..8
// vectors; the skinny and CPU kernels read it once per row or column block of C. On GPUs and CPUs alike: under
// PoCL on this project's 2-core CPU, gemm with k = 4096 and m = 1 / 2 / 4 / 8 took 3.7 / 4.7 / 3.9 / 4.5 ms
// through it against 3.9 / 6.4 / 13.5 / 26.6 ms with the CPU default, and with n = 1 / 4 / 8 2.7 / 3.4 / 3.7 ms
// against 4.7 / 19.9 / 50.9 ms with the skinny kernel (bench/experiments/explore_overrides.cpp gemv_cpu,
// 2026-12-02). First-use tuning times the others after it at the call's shape.
// Small products (under 2^21 multiply-adds) with m or n of 1..8 get it too, first on CPUs and second on GPUs: their K
// is often long, which the small kernels walk in one chain per output. In one launch (SPLIT 1: no K slices and no
// launch to add them up, which costs more than it saves at these sizes). PoCL (session 20, seed-26 sweep shapes, 20
// calls back to back): 167x5x848 0.484 ms with the CPU kernel against 0.026 through gemv, 3x295x189:NT:col 0.140
// (naive) against 0.037, 79x3x556:TT 0.149 against 0.034, 4x113x578:NT:col 0.179 against 0.058, 6x1060x19:TN:col
// 0.058 against 0.024 (with K in 4 or 8 slices 0.037-0.101); 241x1x968:NT:col went the other way (0.034 against
// 0.068), which first use times.
void add_gemv_candidate(const DTypeInfo& dtype, const KernelProblem& p, const DeviceInfo& device,
                        std::vector<Config>& ranked) {
  const Category& category = category_of(p);
  if (is_gemv(category.name)) {
    ranked.insert(ranked.begin(), gemv_default(dtype, p, device));
  } else if (small_gemv_capable(category, p) && p.k > 0) {
    const bool cpu = device.is_cpu() || !device.local_memory_is_dedicated;
    Config one_launch = gemv_default(dtype, p, device);
    one_launch.values["SPLIT"] = 1;
    // Not where x must be packed first (a second launch) and the product is tiny: that launch costs PoCL 15-30 us of
    // wall time, which first-use tuning, timing the kernels' span on the device, does not see (59x1x32:TN:row with
    // padded leading dimensions: 0.023 ms with the CPU kernel, 0.055 through gemv). From 2^15 multiply-adds the gemv
    // kernels win with it (167x5x848, x strided by 5: 0.026-0.077 ms against 0.34-0.48).
    if (gemv_launches(*gemv_problem(p), one_launch, device) == 1 ||
        static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k) >= 0x1p15)
      ranked.insert(cpu || ranked.empty() ? ranked.begin() : ranked.begin() + 1, std::move(one_launch));
  }
}

// CPUs: the category's default; for deep shapes K in blocks or not, by the shape, then the other form, then packed
// panels, which won where C is larger (500 x 300 x 3000: 9.2 ms against 11.7 in place; 64 x 2048 x 4096: 22.2
// against 19.0).
// Small and skinny products whose C has 9..16 columns (row-major) against a default block of 32 or 64: a block of
// 16 columns in two vectors of 8, 4 rows and 8 work-items down M, first. PoCL (session 20, seed-27 shapes, 20 calls
// back to back): 30x13x211 0.030 ms -> 0.015, 75x11x495:TT 0.124 -> 0.069, 12x184x89:TT:col 0.062 -> 0.032,
// 354x16x664:TT (skinny-rows, 8 x 64 blocks) 0.82 -> 0.24.
std::optional<Config> cpu_narrow_n(const Config& first, const KernelProblem& p) {
  if (first.variant != "cpu" || p.n > 16 || p.n <= kMaxGemvVectors || first.value("WPT_N") <= 16) return std::nullopt;
  Config narrow = first;
  narrow.values = {{"WPT_M", 4},        {"WPT_N", 16},  {"VEC", std::min<std::int64_t>(8, first.value("VEC"))},
                   {"USE_PACKED_B", 0}, {"K_BLOCK", 0}, {"WG_X", 1},
                   {"WG_Y", 8}};
  return narrow;
}

std::vector<Config> cpu_ranked(const DTypeInfo& dtype, const std::string& category, const KernelProblem& p,
                               const DeviceInfo& device) {
  Config first = cpu_default(dtype, category, device);
  if (const std::optional<Config> narrow = cpu_narrow_n(first, p)) return {*narrow, first};  // never deep: n <= 16
  if (category != "deep") return {first};
  Config other = first, packed = first;
  first.values["K_BLOCK"] = cpu_k_block(dtype, p, first.value("WPT_N"));
  other.values["K_BLOCK"] = first.value("K_BLOCK") == 0 ? kCpuKBlock : 0;
  packed.values["USE_PACKED_B"] = 1;
  return {first, other, packed};
}

// `first` and `second` taken in turns, starting with first.
std::vector<Config> alternating(std::vector<Config> first, std::vector<Config> second) {
  std::vector<Config> merged;
  for (std::size_t i = 0; i < std::max(first.size(), second.size()); ++i) {
    if (i < first.size()) merged.push_back(std::move(first[i]));
    if (i < second.size()) merged.push_back(std::move(second[i]));
  }
  return merged;
}

// GPUs: the register-blocked kernel's tilings as the model ranks them; for skinny classes with the skinny kernels.
// 9..32 rows or columns: the model's best tiling first, then the two lists alternate (first use times the same four
// as before session 15, in another order). In the sweeps' first-use timings of such shapes (H200 seeds 1-3, H100
// seed 13) the tiled kernel in K slices won 5 of 7 (302x13x1070, 12x325x1003, 2825x21x1981, 4023x15x2592,
// 31x3116x5387; the skinny kernels 56x14x4934 and 176x25x1617), and the skinny default, which is what
// TILECL_TUNE=off runs, took 0.86 ms against 0.07 at 2750x26x4733 on an H100 (session 13, run 1). 1..8: the skinny
// kernels first (after the gemv variant, added by the caller).
std::vector<Config> gpu_ranked(const DTypeInfo& dtype, const std::string& category, const KernelProblem& p,
                               const DeviceInfo& device) {
  std::vector<Config> regblock = regblock_ranked(dtype, p, device);
  std::vector<Config> ranked;
  if (is_skinny(category)) {
    std::vector<Config> skinny = skinny_configs(dtype, category, p, device);
    if (is_gemv(category)) {
      ranked = std::move(skinny);
      for (auto& config : regblock) ranked.push_back(std::move(config));
    } else {
      ranked = alternating(std::move(regblock), std::move(skinny));
    }
  } else {
    ranked = std::move(regblock);
  }
  if (category == "small")
    ranked.insert(ranked.begin() + (ranked.empty() ? 0 : 1), {"tiled", {{"TILE", 16}, {"PAD", 1}}});
  return ranked;
}

}  // namespace

std::vector<Config> ranked_configs(const DTypeInfo& dtype, const KernelProblem& p, const DeviceInfo& device) {
  const std::string category = category_of(p).name;
  const SearchSpace& space = variants_for(dtype).space;
  const bool cpu = device.is_cpu() || !device.local_memory_is_dedicated;
  std::vector<Config> ranked = cpu ? cpu_ranked(dtype, category, p, device) : gpu_ranked(dtype, category, p, device);
  add_gemv_candidate(dtype, p, device, ranked);
  ranked.push_back({"tiled", {{"TILE", 8}, {"PAD", 1}}});
  ranked.push_back({"naive", {{"WG_X", 8}, {"WG_Y", 8}}});
  std::vector<Config> valid;
  for (auto& config : ranked)
    if (space.validate(config, device).empty() && std::find(valid.begin(), valid.end(), config) == valid.end())
      valid.push_back(std::move(config));
  return valid;
}

const SearchSpace& tuning_space(const DTypeInfo& dtype, const std::string& category) {
  const Variants& v = variants_for(dtype);
  return is_gemv(category) ? v.space : v.matrix_space;
}

Config default_config(const DTypeInfo& dtype, const KernelProblem& p, const DeviceInfo& device) {
  return ranked_configs(dtype, p, device).front();
}

}  // namespace tilecl::detail::gemm
