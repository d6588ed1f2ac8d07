#include "ops/gemm/mma_shapes.hpp"

#include <algorithm>
#include <cmath>

#include "checks.hpp"
#include "ops/gemm/mma_plan.hpp"
#include "ops/gemv.hpp"

namespace tilecl::detail::gemm::mma {
namespace {

// A tiling of gemm_mma_sync and what it is expected to sustain: `resident` work-groups per compute unit (registers
// and 48 KiB of local memory each), and `efficiency`, the share of the best tiling's rate per compute unit once that
// many are resident. TILE_K is 32 (16-bit) or 16 (tf32): each stage then holds 32 bytes of K per row. Efficiencies
// from the H200 at 4096^3 (bench/results/nvidia-h200/gemm-mma/probe-4096.txt, half / bf16 / tf32 alike): 128 x 128
// with 2 x 2 warps (64 x 64 per warp) 250-258 TFLOP/s, 128 x 256 231-234, 256 x 128 212, 64 x 128 185, 128 x 128 with
// 2 x 4 warps 174. The three smallest are for products with fewer 64 x 64 tiles than compute units: more
// work-groups, each a shorter share of the product. H100, half, 20 back-to-back calls
// (bench/results/nvidia-h100/session13/run1/mma-small.jsonl): 32 x 32 with 2 x 2 warps against 64 x 64 with 2 x 2
// 2750 x 26 x 4733 0.091 / 0.097 ms, 2039 x 13 x 4916 0.078 / 0.081, 45 x 224 x 2342 0.022 / 0.024, 126 x 88 x 511
// 0.017 / 0.021, 128 x 120 x 85 0.0088 / 0.0099, and even at 725 x 442 x 102 and 3420 x 416 x 19; 64 x 32 and 32 x 64
// in between (32 x 32 with one warp: slower than 64 x 64). Their efficiencies are set so that they rank first only
// where 64 x 64 tiles leave compute units idle; first-use tuning times them beside the larger tilings.
struct Tiling {
  std::int64_t tile_m, tile_n, warps_m, warps_n, stages, registers;
  double resident, efficiency;
};
const std::vector<Tiling>& tilings() {
  static const std::vector<Tiling> all{{128, 128, 2, 2, 3, 0, 2, 1.00}, {128, 256, 2, 4, 2, 0, 1, 0.92},
                                       {256, 128, 4, 2, 2, 0, 1, 0.84}, {64, 128, 2, 2, 4, 0, 3, 0.74},
                                       {128, 64, 2, 2, 4, 0, 3, 0.74},  {128, 128, 2, 4, 3, 0, 2, 0.69},
                                       {64, 64, 2, 2, 4, 0, 4, 0.60},   {64, 32, 2, 1, 4, 0, 6, 0.45},
                                       {32, 64, 1, 2, 4, 0, 6, 0.45},   {32, 32, 2, 2, 4, 0, 8, 0.35}};
  return all;
}

Config sync_config(const FormatInfo& format, const Tiling& t) {
  return {"mma",
          {{"TILE_M", t.tile_m},
           {"TILE_N", t.tile_n},
           {"TILE_K", format.format == Format::TF32 ? 16 : 32},
           {"WARPS_M", t.warps_m},
           {"WARPS_N", t.warps_n},
           {"STAGES", t.stages},
           {"SPLIT_K", 1},
           {"REGISTERS", t.registers},
           {"IN_PLACE", 0}}};
}

// Model time (arbitrary units): the compute units share the tiles; one with fewer than `resident` of them runs
// slower (latency no longer hidden). The tilings' efficiencies are rates along a long K; with a short K a work-group's
// time is more its pipeline's filling and its stores of C, which the large tiles do no faster, so the differences
// shrink in proportion below kLongK (H100, half, bench/results/nvidia-h100/session17/run2: 3511 x 4247 x 245 took
// 0.33 ms with 128 x 128 tiles and 0.23 with 64 x 64; 172 x 3699 x 71 0.053 and 0.034 with 32 x 32).
constexpr double kLongK = 1024;
double model_time(const Tiling& t, const KernelProblem& p, std::uint64_t units) {
  const double tiles = static_cast<double>(ceil_div(p.m, t.tile_m) * ceil_div(p.n, t.tile_n));
  const double per_unit = std::ceil(tiles / static_cast<double>(units));
  const double fill = std::min(1.0, per_unit / t.resident);
  const double efficiency = 1.0 - (1.0 - t.efficiency) * std::min(1.0, static_cast<double>(p.k) / kLongK);
  return per_unit * static_cast<double>(t.tile_m * t.tile_n) / (efficiency * std::sqrt(fill));
}

// K shares (SPLIT_K) for the model's best tiling when its tiles leave compute units idle: the smallest power of two
// (at most 16) that makes `groups` work-groups, while every share keeps at least 4 K tiles; 1 when none is worth it.
// Each work-group of the tensor-core kernel otherwise walks the whole K: 2750 x 26 x 4733 half ran 148 steps of 32 on
// 86 work-groups, 1.5x float gemm's time, whose skinny kernels split K (H100, bench/results/nvidia-h100/session13).
// Packed operands (16-byte copies) want a work-group per compute unit; operands read in place (IN_PLACE: element
// loads into registers, a K tile ahead) three, to hide the loads' latency (kInPlaceGroupsPerUnit).
std::int64_t k_shares_for(const Config& tiling, const KernelProblem& p, std::uint64_t groups) {
  const std::uint64_t tiles = ceil_div(p.m, static_cast<std::uint64_t>(tiling.value("TILE_M"))) *
                              ceil_div(p.n, static_cast<std::uint64_t>(tiling.value("TILE_N")));
  const std::uint64_t k_tiles = ceil_div(p.k, static_cast<std::uint64_t>(tiling.value("TILE_K")));
  std::uint64_t split = 1;
  while (split < 16 && tiles * split < groups && k_tiles / (2 * split) >= 4) split *= 2;
  return static_cast<std::int64_t>(split);
}

// Work-groups per compute unit that the in-place form's K shares aim at. H100, half, the best tiling forced with 1..16
// shares (bench/results/nvidia-h100/session21/run4): 13 x 4996 x 4826:TT (79 tiles of 32 x 64) in place 0.386 /
// 0.191 / 0.109 / 0.078 / 0.108 ms with 1 / 2 / 4 / 8 / 16 shares, packed 0.135-0.161 at best; 110 x 3438 x 5613:NT
// padded (108 tiles of 64 x 64) 0.108 ms with 4 (packed: 0.138 with 2); 12 x 3000 x 3000 padded (94 tiles of 32 x 32)
// 0.029-0.033 with 4-16 (0.040 with 2, first use's choice); 659 x 373 x 2444:NT padded (132 tiles) 0.053 with 4;
// 2039 x 13 x 4916 (64 tiles) 0.030 / 0.029 with 8 / 16. Three per unit gives 8, 4, 8, 4 and 8 there.
constexpr std::uint64_t kInPlaceGroupsPerUnit = 3;

// In place or packed (kInPlaceFirst, kInPlaceBeside): for a small product, every tiling in place and the best one
// packed third (after the best in place and its K shares, or the second tiling); for a mid-size one, the best tiling
// in place, in its own K shares, after the best and its K shares. `ranked` holds the best tiling's packed K shares
// second where it has any (sync_ranked).
void rank_in_place(const FormatInfo& format, const KernelProblem& p, std::uint64_t units, std::vector<Config>& ranked) {
  if (ranked.empty() || packed_operands(format, p) == 0) return;
  const double multiply_adds = static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k);
  if (multiply_adds > kInPlaceBeside) return;
  const std::int64_t shares = k_shares_for(ranked.front(), p, kInPlaceGroupsPerUnit * units);
  const bool packed_shares = ranked.size() > 1 && ranked[1].value("SPLIT_K") > 1;
  Config in_place = ranked.front();
  in_place.values["IN_PLACE"] = 1;
  in_place.values["SPLIT_K"] = shares;
  if (multiply_adds > kInPlaceFirst) {
    ranked.insert(ranked.begin() + (packed_shares ? 2 : 1), std::move(in_place));
    return;
  }
  const Config packed = ranked.front();
  for (Config& config : ranked) config.values["IN_PLACE"] = 1;
  if (packed_shares)
    ranked[1] = std::move(in_place);
  else if (shares > 1)
    ranked.insert(ranked.begin() + 1, std::move(in_place));
  ranked.insert(ranked.begin() + std::min<std::ptrdiff_t>(2, static_cast<std::ptrdiff_t>(ranked.size())), packed);
}

std::vector<Config> sync_ranked(const FormatInfo& format, const KernelProblem& p, const DeviceInfo& device) {
  const std::uint64_t units = std::max(1u, device.compute_units);
  std::vector<std::pair<double, Config>> scored;
  for (const Tiling& t : tilings()) scored.emplace_back(model_time(t, p, units), sync_config(format, t));
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Config> ranked;
  ranked.reserve(scored.size() + 1);
  for (auto& [time, config] : scored) ranked.push_back(std::move(config));
  // The best tiling in K shares, second: first-use tuning times it beside the tiling alone.
  if (const std::int64_t split = k_shares_for(ranked.front(), p, units); split > 1) {
    Config shared = ranked.front();
    shared.values["SPLIT_K"] = split;
    ranked.insert(ranked.begin() + 1, std::move(shared));
  }
  rank_in_place(format, p, units, ranked);
  return ranked;
}

// The portable kernel. On CPUs (PoCL vectorizes across work-items along dimension 0) one column per work-item and
// 16 of them in a row: neighbours read neighbouring elements of B and share A; a fixed work-group, since PoCL
// compiles a kernel per local size; K one element at a time. On GPUs a 4 x 4 block per work-item with the loads of 8
// K elements issued together, and a 2 x 2 block with 16 of them (more work-items and as many loads in flight, for
// products too small to fill the device). H100, half (session13/run1/mma-small.jsonl): K_STEP 8 against 1 on 4 x 4
// 1.1-1.5x faster; 2 x 2 with 16 against 8 1.8x at K of 2342-4916, within 7% either way on shorter K.
std::vector<Config> portable_ranked(const DeviceInfo& device) {
  auto portable = [](std::int64_t wpt_m, std::int64_t wpt_n, std::int64_t k_step, std::int64_t wg_x,
                     std::int64_t wg_y) {
    return Config{"portable", {{"WPT_M", wpt_m}, {"WPT_N", wpt_n}, {"K_STEP", k_step}, {"WG_X", wg_x}, {"WG_Y", wg_y}}};
  };
  if (device.is_cpu() || !device.local_memory_is_dedicated) return {portable(8, 1, 1, 16, 1), portable(4, 4, 1, 1, 8)};
  return {portable(4, 4, 8, 16, 8), portable(2, 2, 16, 16, 16)};
}

// Where the tensor cores do not run, via_float comes first for half and bfloat16 products worth its conversions,
// second below (TF32 is float gemm alone there: ranked_configs). Where they run it comes second, so that first-use
// tuning times it beside the best tiling: in TF32 mode for products up to kViaFloatBesideTensorCores multiply-adds
// (float gemm in place, one op: its launches and no more), and for half products with m or n of at most kMaxGemvVectors
// (run as gemv<half>: 8192 x 1 x 8192 0.063 ms against the tuned tensor-core kernel's 0.110,
// bench/results/nvidia-h100/session10). Not for other half and bfloat16 products: first-use tuning times a candidate by
// its kernels' span on the device, which leaves out the host's cost of via_float's three more launches; timed so, it
// won small products that it then ran 1.5-2.5x slower than the portable kernel in wall time (H100,
// bench/results/nvidia-h100/session11, run 3).
void rank_via_float(const FormatInfo& format, const KernelProblem& p, const DeviceInfo& device,
                    std::vector<Config>& ranked) {
  const double multiply_adds = static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k);
  const Config via_float{"via_float", {}};
  if (uses_ptx(device)) {
    const bool gemv_shaped = format.format == Format::F16 && std::min(p.m, p.n) <= kMaxGemvVectors;
    const bool tf32_beside = format.format == Format::TF32 && multiply_adds <= kViaFloatBesideTensorCores;
    if (!ranked.empty() && (gemv_shaped || tf32_beside)) ranked.insert(ranked.begin() + 1, via_float);
    return;
  }
  const bool first = multiply_adds >= kViaFloatMultiplyAdds;
  ranked.insert(first ? ranked.begin() : ranked.begin() + 1, via_float);
}

}  // namespace

Config portable_default(const DeviceInfo& device) { return portable_ranked(device).front(); }

std::vector<Config> ranked_configs(const FormatInfo& format, const KernelProblem& p, const DeviceInfo& device) {
  // TF32 mode without tensor cores is float gemm on the caller's operands (exact float products, within TF32's
  // bound), with float gemm's own tuned choice: nothing else to time. The public TF32 call goes to gemm<float>
  // itself there; this keeps the tuner (first use of gemm_mma<float>, `tilecl tune`, parameters_for) from timing
  // the portable kernel against it for nothing -- and from reporting a choice the calls do not run (PoCL,
  // seed-26 sweep: "portable" shown for 2 of 8 TF32 shapes).
  if (format.format == Format::TF32 && !uses_ptx(device)) return {Config{"via_float", {}}};
  std::vector<Config> ranked;
  if (uses_ptx(device)) ranked = sync_ranked(format, p, device);
  for (auto& config : portable_ranked(device)) ranked.push_back(std::move(config));
  rank_via_float(format, p, device, ranked);
  const SearchSpace& space = variants_for(format.format).space;
  std::vector<Config> valid;
  for (auto& config : ranked)
    if (space.validate(config, device).empty() && std::find(valid.begin(), valid.end(), config) == valid.end())
      valid.push_back(std::move(config));
  if (valid.empty())
    valid.push_back({"portable", {{"WPT_M", 1}, {"WPT_N", 1}, {"K_STEP", 1}, {"WG_X", 0}, {"WG_Y", 0}}});
  return valid;
}

}  // namespace tilecl::detail::gemm::mma
