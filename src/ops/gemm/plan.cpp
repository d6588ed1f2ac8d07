#include "ops/gemm/plan.hpp"

#include <algorithm>
#include <cctype>

#include "checks.hpp"
#include "ops/gemm/variants.hpp"
#include "ops/gemv.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail::gemm {
namespace {

// Split-K never makes a slice shorter than this many k (the partials would cost more than they save).
constexpr std::uint64_t kMinSliceK = 128;
constexpr std::uint64_t kMaxSplit = 64;

// Along which dimension a variant loads an operand VEC elements at a time ('m', 'n', 'k'), or 0.
char vector_dimension(const std::string& variant, bool is_a, const KernelProblem& p) {
  if (variant == "regblock") return is_a ? (p.trans_a ? 'm' : 'k') : (p.trans_b ? 'k' : 'n');
  if (variant == "skinny_m") return is_a ? '\0' : (p.trans_b ? '\0' : 'n');
  if (variant == "skinny_n") return is_a ? (p.trans_a ? '\0' : 'k') : (p.trans_b ? 'k' : '\0');
  return 0;
}

void check_workspace_extent(std::uint64_t elements) {
  if (elements > kMaxKernelExtent)
    throw Error(kOp, "workspace", CL_INVALID_VALUE,
                "a packed operand or the split-K partials would span " + std::to_string(elements) +
                    " elements, beyond the kernels' 32-bit index range");
}

std::uint64_t value_of(const Config& config, const char* name) {
  return static_cast<std::uint64_t>(config.value(name));
}

// 1. Vector-load rules: an operand loaded VEC wide along a dimension needs ld, offset and that extent to be
// multiples of VEC (along M or N reading up to the next multiple stays inside the buffer when ld and offset are;
// along K the extra elements would reach C). Otherwise it is packed, every stored dimension rounded up to VEC with
// zeros (if K must be rounded up, both operands are packed with the padded K), or, for regblock with PACK = 0,
// read element by element.
void plan_vector_loads(const Config& config, Plan& plan) {
  const KernelProblem& p = plan.p;
  const std::uint64_t vec = plan.vec, k = p.k;
  const char a_dimension = vector_dimension(plan.variant, true, p),
             b_dimension = vector_dimension(plan.variant, false, p);
  auto extent_along = [&](char dimension) { return dimension == 'm' ? p.m : dimension == 'n' ? p.n : k; };
  auto misses = [&](const Operand& operand, char dimension) {
    return dimension != 0 && (operand.ld % vec != 0 || operand.offset % vec != 0 || extent_along(dimension) % vec != 0);
  };
  plan.pack_a = misses(p.a, a_dimension);
  plan.pack_b = misses(p.b, b_dimension);
  plan.k_run = k;
  if (plan.variant == "regblock" && config.value("PACK") == 0) {
    plan.aligned_a = !plan.pack_a;
    plan.aligned_b = !plan.pack_b;
    plan.pack_a = plan.pack_b = false;
  }
  if (k % vec != 0 && (a_dimension == 'k' || b_dimension == 'k') && (plan.pack_a || plan.pack_b)) {
    plan.pack_a = plan.pack_b = true;
    plan.k_run = round_up(k, vec);
  }
  plan.a_stored = {p.trans_a ? k : p.m, p.trans_a ? p.m : k};
  plan.b_stored = {p.trans_b ? p.n : k, p.trans_b ? k : p.n};
  plan.a_packed = {p.trans_a ? plan.k_run : round_up(plan.a_stored.rows, vec),
                   p.trans_a ? round_up(plan.a_stored.cols, vec) : plan.k_run};
  plan.b_packed = {p.trans_b ? round_up(plan.b_stored.rows, vec) : plan.k_run,
                   p.trans_b ? plan.k_run : round_up(plan.b_stored.cols, vec)};
  plan.c_stored = {p.trans_c ? p.n : p.m, p.trans_c ? p.m : p.n};
}

// 2. K slices: SPLIT at most, none shorter than kMinSliceK, and never more partial data than the operands hold
// ((m + n) k elements against m n per slice).
void plan_split(const Config& config, Plan& plan) {
  const KernelProblem& p = plan.p;
  plan.splittable = plan.variant == "regblock" || plan.variant == "skinny_m" || plan.variant == "skinny_n";
  plan.slices = 1;
  plan.k_slice = plan.k_run;
  if (!plan.splittable || config.value("SPLIT") <= 1) return;
  const std::uint64_t granule = plan.variant == "regblock" ? value_of(config, "TILE_K") : plan.vec;
  const double worth = static_cast<double>(p.m + p.n) * static_cast<double>(plan.k_run) /
                       (static_cast<double>(p.m) * static_cast<double>(p.n));
  const auto most = static_cast<std::uint64_t>(
      std::clamp<double>(std::min<double>(static_cast<double>(config.value("SPLIT")), worth), 1, kMaxSplit));
  plan.k_slice = round_up(std::max(ceil_div(plan.k_run, most), kMinSliceK), granule);
  plan.slices = ceil_div(plan.k_run, plan.k_slice);
  if (plan.slices <= 1) plan.k_slice = plan.k_run, plan.slices = 1;
}

// Workspace sections, each 64-element aligned: [packed A][packed B][K-slice partials][B panels].
void plan_workspace(const Config& config, Plan& plan) {
  auto section = [&](std::uint64_t elements, std::uint64_t& at) {
    check_workspace_extent(elements);
    at = plan.workspace;
    plan.workspace += round_up(elements, 64);
  };
  if (plan.pack_a) section(plan.a_packed.rows * plan.a_packed.cols, plan.a_at);
  if (plan.pack_b) section(plan.b_packed.rows * plan.b_packed.cols, plan.b_at);
  plan.w_ld = round_up(plan.c_stored.cols, plan.vec);
  plan.w_stride = round_up(plan.c_stored.rows * plan.w_ld, 64);
  if (plan.slices > 1) {
    check_workspace_extent(plan.c_stored.rows * plan.w_ld);
    plan.w_at = plan.workspace;
    plan.workspace += plan.slices * plan.w_stride;
  }
  plan.panels = plan.variant == "cpu" && config.value("USE_PACKED_B") == 1;
  if (plan.panels) {
    plan.panel = value_of(config, "WPT_N");
    plan.panel_stride = round_up(plan.p.k * plan.panel, 64);
    check_workspace_extent(ceil_div(plan.p.n, plan.panel) * plan.panel_stride);
    plan.panels_at = plan.workspace;
    plan.workspace += ceil_div(plan.p.n, plan.panel) * plan.panel_stride;
  }
}

// The main kernel's NDRange.
void plan_geometry(const Config& config, Plan& plan) {
  const std::uint64_t m = plan.p.m, n = plan.p.n, vec = plan.vec;
  auto launch_work_group = [&](std::uint64_t x_items, std::uint64_t y_items) {
    const std::uint64_t x = value_of(config, "WG_X"), y = value_of(config, "WG_Y");
    if (x == 0 || y == 0) {
      plan.global = cl::NDRange(x_items, y_items);
      plan.local = cl::NullRange;
      return;
    }
    plan.global = cl::NDRange(round_up(x_items, x), round_up(y_items, y));
    plan.local = cl::NDRange(x, y);
    plan.work_group = x * y;
  };
  const std::string& variant = plan.variant;
  if (variant == "naive") {
    launch_work_group(n, m);
  } else if (variant == "tiled") {
    const std::uint64_t tile = value_of(config, "TILE");
    plan.global = cl::NDRange(round_up(n, tile), round_up(m, tile));
    plan.local = cl::NDRange(tile, tile);
    plan.work_group = tile * tile;
  } else if (variant == "regblock") {
    const std::uint64_t tile_m = value_of(config, "TILE_M"), tile_n = value_of(config, "TILE_N");
    const std::uint64_t x = tile_n / value_of(config, "WPT_N"), y = tile_m / value_of(config, "WPT_M");
    plan.global = cl::NDRange(ceil_div(n, tile_n) * x, ceil_div(m, tile_m) * y, plan.slices);
    plan.local = cl::NDRange(x, y, 1);
    plan.work_group = x * y;
  } else if (variant == "cpu") {
    launch_work_group(ceil_div(n, value_of(config, "WPT_N")), ceil_div(m, value_of(config, "WPT_M")));
  } else {  // skinny_m, skinny_n
    const std::uint64_t x = value_of(config, "WG_X"), y = value_of(config, "WG_Y"), rows = value_of(config, "WPT_M");
    if (variant == "skinny_m")
      plan.global = cl::NDRange(ceil_div(n, x * vec) * x, y * plan.slices, ceil_div(m, rows));
    else
      plan.global = cl::NDRange(x * plan.slices, ceil_div(m, y * rows) * y, ceil_div(n, value_of(config, "WPT_N")));
    plan.local = cl::NDRange(x, y, 1);
    plan.work_group = x * y;
  }
}

std::uint64_t alignment_bits(std::uint64_t value) {  // log2 of the largest power of two <= 16 dividing value
  std::uint64_t bits = 0;
  while (bits < 4 && (value >> bits & 1) == 0) ++bits;
  return bits;
}

std::string variant_macro(const std::string& variant) {
  std::string name = "GEMM_";
  for (char c : variant) name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace

Plan make_plan(const Config& config, const KernelProblem& problem) {
  Plan plan;
  plan.variant = config.variant;
  plan.kernel = "gemm_" + config.variant;
  plan.p = oriented(problem, config.variant);
  plan.vec = config.values.count("VEC") ? value_of(config, "VEC") : 1;
  plan_vector_loads(config, plan);
  plan_split(config, plan);
  plan_workspace(config, plan);
  plan_geometry(config, plan);
  return plan;
}

BuildOptions main_options(const DTypeInfo& dtype, const Config& config, const Plan& plan) {
  BuildOptions options;
  options.define("DTYPE", dtype.cl_type);
  options.define("TRANS_A", plan.p.trans_a ? 1 : 0);
  options.define("TRANS_B", plan.p.trans_b ? 1 : 0);
  options.define("TRANS_C", plan.p.trans_c ? 1 : 0);
  // The program holds only this variant's kernel (plus pack and reduce): 2-3x faster builds.
  options.define("GEMM_VARIANT", variant_macro(config.variant));
  variants_for(dtype).space.add_build_macros(config, options);
  if (config.variant == "regblock") {
    options.define("USE_ALIGNED_A", plan.aligned_a ? 1 : 0);
    options.define("USE_ALIGNED_B", plan.aligned_b ? 1 : 0);
  }
  return options;
}

std::uint64_t program_code(const KernelProblem& p) {
  auto operand_bits = [](const Operand& operand) {
    return std::min(alignment_bits(operand.ld), alignment_bits(operand.offset));
  };
  // The gemv variant builds a program per number of vectors (1..8; 0: the variant does not apply).
  const std::uint64_t narrow = std::min(p.m, p.n), vectors = narrow <= kMaxGemvVectors ? narrow : 0;
  return static_cast<std::uint64_t>(p.trans_a) | static_cast<std::uint64_t>(p.trans_b) << 1 |
         static_cast<std::uint64_t>(p.n < p.m) << 2 | static_cast<std::uint64_t>(p.n == p.m) << 3 |
         operand_bits(p.a) << 4 | operand_bits(p.b) << 7 | alignment_bits(p.m) << 10 | alignment_bits(p.n) << 13 |
         alignment_bits(p.k) << 16 | vectors << 19;
}

}  // namespace tilecl::detail::gemm
