#include "ops/gemm/mma_plan.hpp"

#include <algorithm>

#include "checks.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail::gemm::mma {
namespace {

std::uint64_t value_of(const Config& config, const char* name) {
  return static_cast<std::uint64_t>(config.value(name));
}

// 1. gemm_mma_sync copies 16 bytes at a time from each row of A and B: every row must start on a 16-byte boundary,
// so the leading dimension and the offset must be multiples of `chunk` elements (buffers are aligned far beyond
// that). An operand that misses it is packed, its rows padded with zeros, or (IN_PLACE = 1) read in place element by
// element. With K == 0 nothing is read.
void plan_packing(const FormatInfo& format, const Config& config, Plan& plan) {
  const KernelProblem& p = plan.p;
  plan.a.rows = p.trans_a ? p.k : p.m;
  plan.a.cols = p.trans_a ? p.m : p.k;
  plan.b.rows = p.trans_b ? p.n : p.k;
  plan.b.cols = p.trans_b ? p.k : p.n;
  if (plan.variant != "mma" || p.k == 0) return;
  const auto chunk = static_cast<std::uint64_t>(format.chunk);
  const unsigned packed = packed_operands(format, p);
  const bool in_place = config.value("IN_PLACE") != 0;
  auto place = [&](StoredOperand& stored, unsigned bit) {
    stored.packed = (packed & bit) != 0 && !in_place;
    stored.in_place = (packed & bit) != 0 && in_place;
    if (!stored.packed) return;
    stored.packed_ld = round_up(stored.cols, chunk);
    const std::uint64_t elements = stored.rows * stored.packed_ld;
    if (elements > kMaxKernelExtent)
      throw Error(kOp, "workspace", CL_INVALID_VALUE,
                  "a packed operand would span " + std::to_string(elements) +
                      " elements, beyond the kernels' 32-bit index range");
    stored.at = plan.workspace;
    plan.workspace += round_up(elements, 64);
  };
  place(plan.a, 1u);
  place(plan.b, 2u);
}

// 1''. SPLIT_K > 1: the partial sums after the packed operands, on a 256-byte boundary; their float indices must stay
// within the kernels' 32-bit range like the packed operands'.
void plan_partials(const FormatInfo& format, const Config& config, Plan& plan) {
  if (plan.variant != "mma" || config.value("SPLIT_K") <= 1) return;
  plan.split = value_of(config, "SPLIT_K");
  const std::uint64_t floats = plan.split * plan.p.m * plan.p.n;
  if (floats > kMaxKernelExtent)
    throw Error(kOp, "workspace", CL_INVALID_VALUE,
                "SPLIT_K " + std::to_string(plan.split) + " partial sums would span " + std::to_string(floats) +
                    " floats, beyond the kernels' 32-bit index range");
  const auto per_float = sizeof(float) / format.element_size;  // 2 for 16-bit formats, 1 for tf32
  plan.partials_at = round_up(plan.workspace, 256 / format.element_size);
  plan.workspace = plan.partials_at + floats * per_float;
}

// 1'. via_float: float copies of the stored A and B with rows padded to 16 floats (64 bytes: aligned vector loads for
// the float kernels), then the product, m rows padded likewise; each placed on a 64-float boundary.
void plan_widening(Plan& plan) {
  if (plan.variant != "via_float") return;
  auto padded = [](std::uint64_t cols) { return round_up(std::max<std::uint64_t>(cols, 1), 16); };
  auto place = [&plan](FloatPlace& where, std::uint64_t rows) {
    where.at = plan.float_workspace;
    plan.float_workspace += round_up(rows * where.ld, 64);
  };
  plan.wide_a.ld = padded(plan.a.cols);
  plan.wide_b.ld = padded(plan.b.cols);
  plan.sums.ld = padded(plan.p.n);
  if (plan.p.k > 0) {  // with k = 0 nothing is read: float gemm gets only the leading dimensions its checks want
    place(plan.wide_a, plan.a.rows);
    place(plan.wide_b, plan.b.rows);
  }
  place(plan.sums, plan.p.m);
}

// 2. The main kernel's NDRange (via_float: its helpers' local size is the device's, set when enqueued).
void plan_geometry(const Config& config, Plan& plan) {
  if (plan.variant == "via_float") return;
  const std::uint64_t m = plan.p.m, n = plan.p.n;
  if (plan.variant == "mma") {
    const std::uint64_t threads = 32 * value_of(config, "WARPS_M") * value_of(config, "WARPS_N");
    const std::uint64_t tiles = ceil_div(m, value_of(config, "TILE_M")) * ceil_div(n, value_of(config, "TILE_N"));
    plan.global = cl::NDRange(tiles * threads, plan.split);
    plan.local = cl::NDRange(threads, 1);
    plan.work_group = threads;
    return;
  }
  const std::uint64_t x_items = ceil_div(n, value_of(config, "WPT_N")),
                      y_items = ceil_div(m, value_of(config, "WPT_M"));
  const std::uint64_t x = value_of(config, "WG_X"), y = value_of(config, "WG_Y");
  if (x == 0 || y == 0) {
    plan.global = cl::NDRange(x_items, y_items);
    plan.local = cl::NullRange;
    return;
  }
  plan.global = cl::NDRange(round_up(x_items, x), round_up(y_items, y));
  plan.local = cl::NDRange(x, y);
  plan.work_group = x * y;
}

}  // namespace

unsigned packed_operands(const FormatInfo& format, const KernelProblem& p) {
  if (p.k == 0) return 0;
  const auto chunk = static_cast<std::uint64_t>(format.chunk);
  const auto packs = [chunk](const Operand& operand, std::uint64_t cols) {
    const std::uint64_t ld = operand.ld > 0 ? operand.ld : cols;
    return ld % chunk != 0 || operand.offset % chunk != 0;
  };
  return (packs(p.a, p.trans_a ? p.m : p.k) ? 1u : 0u) | (packs(p.b, p.trans_b ? p.k : p.n) ? 2u : 0u);
}

Plan make_plan(const FormatInfo& format, const Config& config, const KernelProblem& problem, bool use_ptx) {
  Plan plan;
  plan.variant = config.variant;
  plan.kernel = config.variant == "mma"         ? "gemm_mma_sync"
                : config.variant == "via_float" ? "gemm_mma_narrow"
                                                : "gemm_mma_portable";
  plan.p = problem;
  plan.use_ptx = use_ptx;
  plan_packing(format, config, plan);
  plan_partials(format, config, plan);
  plan_widening(plan);
  plan_geometry(config, plan);
  return plan;
}

bool workspace_fits(const Plan& plan, const DeviceInfo& device) {
  if (plan.variant != "via_float") return true;
  const std::uint64_t largest =
      std::max({plan.a.rows * plan.wide_a.ld, plan.b.rows * plan.wide_b.ld, plan.p.m * plan.sums.ld});
  return largest <= kMaxKernelExtent && plan.float_workspace * sizeof(float) <= device.max_allocation_bytes;
}

BuildOptions main_options(const FormatInfo& format, const Config& config, const Plan& plan) {
  BuildOptions options;
  options.define("MMA_TYPE", format.macro);
  const bool widening = plan.variant == "via_float";  // its kernels do not read the transposes: one program
  options.define("TRANS_A", plan.p.trans_a && !widening ? 1 : 0);
  options.define("TRANS_B", plan.p.trans_b && !widening ? 1 : 0);
  options.define("GEMM_MMA_VARIANT", plan.variant == "mma"         ? "GEMM_MMA_SYNC"
                                     : plan.variant == "via_float" ? "GEMM_MMA_VIA_FLOAT"
                                                                   : "GEMM_MMA_PORTABLE");
  variants_for(format.format).space.add_build_macros(config, options);
  if (plan.variant == "mma") {
    options.define("USE_PTX", plan.use_ptx ? 1 : 0);
    options.define("A_IN_PLACE", plan.a.in_place ? 1 : 0);
    options.define("B_IN_PLACE", plan.b.in_place ? 1 : 0);
    if (plan.use_ptx && config.value("REGISTERS") > 0)
      options.flag("-cl-nv-maxrregcount=" + std::to_string(config.value("REGISTERS")));
    // Emulated warp instructions (no PTX) exist to run the tensor-core kernel's logic on any device, never to be
    // fast: unoptimized, PoCL builds a 32 x 64 x 32 tiling in 1.6 s instead of 96 s (the optimizer's time on the
    // emulation's barriers and exchanges), which kept ops.gemm_mma over CI's time limit.
    if (!plan.use_ptx) options.flag("-cl-opt-disable");
  }
  return options;
}

}  // namespace tilecl::detail::gemm::mma
