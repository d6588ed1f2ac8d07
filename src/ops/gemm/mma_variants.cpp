#include "ops/gemm/mma_variants.hpp"

#include <atomic>
#include <mutex>
#include <set>

#include "log.hpp"
#include "tuning/constraints.hpp"

namespace tilecl::detail::gemm::mma {
namespace {

namespace c = constraints;

constexpr DTypeInfo kTf32{"tf32", "float", 4, false};
// The emulated warp instructions exchange 6 words per work-item through local memory.
constexpr std::uint64_t kExchangeBytesPerItem = 24;

std::int64_t threads_of(const Values& v) { return 32 * c::product(v, {"WARPS_M", "WARPS_N"}); }

SyncParams sync_params_of(const Values& v) {
  SyncParams p;
  p.tile_m = at(v, "TILE_M"), p.tile_n = at(v, "TILE_N"), p.tile_k = at(v, "TILE_K");
  p.warps_m = at(v, "WARPS_M"), p.warps_n = at(v, "WARPS_N"), p.stages = at(v, "STAGES");
  return p;
}

// Build parameters in the order a search should vary them (the first turns fastest). REGISTERS is the register
// cap of the PTX build (-cl-nv-maxrregcount; 0: the compiler's choice): a compiler flag, not a macro, so it is
// declared as a launch-kind field (rendered by the plan, ignored where the PTX is not built). IN_PLACE (1: an
// operand the kernel cannot copy 16 bytes at a time is read in place instead of packed first) is declared so too:
// the plan renders it as A_IN_PLACE / B_IN_PLACE for the operands that need it, so a call whose operands are aligned
// builds the same program either way.
VariantDescriptor<SyncParams> sync_variant(const FormatInfo& format) {
  using F = VariantDescriptor<SyncParams>::Field;
  using P = SyncParams;
  const auto build = ParameterKind::Build;
  const std::vector<std::int64_t> k_steps =
      format.format == Format::TF32 ? std::vector<std::int64_t>{16, 32, 8} : std::vector<std::int64_t>{32, 16, 64};
  return {
      "mma",
      "gemm_mma_sync",
      {F{"STAGES", &P::stages, build, {3, 4, 2}, 2, 5}, F{"TILE_K", &P::tile_k, build, k_steps, 8, 64},
       F{"WARPS_N", &P::warps_n, build, {4, 2}, 1, 8}, F{"WARPS_M", &P::warps_m, build, {2, 1}, 1, 8},
       F{"TILE_N", &P::tile_n, build, {128, 256, 64}, 32, 256}, F{"TILE_M", &P::tile_m, build, {128, 64, 256}, 32, 256},
       F{"SPLIT_K", &P::split_k, build, {1, 2, 4, 8, 16}, 1, 16},
       F{"REGISTERS", &P::registers, ParameterKind::Launch, {0, 128}, 0, 255},
       F{"IN_PLACE", &P::in_place, ParameterKind::Launch, {0, 1}, 0, 1}},
      {c::one_of("TILE_M", {32, 64, 128, 256}), c::one_of("TILE_N", {32, 64, 128, 256}),
       c::one_of("TILE_K", format.format == Format::TF32 ? std::vector<std::int64_t>{8, 16, 32, 64}
                                                         : std::vector<std::int64_t>{16, 32, 64}),
       c::derived("TILE_M % (16 * WARPS_M) == 0 and TILE_N % (16 * WARPS_N) == 0 (whole m16 tiles and n16 pairs per "
                  "warp)",
                  [](const Values& v, const DeviceInfo&) {
                    return at(v, "TILE_M") % (16 * at(v, "WARPS_M")) == 0 &&
                           at(v, "TILE_N") % (16 * at(v, "WARPS_N")) == 0;
                  }),
       c::derived("the work-group, 32 * WARPS_M * WARPS_N, fits the device",
                  [](const Values& v, const DeviceInfo& d) {
                    const auto threads = static_cast<std::uint64_t>(threads_of(v));
                    return threads <= d.max_work_group_size && threads <= d.max_work_item_sizes[0];
                  }),
       c::derived("TILE_M * TILE_K and TILE_N * TILE_K are multiples of 16 bytes' worth of elements times the "
                  "work-group (whole 16-byte copies per work-item)",
                  [chunk = format.chunk](const Values& v, const DeviceInfo&) {
                    const std::int64_t per_step = chunk * threads_of(v);
                    return at(v, "TILE_M") * at(v, "TILE_K") % per_step == 0 &&
                           at(v, "TILE_N") * at(v, "TILE_K") % per_step == 0;
                  }),
       c::derived("at most 128 accumulators per work-item ((TILE_M / WARPS_M) * (TILE_N / WARPS_N) / 32)",
                  [](const Values& v, const DeviceInfo&) {
                    return (at(v, "TILE_M") / at(v, "WARPS_M")) * (at(v, "TILE_N") / at(v, "WARPS_N")) / 32 <= 128;
                  }),
       c::derived("on NVIDIA GPUs of compute capability 8.0 and newer, only while their compiler takes the PTX",
                  [](const Values&, const DeviceInfo& d) { return d.nv_compute_capability < 80 || uses_ptx(d); }),
       c::derived("REGISTERS is 0 or in [64, 255]",
                  [](const Values& v, const DeviceInfo&) {
                    const auto registers = at(v, "REGISTERS");
                    return registers == 0 || (registers >= 64 && registers <= 255);
                  }),
       c::derived("STAGES * (TILE_M + TILE_N) * TILE_K elements (and 24 bytes per work-item where the warp "
                  "instructions are emulated) fit the device's local memory",
                  [&format](const Values& v, const DeviceInfo& d) {
                    return sync_local_bytes(sync_params_of(v), format, !uses_ptx(d)) <= d.local_memory_bytes;
                  })}};
}

VariantDescriptor<PortableParams> portable_variant() {
  using F = VariantDescriptor<PortableParams>::Field;
  using P = PortableParams;
  return {"portable",
          "gemm_mma_portable",
          {F{"WPT_N", &P::wpt_n, ParameterKind::Build, {8, 4, 16}, 1, 16},
           F{"WPT_M", &P::wpt_m, ParameterKind::Build, {4, 2, 8}, 1, 16},
           F{"K_STEP", &P::k_step, ParameterKind::Build, {4, 8, 1}, 1, 16},
           F{"WG_X", &P::wg_x, ParameterKind::Launch, {8, 16, 1}, 0, 1024},
           F{"WG_Y", &P::wg_y, ParameterKind::Launch, {8, 1, 16}, 0, 1024}},
          {c::product_at_most({"WPT_M", "WPT_N"}, 128, "accumulators per work-item"),
           c::work_group_fits("WG_X", "WG_Y", true)}};
}

VariantDescriptor<ViaFloatParams> via_float_variant() { return {"via_float", "gemm_mma_narrow", {}, {}}; }

Variants make_variants(const FormatInfo& format) {
  Variants v{sync_variant(format), portable_variant(), via_float_variant(), {}};
  v.space = SearchSpace({v.sync.space(), v.portable.space(), v.via_float.space()});
  return v;
}

struct PtxFailures {
  std::atomic<bool> any{false};  // warm calls check this alone: no lock, no fingerprint
  std::mutex mutex;
  std::set<std::string> fingerprints;
};
PtxFailures& ptx_failures() {
  static PtxFailures* failures = new PtxFailures;  // never destroyed: calls may run during exit
  return *failures;
}

}  // namespace

const FormatInfo& format_info(Format format) {
  static const FormatInfo formats[] = {{Format::F16, &dtype_of<half>(), "MMA_F16", 2, 8, 16},
                                       {Format::BF16, &dtype_of<bfloat16>(), "MMA_BF16", 2, 8, 16},
                                       {Format::TF32, &kTf32, "MMA_TF32", 4, 4, 8}};
  return formats[static_cast<int>(format)];
}

const FormatInfo* format_named(const std::string& dtype) {
  for (Format format : {Format::F16, Format::BF16, Format::TF32})
    if (dtype == format_info(format).dtype->name) return &format_info(format);
  return nullptr;
}

const Variants& variants_for(Format format) {
  static const Variants f16 = make_variants(format_info(Format::F16)), bf16 = make_variants(format_info(Format::BF16)),
                        tf32 = make_variants(format_info(Format::TF32));
  return format == Format::F16 ? f16 : format == Format::BF16 ? bf16 : tf32;
}

bool uses_ptx(const DeviceInfo& device) {
  if (device.nv_compute_capability < 80) return false;
  auto& failures = ptx_failures();
  if (!failures.any.load(std::memory_order_acquire)) return true;
  std::lock_guard<std::mutex> lock(failures.mutex);
  return failures.fingerprints.count(device.fingerprint()) == 0;
}

void record_ptx_failure(const DeviceInfo& device, const std::string& reason) {
  {
    auto& failures = ptx_failures();
    std::lock_guard<std::mutex> lock(failures.mutex);
    failures.fingerprints.insert(device.fingerprint());
    failures.any.store(true, std::memory_order_release);
  }
  warn_once("gemm-mma-ptx:" + device.fingerprint(),
            "the tensor-core gemm kernels (inline PTX) did not build on " + device.device_name + " (" +
                reason.substr(0, 200) + "); half, bfloat16 and TF32 gemm use the portable kernel in this process");
}

std::uint64_t sync_local_bytes(const SyncParams& p, const FormatInfo& format, bool emulated) {
  const auto tiles = static_cast<std::uint64_t>(p.stages * (p.tile_m + p.tile_n) * p.tile_k) * format.element_size;
  const auto exchange = emulated ? static_cast<std::uint64_t>(32 * p.warps_m * p.warps_n) * kExchangeBytesPerItem : 0;
  return tiles + exchange;
}

FamilyMacros mma_family_macros() {
  const Variants& v = variants_for(Format::F16);
  return {"gemm_mma",
          {macros_of(v.sync), macros_of(v.portable), macros_of(v.via_float)},
          {"MMA_TYPE", "TRANS_A", "TRANS_B", "USE_PTX", "GEMM_MMA_VARIANT", "A_IN_PLACE", "B_IN_PLACE"}};
}

}  // namespace tilecl::detail::gemm::mma
