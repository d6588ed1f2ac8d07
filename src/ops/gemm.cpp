// gemm: validate -> parameters -> program -> kernel lease -> enqueue.
//
// A call becomes a row-major problem for the kernels (kernels/gemm.cl): a ColMajor call is solved as
// C^T = op(B)^T op(A)^T (A and B swap, their transposes swap, m and n swap), and the skinny kernels may solve
// the transposed problem into C stored transposed (TRANS_C) so that their small dimension is the one they
// expect. Then, in order, whatever the configuration needs:
//   1. pack A and/or B (gemm_pack) into a zero-padded workspace when they miss the vector-load rules;
//   2. pack op(B) into k-major panels (gemm_pack_panels) for gemm_cpu with USE_PACKED_B;
//   3. the main kernel, writing K-slice partials to the workspace when K is split;
//   4. gemm_splitk_reduce: C = alpha * (sum of the slices) + beta * C.
// alpha == 0 or k == 0 launches only the scaling (gemm_splitk_reduce over zero slices).
//
// Shape buckets (m, n, k of the row-major problem; each bucket has its own tuned choice):
//   small        m*n*k < 2^21                                       timing 127x127x127
//   gemv-rows    min(m, n) <= 4,  large operand contiguous along the long side of C   1x4096x4096
//   gemv-dots    min(m, n) <= 4,  large operand contiguous along k                    4096x1x4096
//   skinny-rows  min(m, n) <= 32, as gemv-rows                                         16x4096x4096
//   skinny-dots  min(m, n) <= 32, as gemv-dots                                         4096x16x4096
//   shallow      k <= 256 and m*n >= 2^24                           timing 8192x8192x64
//   deep         m*n <= 2^20 and k >= 2048 (few output tiles: split K)  timing 8192x64x8192
//   medium       m*n*k < 2^33                                       timing 1024x1024x1024
//   large        everything else                                    timing 4096x4096x4096
// tested in this order. "Rows" and "dots" tell which skinny kernel reads the large operand contiguously
// (gemm_skinny_m streams rows of it, gemm_skinny_n takes dot products along k).
#include "ops/gemm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "checks.hpp"
#include "launch.hpp"
#include "ops/tunable_ops.hpp"
#include "program_cache.hpp"
#include "tilecl/error.hpp"
#include "tilecl/gemm.hpp"
#include "tuning/scratch.hpp"
#include "tuning/tuning_service.hpp"
#include "workspace.hpp"

namespace tilecl {
namespace detail {
namespace {

constexpr const char* kOp = "gemm";
constexpr const char* kFamily = "gemm";
// Split-K never makes a slice shorter than this many k (the partials would cost more than they save).
constexpr std::uint64_t kMinSliceK = 128;
constexpr std::int64_t kMaxSplit = 64;

// ---- problems -------------------------------------------------------------------------------------------

struct Operand {
  const cl::Buffer* buffer;
  std::uint64_t offset;
  std::uint64_t ld;
};

// A call as the caller made it (BLAS semantics).
struct Call {
  Layout layout;
  Transpose trans_a, trans_b;
  std::uint64_t m, n, k;
  Operand a, b, c;
};

// The problem the kernels see: row-major, op(A) m x k, op(B) k x n; C (m, n) at c[m * ldc + n], or at
// c[n * ldc + m] with trans_c.
struct KernelProblem {
  std::uint64_t m, n, k;
  bool trans_a, trans_b, trans_c;
  Operand a, b, c;
};

KernelProblem row_major(const Call& call) {
  const bool ta = call.trans_a == Transpose::Yes, tb = call.trans_b == Transpose::Yes;
  if (call.layout == Layout::RowMajor) return {call.m, call.n, call.k, ta, tb, false, call.a, call.b, call.c};
  return {call.n, call.m, call.k, tb, ta, false, call.b, call.a, call.c};  // C^T = op(B)^T op(A)^T
}

// The same product solved as C^T = op(B)^T op(A)^T into the same C, stored transposed.
KernelProblem transposed(const KernelProblem& p) {
  return {p.n, p.m, p.k, !p.trans_b, !p.trans_a, !p.trans_c, p.b, p.a, p.c};
}

// gemm_skinny_m wants M small and B along N (TRANS_B = 0); gemm_skinny_n wants N small and A along K
// (TRANS_A = 0). Every other kernel takes the problem as it is.
KernelProblem oriented(const KernelProblem& p, const std::string& variant) {
  bool flip = false;
  if (variant == "skinny_m") flip = p.n < p.m || (p.n == p.m && p.trans_b && !p.trans_a);
  if (variant == "skinny_n") flip = p.m < p.n || (p.m == p.n && p.trans_a && !p.trans_b);
  return flip ? transposed(p) : p;
}

// ---- shape buckets --------------------------------------------------------------------------------------

struct BucketInfo {
  const char* name;
  std::uint64_t m, n, k;  // the timing shape (row-major, no transposes)
};

// In classification order (see the top of the file).
const std::vector<BucketInfo>& bucket_table() {
  static const std::vector<BucketInfo> table{
      {"small", 127, 127, 127},        {"gemv-rows", 1, 4096, 4096},    {"gemv-dots", 4096, 1, 4096},
      {"skinny-rows", 16, 4096, 4096}, {"skinny-dots", 4096, 16, 4096}, {"shallow", 8192, 8192, 64},
      {"deep", 8192, 64, 8192},        {"medium", 1024, 1024, 1024},    {"large", 4096, 4096, 4096}};
  return table;
}

const BucketInfo& bucket_info(const std::string& name) {
  for (const auto& bucket : bucket_table())
    if (name == bucket.name) return bucket;
  throw Error(kOp, "bucket", CL_INVALID_VALUE, "no shape bucket named '" + name + "'");
}

const char* classify(const KernelProblem& p) {
  const double m = static_cast<double>(p.m), n = static_cast<double>(p.n), k = static_cast<double>(p.k);
  if (m * n * k < 0x1p21) return "small";
  const std::uint64_t narrow = std::min(p.m, p.n);
  if (narrow <= 32) {
    // The large operand is B when m is the small side, else A; "rows" when it is contiguous along the long
    // side of C (B not transposed, or A transposed).
    const bool rows = p.m <= p.n ? !p.trans_b : p.trans_a;
    if (narrow <= 4) return rows ? "gemv-rows" : "gemv-dots";
    return rows ? "skinny-rows" : "skinny-dots";
  }
  if (p.k <= 256 && m * n >= 0x1p24) return "shallow";
  if (m * n <= 0x1p20 && p.k >= 2048) return "deep";
  if (m * n * k < 0x1p33) return "medium";
  return "large";
}

bool is_skinny_bucket(const std::string& bucket) {
  return bucket == "gemv-rows" || bucket == "gemv-dots" || bucket == "skinny-rows" || bucket == "skinny-dots";
}

// ---- search space and defaults --------------------------------------------------------------------------

std::int64_t round_up_to(std::int64_t value, std::int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

bool valid_vector_width(std::int64_t vec) { return vec == 1 || vec == 2 || vec == 4 || vec == 8 || vec == 16; }

// A work-group of x * y work-items fits the device (0 x 0: the driver chooses). Each side is checked before the
// product, so absurd values cannot overflow it.
bool work_group_fits(std::int64_t x, std::int64_t y, const DeviceInfo& d) {
  if (x == 0 && y == 0) return true;
  if (x < 1 || y < 1) return false;
  if (static_cast<std::uint64_t>(x) > d.max_work_item_sizes[0] ||
      static_cast<std::uint64_t>(y) > d.max_work_item_sizes[1])
    return false;
  return static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y) <= d.max_work_group_size;
}

// Sizes a configuration may give (larger values are refused before any product of them is formed).
constexpr std::int64_t kMaxTile = 1024, kMaxPad = 64;
bool in_range(std::int64_t value, std::int64_t low, std::int64_t high) { return value >= low && value <= high; }

std::uint64_t regblock_local_bytes(const Values& v, std::size_t element) {
  const std::int64_t vec = at(v, "VEC"), pad = round_up_to(at(v, "PAD"), vec);
  return static_cast<std::uint64_t>((1 + at(v, "USE_DOUBLE_BUFFER")) * at(v, "TILE_K") *
                                    (at(v, "TILE_M") + at(v, "TILE_N") + 2 * pad)) *
         element;
}

bool is_switch(std::int64_t value) { return value == 0 || value == 1; }

// `values` with `first` moved to (or added at) the front.
std::vector<std::int64_t> starting_with(std::int64_t first, std::vector<std::int64_t> values) {
  values.erase(std::remove(values.begin(), values.end(), first), values.end());
  values.insert(values.begin(), first);
  return values;
}

// The smallest power-of-two number of K slices (at most 16) that gives `groups` work-groups at least `target`.
std::int64_t split_for(std::uint64_t groups, std::uint64_t target) {
  std::int64_t split = 1;
  while (split < 16 && groups * static_cast<std::uint64_t>(split) < target) split *= 2;
  return split;
}

std::vector<VariantSpace> all_variant_spaces(const DTypeInfo& dtype, const std::string& bucket) {
  const std::size_t element = dtype.size;
  const Constraint split_positive{"SPLIT >= 1", [](const Values& v, const DeviceInfo&) { return at(v, "SPLIT") >= 1; }};
  const std::vector<std::int64_t> many_splits{1, 2, 4, 8, 16};
  const std::vector<std::int64_t> regblock_splits = bucket == "deep"           ? many_splits
                                                    : is_skinny_bucket(bucket) ? std::vector<std::int64_t>{1, 4, 16}
                                                    : bucket == "medium"       ? std::vector<std::int64_t>{1, 2, 4}
                                                                               : std::vector<std::int64_t>{1};

  // Build parameters are declared in the order the search should vary them (the first turns fastest). The
  // candidates are what is worth timing (the H200 sweep: 32-wide tiles, TILE_K 8, VEC 8 and 2 x 2 per work-item
  // lost everywhere, WARP_N 8 gained nothing); other values stay valid for overrides and tests as long as the
  // constraints hold.
  VariantSpace regblock{
      "regblock",
      {{"PAD", {0, 1}},
       {"USE_PREFETCH", {1, 0}},
       {"USE_DOUBLE_BUFFER", {0, 1}},
       {"TILE_K", {16, 32}},
       {"WARP_N", {0}},
       {"VEC", {4, 2, 1}},
       {"WPT_N", {8, 4}},
       {"WPT_M", {8, 4}},
       {"TILE_N", {128, 64, 256}},
       {"TILE_M", {128, 64, 256}},
       {"SPLIT", regblock_splits, ParameterKind::Launch}},
      {{"TILE_M, TILE_N, TILE_K, WPT_M, WPT_N in [1, 1024], PAD in [0, 64] and VEC in {1, 2, 4, 8, 16}",
        [](const Values& v, const DeviceInfo&) {
          for (const char* name : {"TILE_M", "TILE_N", "TILE_K", "WPT_M", "WPT_N"})
            if (!in_range(at(v, name), 1, kMaxTile)) return false;
          return in_range(at(v, "PAD"), 0, kMaxPad) && valid_vector_width(at(v, "VEC"));
        }},
       {"TILE_M % WPT_M == 0 and TILE_N % WPT_N == 0",
        [](const Values& v, const DeviceInfo&) {
          return at(v, "TILE_M") % at(v, "WPT_M") == 0 && at(v, "TILE_N") % at(v, "WPT_N") == 0;
        }},
       {"WPT_M, WPT_N and TILE_K are multiples of VEC",
        [](const Values& v, const DeviceInfo&) {
          const auto vec = at(v, "VEC");
          return at(v, "WPT_M") % vec == 0 && at(v, "WPT_N") % vec == 0 && at(v, "TILE_K") % vec == 0;
        }},
       {"the work-group (TILE_N / WPT_N) x (TILE_M / WPT_M) fits the device",
        [](const Values& v, const DeviceInfo& d) {
          return work_group_fits(at(v, "TILE_N") / at(v, "WPT_N"), at(v, "TILE_M") / at(v, "WPT_M"), d);
        }},
       {"TILE_M * TILE_K and TILE_N * TILE_K are multiples of VEC * work-group size (whole vector loads)",
        [](const Values& v, const DeviceInfo&) {
          const auto threads = (at(v, "TILE_N") / at(v, "WPT_N")) * (at(v, "TILE_M") / at(v, "WPT_M"));
          const auto per_step = at(v, "VEC") * threads;
          return (at(v, "TILE_M") * at(v, "TILE_K")) % per_step == 0 &&
                 (at(v, "TILE_N") * at(v, "TILE_K")) % per_step == 0;
        }},
       {"USE_DOUBLE_BUFFER and USE_PREFETCH are 0 or 1, and not both 1",
        [](const Values& v, const DeviceInfo&) {
          return is_switch(at(v, "USE_DOUBLE_BUFFER")) && is_switch(at(v, "USE_PREFETCH")) &&
                 !(at(v, "USE_DOUBLE_BUFFER") == 1 && at(v, "USE_PREFETCH") == 1);
        }},
       {"(1 + USE_DOUBLE_BUFFER) * TILE_K * (TILE_M + TILE_N + 2 * PAD rounded up to VEC) elements fit local memory",
        [element](const Values& v, const DeviceInfo& d) {
          return regblock_local_bytes(v, element) <= d.local_memory_bytes;
        }},
       {"WARP_N in {0, 4, 8, 16}; if set, 32 % WARP_N == 0, (TILE_N / WPT_N) % WARP_N == 0, (TILE_M / WPT_M) % "
        "(32 / WARP_N) == 0 and the work-group is a multiple of 32",
        [](const Values& v, const DeviceInfo&) {
          const auto warp_n = at(v, "WARP_N");
          if (warp_n == 0) return true;
          if (warp_n != 4 && warp_n != 8 && warp_n != 16) return false;
          const auto x = at(v, "TILE_N") / at(v, "WPT_N"), y = at(v, "TILE_M") / at(v, "WPT_M");
          return x % warp_n == 0 && y % (32 / warp_n) == 0 && (x * y) % 32 == 0;
        }},
       split_positive}};

  VariantSpace tiled{
      "tiled",
      {{"PAD", {1, 0}}, {"TILE", {16, 8, 32}}},
      {{"TILE >= 1, TILE x TILE fits the device's work-group, PAD in [0, 64]",
        [](const Values& v, const DeviceInfo& d) {
          return at(v, "TILE") >= 1 && work_group_fits(at(v, "TILE"), at(v, "TILE"), d) &&
                 in_range(at(v, "PAD"), 0, kMaxPad);
        }},
       {"2 * TILE * (TILE + PAD) elements fit local memory", [element](const Values& v, const DeviceInfo& d) {
          const auto tile = at(v, "TILE");
          return static_cast<std::uint64_t>(2 * tile * (tile + at(v, "PAD"))) * element <= d.local_memory_bytes;
        }}}};

  VariantSpace cpu{
      "cpu",
      {{"USE_PACKED_B", {1, 0}},
       {"WPT_N", {64, 32, 16}},
       {"WPT_M", {6, 4, 8, 1}},
       {"VEC", {16, 8, 4}},
       {"WG_X", {1, 8}, ParameterKind::Launch},
       {"WG_Y", {8, 1, 16}, ParameterKind::Launch}},
      {{"WPT_M, WPT_N in [1, 1024], VEC in {1, 2, 4, 8, 16} dividing WPT_N, USE_PACKED_B 0 or 1",
        [](const Values& v, const DeviceInfo&) {
          return in_range(at(v, "WPT_M"), 1, kMaxTile) && valid_vector_width(at(v, "VEC")) &&
                 in_range(at(v, "WPT_N"), 1, kMaxTile) && at(v, "WPT_N") % at(v, "VEC") == 0 &&
                 is_switch(at(v, "USE_PACKED_B"));
        }},
       {"WG_X x WG_Y fits the device (both 0: the driver chooses)",
        [](const Values& v, const DeviceInfo& d) { return work_group_fits(at(v, "WG_X"), at(v, "WG_Y"), d); }}}};

  const Constraint skinny_work_group{
      "WG_X x WG_Y (both >= 1) fits the device", [](const Values& v, const DeviceInfo& d) {
        return at(v, "WG_X") >= 1 && at(v, "WG_Y") >= 1 && work_group_fits(at(v, "WG_X"), at(v, "WG_Y"), d);
      }};
  VariantSpace skinny_m{"skinny_m",
                        {{"WPT_M", {1, 2, 4, 8}},
                         {"VEC", {4, 2, 1}},
                         {"WG_Y", {8, 4, 1}},
                         {"WG_X", {32, 64, 8}},
                         {"SPLIT", many_splits, ParameterKind::Launch}},
                        {{"WPT_M in [1, 1024] and VEC in {1, 2, 4, 8, 16}",
                          [](const Values& v, const DeviceInfo&) {
                            return in_range(at(v, "WPT_M"), 1, kMaxTile) && valid_vector_width(at(v, "VEC"));
                          }},
                         skinny_work_group,
                         {"WG_X * WG_Y * VEC elements fit local memory",
                          [element](const Values& v, const DeviceInfo& d) {
                            return static_cast<std::uint64_t>(at(v, "WG_X") * at(v, "WG_Y") * at(v, "VEC")) * element <=
                                   d.local_memory_bytes;
                          }},
                         split_positive}};
  VariantSpace skinny_n{"skinny_n",
                        {{"WPT_N", {1, 2, 4, 8}},
                         {"WPT_M", {1, 2, 4}},
                         {"VEC", {4, 2, 1}},
                         {"WG_Y", {8, 4, 1}},
                         {"WG_X", {32, 64, 8}},
                         {"SPLIT", {1, 2, 4, 8}, ParameterKind::Launch}},
                        {{"WPT_M, WPT_N in [1, 1024] and VEC in {1, 2, 4, 8, 16}",
                          [](const Values& v, const DeviceInfo&) {
                            return in_range(at(v, "WPT_M"), 1, kMaxTile) && in_range(at(v, "WPT_N"), 1, kMaxTile) &&
                                   valid_vector_width(at(v, "VEC"));
                          }},
                         skinny_work_group,
                         {"WG_X * WG_Y elements fit local memory",
                          [element](const Values& v, const DeviceInfo& d) {
                            return static_cast<std::uint64_t>(at(v, "WG_X") * at(v, "WG_Y")) * element <=
                                   d.local_memory_bytes;
                          }},
                         split_positive}};

  VariantSpace naive{
      "naive",
      {{"WG_X", {16, 32, 8}, ParameterKind::Launch}, {"WG_Y", {16, 8, 4, 1}, ParameterKind::Launch}},
      {{"WG_X x WG_Y fits the device (both 0: the driver chooses)",
        [](const Values& v, const DeviceInfo& d) { return work_group_fits(at(v, "WG_X"), at(v, "WG_Y"), d); }}}};

  return {regblock, tiled, cpu, skinny_m, skinny_n, naive};
}

// CPUs, and devices whose local memory is ordinary memory, get the kernel without local memory.
bool wants_cpu_kernels(const DeviceInfo& device) { return device.is_cpu() || !device.local_memory_is_dedicated; }

Config regblock_config(std::int64_t tile_m, std::int64_t tile_n, std::int64_t tile_k, std::int64_t wpt_m,
                       std::int64_t wpt_n, std::int64_t vec, std::int64_t pad, std::int64_t double_buffer,
                       std::int64_t split) {
  return {"regblock",
          {{"TILE_M", tile_m},
           {"TILE_N", tile_n},
           {"TILE_K", tile_k},
           {"WPT_M", wpt_m},
           {"WPT_N", wpt_n},
           {"VEC", vec},
           {"PAD", pad},
           {"USE_DOUBLE_BUFFER", double_buffer},
           {"USE_PREFETCH", 1 - double_buffer},
           {"WARP_N", 0},
           {"SPLIT", split}}};
}

Config default_for(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device) {
  const BucketInfo& shape = bucket_info(bucket);
  if (wants_cpu_kernels(device)) {
    // Measured with PoCL on AVX-512 (docs/notes/gemm.md): one SIMD register per vector, 6 rows x 4 vectors of
    // accumulators where there are 32 vector registers (native float width 16), 6 x 2 where there are 16;
    // B packed into k-major panels; a work-group along M so neighbours share a panel in cache. Work-group
    // sizes are fixed, never the driver's choice: PoCL compiles a kernel per local size and would pick a new
    // one for many new shapes.
    const unsigned native = dtype.size == 8 ? device.native_vector_width_double : device.native_vector_width_float;
    std::int64_t vec = 1;
    while (vec * 2 <= std::min<std::int64_t>(16, native)) vec *= 2;
    const std::int64_t vectors = device.native_vector_width_float >= 16 ? 4 : 2;
    auto cpu = [&](std::int64_t wpt_m, std::int64_t wpt_n, std::int64_t packed, std::int64_t wg_x, std::int64_t wg_y) {
      return Config{
          "cpu",
          {{"WPT_M", wpt_m}, {"WPT_N", wpt_n}, {"VEC", vec}, {"USE_PACKED_B", packed}, {"WG_X", wg_x}, {"WG_Y", wg_y}}};
    };
    if (bucket == "small") return cpu(4, 2 * vec, 0, 1, 8);  // one launch: packing costs as much as the product
    // Memory-bound shapes read the large operand once, in place: rows of B (WPT_M covers the few rows of C) ...
    if (bucket == "gemv-rows") return cpu(1, vectors * vec, 0, 8, 1);
    if (bucket == "skinny-rows") return cpu(8, vectors * vec, 0, 8, 1);
    // ... or rows of A: dot products for a single column (4 rows per work-item, 8 work-items per row), and
    // broadcast scalars of A against one vector of B columns for a few columns.
    if (bucket == "gemv-dots")
      return {"skinny_n", {{"WPT_M", 4}, {"WPT_N", 1}, {"VEC", vec}, {"WG_X", 8}, {"WG_Y", 1}, {"SPLIT", 1}}};
    if (bucket == "skinny-dots") return cpu(8, vec, 0, 1, 8);
    // Few rows or columns of C against a long K: packing B costs more than its reuse saves.
    if (bucket == "deep") return cpu(6, vectors * vec, 0, 1, 8);
    return cpu(6, vectors * vec, 1, 1, 8);
  }

  // GPUs: the H200 sweep's winners (docs/notes/gemm.md), kept only where the device can hold them; split-K
  // sized from the compute units so the timing shape has enough work-groups.
  const std::int64_t wide = std::max<std::int64_t>(1, 16 / static_cast<std::int64_t>(dtype.size));  // 16-byte vectors
  const std::uint64_t units = std::max(1u, device.compute_units);
  std::vector<Config> preferred;
  if (bucket == "small") {
    preferred = {{"tiled", {{"TILE", 16}, {"PAD", 1}}}, {"tiled", {{"TILE", 8}, {"PAD", 1}}}};
  } else if (bucket == "gemv-rows" || bucket == "skinny-rows") {
    const std::int64_t rows = bucket == "gemv-rows" ? 1 : 4, wg_x = bucket == "gemv-rows" ? 64 : 32;
    const std::uint64_t groups = ceil_div(shape.n, wg_x * wide) * ceil_div(shape.m, rows);
    preferred = {{"skinny_m",
                  {{"WPT_M", rows},
                   {"VEC", wide},
                   {"WG_X", wg_x},
                   {"WG_Y", 256 / wg_x},
                   {"SPLIT", split_for(groups, 4 * units)}}},
                 {"skinny_m", {{"WPT_M", rows}, {"VEC", 1}, {"WG_X", 16}, {"WG_Y", 4}, {"SPLIT", 1}}}};
  } else if (bucket == "gemv-dots" || bucket == "skinny-dots") {
    const std::int64_t rows = bucket == "gemv-dots" ? 2 : 1, cols = bucket == "gemv-dots" ? 1 : 4;
    const std::int64_t wg_y = bucket == "gemv-dots" ? 4 : 8;
    const std::uint64_t groups = ceil_div(shape.m, wg_y * rows) * ceil_div(shape.n, cols);
    preferred = {{"skinny_n",
                  {{"WPT_M", rows},
                   {"WPT_N", cols},
                   {"VEC", wide},
                   {"WG_X", 32},
                   {"WG_Y", wg_y},
                   {"SPLIT", split_for(groups, 2 * units)}}},
                 {"skinny_n", {{"WPT_M", 1}, {"WPT_N", 1}, {"VEC", 1}, {"WG_X", 16}, {"WG_Y", 4}, {"SPLIT", 1}}}};
  } else if (bucket == "deep") {
    const std::int64_t split = split_for(ceil_div(shape.m, 64) * ceil_div(shape.n, 64), 2 * units);
    preferred = {regblock_config(64, 64, 16, 8, 8, wide, 0, 1, split),
                 regblock_config(64, 64, 16, 4, 4, wide, 0, 1, split),
                 regblock_config(32, 32, 16, 4, 4, 2, 0, 0, split)};
  } else if (bucket == "medium") {
    // Double measured fastest with scalar loads here (8-byte elements are wide already).
    const std::int64_t vec = dtype.size == 8 ? 1 : 4;
    preferred = {regblock_config(64, 64, 16, 4, 4, vec, vec == 1 ? 1 : 0, 1, 1),
                 regblock_config(32, 32, 16, 4, 4, 2, 0, 0, 1)};
  } else {  // large, shallow
    // The 128 x 128 tile wants room for more than one work-group per compute unit: 32 KiB of local memory
    // and 256 work-items (it needs 16 KiB of floats, 32 KiB of doubles, single-buffered).
    if (device.local_memory_bytes >= 32768 && device.max_work_group_size >= 256)
      preferred.push_back(regblock_config(128, 128, 16, 8, 8, wide, 0, 0, 1));
    preferred.push_back(regblock_config(64, 64, 16, 4, 4, wide, 0, 1, 1));
    preferred.push_back(regblock_config(32, 32, 16, 4, 4, 2, 0, 0, 1));
  }
  preferred.push_back({"tiled", {{"TILE", 8}, {"PAD", 1}}});
  const SearchSpace space(all_variant_spaces(dtype, bucket));
  for (const auto& config : preferred)
    if (space.validate(config, device).empty()) return config;
  return {"naive", {{"WG_X", 8}, {"WG_Y", 8}}};
}

// ---- build options --------------------------------------------------------------------------------------

std::string variant_macro(const std::string& variant) {
  std::string name = "GEMM_";
  for (char c : variant) name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

BuildOptions build_options_for(const DTypeInfo& dtype, const Config& config, const KernelProblem& p) {
  // Which parameters are build macros does not depend on the dtype or bucket.
  static const SearchSpace space(all_variant_spaces(dtype_of<float>(), "large"));
  BuildOptions options;
  options.define("DTYPE", dtype.cl_type);
  options.define("TRANS_A", p.trans_a ? 1 : 0);
  options.define("TRANS_B", p.trans_b ? 1 : 0);
  options.define("TRANS_C", p.trans_c ? 1 : 0);
  // The program holds only this variant's kernel (plus pack and reduce): 2-3x faster builds.
  options.define("GEMM_VARIANT", variant_macro(config.variant));
  space.add_build_macros(config, options);
  return options;
}

// ---- enqueue ----------------------------------------------------------------------------------------------

// Kernel launches in a chain: each waits for the previous one (so out-of-order queues keep the order too).
class LaunchChain {
 public:
  LaunchChain(cl::CommandQueue& queue, const std::vector<cl::Event>* first_wait, std::vector<cl::Event>* events)
      : queue_(queue), first_wait_(first_wait), events_(events) {}

  template <typename... Args>
  void launch(CompiledProgram& program, const std::string& kernel_name, const cl::NDRange& global,
              const cl::NDRange& local, const Args&... args) {
    auto lease = program.lease(kernel_name, kOp);
    set_kernel_args(kOp, lease.kernel(), args...);
    std::vector<cl::Event> previous;
    if (last_() != nullptr) previous.push_back(last_);
    last_ = enqueue_kernel(kOp, queue_, lease.kernel(), global, local, last_() != nullptr ? &previous : first_wait_);
    if (events_ != nullptr) events_->push_back(last_);
  }

  const cl::Event& last() const { return last_; }

 private:
  cl::CommandQueue& queue_;
  const std::vector<cl::Event>* first_wait_;
  std::vector<cl::Event>* events_;
  cl::Event last_;
};

// The local size of the helper kernels (pack, reduce): always a fixed one (16 x 16 on GPUs, 16 x 4 on CPUs), never
// the driver's choice: PoCL compiles a kernel once per local size, and chooses the size from the global size,
// so a NULL local size would cost a compile for every new matrix shape.
cl::NDRange helper_local(const DeviceInfo& device, std::size_t x, std::size_t y) {
  if (device.is_cpu()) y = std::min<std::size_t>(y, 4);
  while (x * y > 1 && !work_group_fits(static_cast<std::int64_t>(x), static_cast<std::int64_t>(y), device))
    y > 1 ? y /= 2 : x /= 2;
  return cl::NDRange(x, y);
}
cl::NDRange helper_global(const cl::NDRange& local, std::uint64_t x, std::uint64_t y) {
  if (local.dimensions() == 0) return cl::NDRange(x, y);
  return cl::NDRange(round_up(x, local.get()[0]), round_up(y, local.get()[1]));
}

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

// The program of the helper kernels (pack, pack_panels, splitk_reduce): they depend on the element type only,
// so one program per type serves every configuration (one compile, not one per configuration).
std::shared_ptr<CompiledProgram> helper_program(const QueueTarget& target, const DTypeInfo& dtype) {
  BuildOptions options;
  options.define("DTYPE", dtype.cl_type);
  options.define("GEMM_VARIANT", "GEMM_HELPERS");
  return ProgramCache::instance().get(target.context, target.device, kFamily, options, kOp);
}

// The scaling C = beta * C (alpha * op(A) op(B) contributes nothing): gemm_splitk_reduce over zero slices.
template <typename T>
cl::Event enqueue_scale(const QueueTarget& target, cl::CommandQueue& queue, const KernelProblem& p, T beta,
                        const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  auto program = helper_program(target, dtype_of<T>());
  const cl::NDRange local = helper_local(*target.info, 16, 16);
  LaunchChain chain(queue, wait, events);
  chain.launch(*program, "gemm_splitk_reduce", helper_global(local, p.n, p.m), local, static_cast<cl_int>(p.m),
               static_cast<cl_int>(p.n), cl_int{0}, *p.c.buffer, cl_ulong{0}, cl_int{1}, cl_ulong{0}, T(0), beta,
               *p.c.buffer, static_cast<cl_ulong>(p.c.offset), static_cast<cl_int>(p.c.ld));
  return chain.last();
}

template <typename T>
cl::Event enqueue_gemm(const QueueTarget& target, cl::CommandQueue& queue, const Config& config, const Call& call,
                       T alpha, T beta, const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  const DTypeInfo& dtype = dtype_of<T>();
  if (alpha == T(0) || call.k == 0) return enqueue_scale<T>(target, queue, row_major(call), beta, wait, events);

  const std::string& variant = config.variant;
  const KernelProblem p = oriented(row_major(call), variant);
  auto program =
      ProgramCache::instance().get(target.context, target.device, kFamily, build_options_for(dtype, config, p), kOp);
  const std::uint64_t vec = config.values.count("VEC") ? static_cast<std::uint64_t>(config.value("VEC")) : 1;
  const std::uint64_t k = p.k;

  // 1. Vector-load rules: an operand loaded VEC wide along a dimension needs ld, offset and that extent to be
  // multiples of VEC (along M or N reading up to the next multiple stays inside the buffer when ld and offset
  // are; along K the extra elements would reach C). Otherwise it is packed, every stored dimension rounded up
  // to VEC with zeros; if K must be rounded up, both operands are packed with the padded K.
  const char a_dimension = vector_dimension(variant, true, p), b_dimension = vector_dimension(variant, false, p);
  auto extent_along = [&](char dimension) { return dimension == 'm' ? p.m : dimension == 'n' ? p.n : k; };
  auto misses = [&](const Operand& operand, char dimension) {
    return dimension != 0 && (operand.ld % vec != 0 || operand.offset % vec != 0 || extent_along(dimension) % vec != 0);
  };
  bool pack_a = misses(p.a, a_dimension), pack_b = misses(p.b, b_dimension);
  std::uint64_t k_run = k;
  if (k % vec != 0 && (a_dimension == 'k' || b_dimension == 'k') && (pack_a || pack_b)) {
    pack_a = pack_b = true;
    k_run = round_up(k, vec);
  }
  // Stored extents (rows x cols) of A, B and C as the kernels read them.
  const std::uint64_t a_rows = p.trans_a ? k : p.m, a_cols = p.trans_a ? p.m : k;
  const std::uint64_t b_rows = p.trans_b ? p.n : k, b_cols = p.trans_b ? k : p.n;
  const std::uint64_t a_rows_packed = p.trans_a ? k_run : round_up(a_rows, vec);
  const std::uint64_t a_cols_packed = p.trans_a ? round_up(a_cols, vec) : k_run;
  const std::uint64_t b_rows_packed = p.trans_b ? round_up(b_rows, vec) : k_run;
  const std::uint64_t b_cols_packed = p.trans_b ? k_run : round_up(b_cols, vec);
  const std::uint64_t c_rows = p.trans_c ? p.n : p.m, c_cols = p.trans_c ? p.m : p.n;

  // Workspace sections, each 64-element aligned: [packed A][packed B][K-slice partials][B panels].
  std::uint64_t workspace = 0;
  const std::uint64_t a_at = workspace;
  if (pack_a) {
    check_workspace_extent(a_rows_packed * a_cols_packed);
    workspace += round_up(a_rows_packed * a_cols_packed, 64);
  }
  const std::uint64_t b_at = workspace;
  if (pack_b) {
    check_workspace_extent(b_rows_packed * b_cols_packed);
    workspace += round_up(b_rows_packed * b_cols_packed, 64);
  }

  // 2. K slices: SPLIT at most, none shorter than kMinSliceK, and never more partial data than the operands
  // hold ((m + n) k elements against m n per slice).
  const bool splittable = variant == "regblock" || variant == "skinny_m" || variant == "skinny_n";
  std::uint64_t slices = 1, k_slice = k_run;
  if (splittable && config.value("SPLIT") > 1) {
    const std::uint64_t granule = variant == "regblock" ? static_cast<std::uint64_t>(config.value("TILE_K")) : vec;
    const double worth = static_cast<double>(p.m + p.n) * static_cast<double>(k_run) /
                         (static_cast<double>(p.m) * static_cast<double>(p.n));
    const std::uint64_t most = static_cast<std::uint64_t>(
        std::clamp<double>(std::min<double>(static_cast<double>(config.value("SPLIT")), worth), 1, kMaxSplit));
    k_slice = round_up(std::max(ceil_div(k_run, most), kMinSliceK), granule);
    slices = ceil_div(k_run, k_slice);
    if (slices <= 1) k_slice = k_run, slices = 1;
  }
  const std::uint64_t w_ld = round_up(c_cols, vec), w_stride = round_up(c_rows * w_ld, 64);
  const std::uint64_t w_at = workspace;
  if (slices > 1) {
    check_workspace_extent(c_rows * w_ld);
    workspace += slices * w_stride;
  }
  // 3. gemm_cpu with USE_PACKED_B: op(B) in k-major panels of WPT_N columns.
  const bool panels = variant == "cpu" && config.value("USE_PACKED_B") == 1;
  const std::uint64_t panel = panels ? static_cast<std::uint64_t>(config.value("WPT_N")) : 1;
  const std::uint64_t panel_stride = round_up(k * panel, 64);
  const std::uint64_t panels_at = workspace;
  if (panels) {
    check_workspace_extent(ceil_div(p.n, panel) * panel_stride);
    workspace += ceil_div(p.n, panel) * panel_stride;
  }

  // Programs are built before the workspace is leased: a compile never holds the workspace's lock.
  const std::shared_ptr<CompiledProgram> helpers = workspace > 0 ? helper_program(target, dtype) : nullptr;
  std::unique_ptr<WorkspaceLease> lease;
  if (workspace > 0)
    lease = std::make_unique<WorkspaceLease>(
        acquire_workspace(kOp, target.context, target.device, "gemm", workspace * sizeof(T), wait));
  cl::Buffer scratch = lease ? lease->buffer() : cl::Buffer();
  LaunchChain chain(queue, lease ? lease->wait_list() : wait, events);
  const cl::NDRange helper = helper_local(*target.info, 16, 16);

  Operand a = p.a, b = p.b, c = p.c;
  auto pack = [&](const Operand& source, std::uint64_t rows, std::uint64_t cols, std::uint64_t rows_packed,
                  std::uint64_t cols_packed, std::uint64_t at) {
    chain.launch(*helpers, "gemm_pack", helper_global(helper, cols_packed, rows_packed), helper,
                 static_cast<cl_int>(rows), static_cast<cl_int>(cols), *source.buffer,
                 static_cast<cl_ulong>(source.offset), static_cast<cl_int>(source.ld), cl_int{0},
                 static_cast<cl_int>(rows_packed), static_cast<cl_int>(cols_packed), scratch, static_cast<cl_ulong>(at),
                 static_cast<cl_int>(cols_packed));
    return Operand{&scratch, at, cols_packed};
  };
  if (pack_a) a = pack(p.a, a_rows, a_cols, a_rows_packed, a_cols_packed, a_at);
  if (pack_b) b = pack(p.b, b_rows, b_cols, b_rows_packed, b_cols_packed, b_at);
  if (panels) {
    const cl::NDRange local = helper_local(*target.info, 16, 4);
    const cl::NDRange global(round_up(panel, local.get()[0]), round_up(k, local.get()[1]), ceil_div(p.n, panel));
    chain.launch(*helpers, "gemm_pack_panels", global, cl::NDRange(local.get()[0], local.get()[1], 1),
                 static_cast<cl_int>(k), static_cast<cl_int>(p.n), *p.b.buffer, static_cast<cl_ulong>(p.b.offset),
                 static_cast<cl_int>(p.b.ld), static_cast<cl_int>(p.trans_b ? 1 : 0), static_cast<cl_int>(panel),
                 static_cast<cl_int>(panel_stride), scratch, static_cast<cl_ulong>(panels_at));
    b = Operand{&scratch, panels_at, panel_stride};
  }

  // The main kernel: into C, or into the partials (alpha 1, beta 0) when K is split.
  Operand out = c;
  std::uint64_t out_stride = 0;
  T kernel_alpha = alpha, kernel_beta = beta;
  if (slices > 1) {
    out = Operand{&scratch, w_at, w_ld};
    out_stride = w_stride;
    kernel_alpha = T(1);
    kernel_beta = T(0);
  }
  const std::string kernel_name = "gemm_" + variant;
  const std::uint64_t m = p.m, n = p.n;
  cl::NDRange global, local;
  std::uint64_t work_group = 0;
  auto free_work_group = [&](std::uint64_t x_items, std::uint64_t y_items) {
    const auto x = static_cast<std::uint64_t>(config.value("WG_X")),
               y = static_cast<std::uint64_t>(config.value("WG_Y"));
    if (x == 0 || y == 0) {
      global = cl::NDRange(x_items, y_items);
      local = cl::NullRange;
    } else {
      global = cl::NDRange(round_up(x_items, x), round_up(y_items, y));
      local = cl::NDRange(x, y);
      work_group = x * y;
    }
  };
  if (variant == "naive") {
    free_work_group(n, m);
  } else if (variant == "tiled") {
    const auto tile = static_cast<std::uint64_t>(config.value("TILE"));
    global = cl::NDRange(round_up(n, tile), round_up(m, tile));
    local = cl::NDRange(tile, tile);
    work_group = tile * tile;
  } else if (variant == "regblock") {
    const auto tile_m = static_cast<std::uint64_t>(config.value("TILE_M")),
               tile_n = static_cast<std::uint64_t>(config.value("TILE_N"));
    const std::uint64_t x = tile_n / static_cast<std::uint64_t>(config.value("WPT_N"));
    const std::uint64_t y = tile_m / static_cast<std::uint64_t>(config.value("WPT_M"));
    global = cl::NDRange(ceil_div(n, tile_n) * x, ceil_div(m, tile_m) * y, slices);
    local = cl::NDRange(x, y, 1);
    work_group = x * y;
  } else if (variant == "cpu") {
    free_work_group(ceil_div(n, static_cast<std::uint64_t>(config.value("WPT_N"))),
                    ceil_div(m, static_cast<std::uint64_t>(config.value("WPT_M"))));
  } else if (variant == "skinny_m" || variant == "skinny_n") {
    const auto x = static_cast<std::uint64_t>(config.value("WG_X")),
               y = static_cast<std::uint64_t>(config.value("WG_Y"));
    const auto rows = static_cast<std::uint64_t>(config.value("WPT_M"));
    if (variant == "skinny_m")
      global = cl::NDRange(ceil_div(n, x * vec) * x, y * slices, ceil_div(m, rows));
    else
      global = cl::NDRange(x * slices, ceil_div(m, y * rows) * y,
                           ceil_div(n, static_cast<std::uint64_t>(config.value("WPT_N"))));
    local = cl::NDRange(x, y, 1);
    work_group = x * y;
  } else {
    throw Error(kOp, "config", CL_INVALID_VALUE, "unknown variant '" + variant + "'");
  }
  check_work_group_fits(kOp, *program, kernel_name, work_group);
  if (splittable) {
    chain.launch(*program, kernel_name, global, local, static_cast<cl_int>(m), static_cast<cl_int>(n),
                 static_cast<cl_int>(k_run), kernel_alpha, *a.buffer, static_cast<cl_ulong>(a.offset),
                 static_cast<cl_int>(a.ld), *b.buffer, static_cast<cl_ulong>(b.offset), static_cast<cl_int>(b.ld),
                 kernel_beta, *out.buffer, static_cast<cl_ulong>(out.offset), static_cast<cl_int>(out.ld),
                 static_cast<cl_int>(k_slice), static_cast<cl_ulong>(out_stride));
  } else {
    chain.launch(*program, kernel_name, global, local, static_cast<cl_int>(m), static_cast<cl_int>(n),
                 static_cast<cl_int>(k_run), kernel_alpha, *a.buffer, static_cast<cl_ulong>(a.offset),
                 static_cast<cl_int>(a.ld), *b.buffer, static_cast<cl_ulong>(b.offset), static_cast<cl_int>(b.ld),
                 kernel_beta, *out.buffer, static_cast<cl_ulong>(out.offset), static_cast<cl_int>(out.ld));
  }
  if (slices > 1) {
    chain.launch(*helpers, "gemm_splitk_reduce", helper_global(helper, c_cols, c_rows), helper,
                 static_cast<cl_int>(c_rows), static_cast<cl_int>(c_cols), static_cast<cl_int>(slices), scratch,
                 static_cast<cl_ulong>(w_at), static_cast<cl_int>(w_ld), static_cast<cl_ulong>(w_stride), alpha, beta,
                 *c.buffer, static_cast<cl_ulong>(c.offset), static_cast<cl_int>(c.ld));
  }
  if (lease) lease->release_after(chain.last());
  return chain.last();
}

// ---- validation -------------------------------------------------------------------------------------------

// Elements a stored rows x cols matrix spans from its offset.
std::uint64_t span(Layout layout, std::uint64_t rows, std::uint64_t cols, std::uint64_t ld, const char* name) {
  if (rows == 0 || cols == 0) return 0;
  const std::uint64_t lines = layout == Layout::RowMajor ? rows : cols,
                      length = layout == Layout::RowMajor ? cols : rows;
  return checked_add(kOp, name, checked_multiply(kOp, name, lines - 1, ld), length);
}

template <typename T>
void validate(const QueueTarget& target, const Call& call) {
  const DTypeInfo& dtype = dtype_of<T>();
  check_dtype_supported(kOp, dtype, *target.info);
  check_kernel_extent(kOp, "m", call.m);
  check_kernel_extent(kOp, "n", call.n);
  check_kernel_extent(kOp, "k", call.k);
  const bool ta = call.trans_a == Transpose::Yes, tb = call.trans_b == Transpose::Yes;
  struct Stored {
    const char* name;
    const char* ld_name;
    const Operand* operand;
    std::uint64_t rows, cols;
  };
  const Stored matrices[] = {{"a", "lda", &call.a, ta ? call.k : call.m, ta ? call.m : call.k},
                             {"b", "ldb", &call.b, tb ? call.n : call.k, tb ? call.k : call.n},
                             {"c", "ldc", &call.c, call.m, call.n}};
  std::uint64_t spans[3];
  for (int i = 0; i < 3; ++i) {
    const Stored& s = matrices[i];
    const bool row_major = call.layout == Layout::RowMajor;
    const std::uint64_t minimum = std::max<std::uint64_t>(1, row_major ? s.cols : s.rows);
    if (s.operand->ld < minimum)
      throw Error(kOp, s.ld_name, CL_INVALID_VALUE,
                  std::to_string(s.operand->ld) + " is less than the " + (row_major ? "columns" : "rows") + " (" +
                      std::to_string(minimum) + ") of the stored " + std::to_string(s.rows) + " x " +
                      std::to_string(s.cols) + " " + (row_major ? "row-major" : "column-major") + " matrix " + s.name);
    check_kernel_extent(kOp, s.ld_name, s.operand->ld);
    spans[i] = span(call.layout, s.rows, s.cols, s.operand->ld, s.name);
    check_kernel_extent(kOp, s.name, spans[i]);
  }
  // Then the buffers (k == 0: A and B are not read, so not checked).
  for (int i = 0; i < 3; ++i)
    if (spans[i] > 0)
      check_buffer(kOp, matrices[i].name, *matrices[i].operand->buffer, target.context, matrices[i].operand->offset,
                   spans[i], dtype.size);
  // C must not overlap A or B (the kernels read A and B while C is written).
  check_no_overlap(kOp, "a", *call.a.buffer, call.a.offset, spans[0], "c", *call.c.buffer, call.c.offset, spans[2],
                   dtype.size);
  check_no_overlap(kOp, "b", *call.b.buffer, call.b.offset, spans[1], "c", *call.c.buffer, call.c.offset, spans[2],
                   dtype.size);
}

// ---- tuning subject ---------------------------------------------------------------------------------------

template <typename T>
class GemmSubject : public TuningSubject {
 public:
  explicit GemmSubject(std::string bucket) : bucket_(std::move(bucket)), shape_(bucket_info(bucket_)) {}

  TuningKey key() const override { return {kOp, dtype_of<T>().name, bucket_}; }
  std::string family() const override { return kFamily; }
  std::string timing_shape() const override {
    return std::to_string(shape_.m) + "x" + std::to_string(shape_.n) + "x" + std::to_string(shape_.k);
  }
  SearchSpace search_space(const DeviceInfo& device) const override {
    return gemm_search_space(dtype_of<T>(), bucket_, device);
  }
  Config default_config(const DeviceInfo& device) const override {
    return gemm_default_config(dtype_of<T>(), bucket_, device);
  }
  BuildOptions build_options(const Config& config) const override {
    const cl::Buffer* none = nullptr;
    const KernelProblem timing{
        shape_.m,           shape_.n, shape_.k, false, false, false, {none, 0, shape_.k}, {none, 0, shape_.n},
        {none, 0, shape_.n}};
    return build_options_for(dtype_of<T>(), config, oriented(timing, config.variant));
  }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    // Timing operands: a random block repeated (the values do not change the timing; filling hundreds of MiB
    // one random number at a time would).
    const std::vector<T> block = random_values<T>(65537, random);
    auto filled = [&](std::uint64_t count) {
      std::vector<T> values(count);
      for (std::uint64_t i = 0; i < count; ++i) values[i] = block[i % block.size()];
      return upload(context, queue_, values);
    };
    timing_a_ = filled(shape_.m * shape_.k);
    timing_b_ = filled(shape_.k * shape_.n);
    timing_c_ = filled(shape_.m * shape_.n);

    // Verification: a ragged problem (no dimension a multiple of any tile or vector width), row-major NN as
    // timed, with offsets and leading dimensions that break vector alignment; once with beta = 0 over NaN.
    // Elements outside the matrix (offset, row padding) must come back unchanged.
    verify_m_ = 133;
    verify_n_ = 129;
    if (bucket_ == "gemv-rows" || bucket_ == "skinny-rows") verify_m_ = 3;
    if (bucket_ == "gemv-dots" || bucket_ == "skinny-dots") verify_n_ = 3;
    const std::uint64_t m = verify_m_, n = verify_n_, k = kVerifyK;
    const std::uint64_t lda = k + 3, ldb = n + 5, ldc = n + 2;
    const auto a = random_values<T>(kOffset + m * lda, random), b = random_values<T>(kOffset + k * ldb, random);
    verify_c_values_ = random_values<T>(kOffset + m * ldc, random);
    verify_a_ = upload(context, queue_, a);
    verify_b_ = upload(context, queue_, b);
    verify_c_ = cl::Buffer(context, CL_MEM_READ_WRITE, verify_c_values_.size() * sizeof(T));
    inside_.assign(verify_c_values_.size(), false);
    for (std::uint64_t i = 0; i < m; ++i)
      for (std::uint64_t j = 0; j < n; ++j) inside_[kOffset + i * ldc + j] = true;
    const double eps = std::numeric_limits<T>::epsilon();
    for (double beta : {0.0, kBeta}) {
      std::vector<double> expected(verify_c_values_.begin(), verify_c_values_.end());
      std::vector<double> bound(expected.size(), 0.0);
      for (std::uint64_t i = 0; i < m; ++i) {
        for (std::uint64_t j = 0; j < n; ++j) {
          double sum = 0, magnitude = 0;
          for (std::uint64_t p = 0; p < k; ++p) {
            const double product = static_cast<double>(a[kOffset + i * lda + p]) * b[kOffset + p * ldb + j];
            sum += product;
            magnitude += std::abs(product);
          }
          const std::uint64_t at = kOffset + i * ldc + j;
          const double c = beta == 0 ? 0.0 : static_cast<double>(verify_c_values_[at]);
          expected[at] = kAlpha * sum + beta * c;
          bound[at] = static_cast<double>(k + 2) * eps * (std::abs(kAlpha) * magnitude + std::abs(beta * c));
        }
      }
      expected_.push_back(std::move(expected));
      bounds_.push_back(std::move(bound));
    }
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    const auto target = queue_target(kOp, queue);
    const Call call{Layout::RowMajor,
                    Transpose::No,
                    Transpose::No,
                    shape_.m,
                    shape_.n,
                    shape_.k,
                    {&timing_a_, 0, shape_.k},
                    {&timing_b_, 0, shape_.n},
                    {&timing_c_, 0, shape_.n}};
    std::vector<cl::Event> events;
    enqueue_gemm<T>(target, queue, config, call, T(1), T(0.5), nullptr, &events);
    return events;
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    const auto target = queue_target(kOp, queue);
    const std::uint64_t m = verify_m_, n = verify_n_, k = kVerifyK;
    const Call call{Layout::RowMajor,
                    Transpose::No,
                    Transpose::No,
                    m,
                    n,
                    k,
                    {&verify_a_, kOffset, k + 3},
                    {&verify_b_, kOffset, n + 5},
                    {&verify_c_, kOffset, n + 2}};
    for (std::size_t pass = 0; pass < expected_.size(); ++pass) {
      const bool beta_zero = pass == 0;
      std::vector<T> start = verify_c_values_;
      for (std::size_t i = 0; i < start.size(); ++i)
        if (beta_zero && inside_[i]) start[i] = std::numeric_limits<T>::quiet_NaN();
      queue.enqueueWriteBuffer(verify_c_, CL_TRUE, 0, start.size() * sizeof(T), start.data());
      enqueue_gemm<T>(target, queue, config, call, T(kAlpha), T(beta_zero ? 0.0 : kBeta), nullptr, nullptr).wait();
      const auto got = download<T>(queue, verify_c_, start.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        const double want = expected_[pass][i];
        if (!(std::abs(static_cast<double>(got[i]) - want) <= bounds_[pass][i]))
          return "element " + std::to_string(i) + " is " + std::to_string(got[i]) + ", expected " +
                 std::to_string(want) + (beta_zero ? " (beta = 0 over NaN)" : "");
      }
    }
    return {};
  }

  double work() const override { return 2.0 * static_cast<double>(shape_.m) * shape_.n * shape_.k; }
  const char* work_unit() const override { return "flop"; }

 private:
  static constexpr std::uint64_t kVerifyK = 517;  // splits into several slices of 16, 32 or 128
  static constexpr std::uint64_t kOffset = 3;
  static constexpr double kAlpha = 0.75, kBeta = -0.5;

  std::string bucket_;
  BucketInfo shape_;
  cl::CommandQueue queue_;
  cl::Buffer timing_a_, timing_b_, timing_c_;
  cl::Buffer verify_a_, verify_b_, verify_c_;
  std::uint64_t verify_m_ = 0, verify_n_ = 0;
  std::vector<T> verify_c_values_;
  std::vector<bool> inside_;
  std::vector<std::vector<double>> expected_, bounds_;
};

std::unique_ptr<TuningSubject> make_subject(const std::string& dtype, const std::string& bucket) {
  if (dtype == "float") return std::make_unique<GemmSubject<float>>(bucket);
  if (dtype == "double") return std::make_unique<GemmSubject<double>>(bucket);
  throw Error(kOp, "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not float or double");
}

// "MxNxK", optionally ":NN|NT|TN|TT" (transposes of A and B) and ":row|col" (layout), e.g. 1x4096x4096:NT.
Call parse_shape(const std::string& text) {
  std::string dims = text, rest;
  const auto colon = text.find(':');
  if (colon != std::string::npos) dims = text.substr(0, colon), rest = text.substr(colon);
  const auto sizes = parse_dimensions(kOp, dims, 3);
  Call call{Layout::RowMajor, Transpose::No, Transpose::No, sizes[0], sizes[1], sizes[2], {}, {}, {}};
  std::size_t at = 0;
  while (at < rest.size()) {
    const auto next = rest.find(':', at + 1);
    const std::string word = rest.substr(at + 1, next == std::string::npos ? std::string::npos : next - at - 1);
    at = next == std::string::npos ? rest.size() : next;
    if (word == "row" || word == "col") {
      call.layout = word == "row" ? Layout::RowMajor : Layout::ColMajor;
    } else if (word.size() == 2 && (word[0] == 'N' || word[0] == 'T') && (word[1] == 'N' || word[1] == 'T')) {
      call.trans_a = word[0] == 'T' ? Transpose::Yes : Transpose::No;
      call.trans_b = word[1] == 'T' ? Transpose::Yes : Transpose::No;
    } else {
      throw Error(kOp, "shape", CL_INVALID_VALUE,
                  "'" + text + "': expected MxNxK[:NN|NT|TN|TT][:row|col], e.g. 1x4096x4096:NT");
    }
  }
  return call;
}

template <typename T>
cl::Event run_gemm(const Config* explicit_config, cl::CommandQueue& queue, const Call& call, T alpha, T beta,
                   const std::vector<cl::Event>* wait, std::vector<cl::Event>* events) {
  // Checked even when there is nothing to do: an out-of-range enumerator is never a valid call.
  check_enum(kOp, "layout", call.layout);
  check_enum(kOp, "trans_a", call.trans_a);
  check_enum(kOp, "trans_b", call.trans_b);
  if (call.m == 0 || call.n == 0) return cl::Event();
  const auto target = queue_target(kOp, queue);
  validate<T>(target, call);
  check_wait_list(kOp, wait, target.context);
  Config config;
  const std::string bucket = classify(row_major(call));
  if (explicit_config != nullptr) {
    config = *explicit_config;
    const std::string why = gemm_search_space(dtype_of<T>(), bucket, *target.info).validate(config, *target.info);
    if (!why.empty()) throw Error(kOp, "config", CL_INVALID_VALUE, config.to_string() + ": " + why);
  } else if (alpha != T(0) && call.k != 0) {  // the scaling alone needs no tuned choice
    GemmSubject<T> subject(bucket);
    config = TuningService::instance().choose(target, subject).parameters;
  }
  return enqueue_gemm<T>(target, queue, config, call, alpha, beta, wait, events);
}

template <typename T>
Call make_call(Layout layout, Transpose trans_a, Transpose trans_b, std::size_t m, std::size_t n, std::size_t k,
               const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& b, std::size_t b_offset,
               std::size_t ldb, cl::Buffer& c, std::size_t c_offset, std::size_t ldc) {
  return {layout, trans_a, trans_b, m, n, k, {&a, a_offset, lda}, {&b, b_offset, ldb}, {&c, c_offset, ldc}};
}

}  // namespace

std::string gemm_bucket(Layout layout, Transpose trans_a, Transpose trans_b, std::uint64_t m, std::uint64_t n,
                        std::uint64_t k) {
  return classify(row_major(Call{layout, trans_a, trans_b, m, n, k, {}, {}, {}}));
}

std::vector<std::string> gemm_buckets() {
  std::vector<std::string> names;
  for (const auto& bucket : bucket_table()) names.emplace_back(bucket.name);
  return names;
}

Config gemm_default_config(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device) {
  return default_for(dtype, bucket, device);
}

SearchSpace gemm_search_space(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device) {
  const Config preferred = default_for(dtype, bucket, device);
  std::vector<VariantSpace> variants = all_variant_spaces(dtype, bucket);
  // The default's variant first, its candidates starting from the default's values.
  std::stable_partition(variants.begin(), variants.end(),
                        [&](const VariantSpace& space) { return space.variant == preferred.variant; });
  for (auto& parameter : variants.front().parameters)
    parameter.candidates = starting_with(preferred.values.at(parameter.name), parameter.candidates);
  return SearchSpace(std::move(variants));
}

template <typename T>
cl::Event gemm_with(const Config& config, cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                    std::size_t m, std::size_t n, std::size_t k, T alpha, const cl::Buffer& a, std::size_t a_offset,
                    std::size_t lda, const cl::Buffer& b, std::size_t b_offset, std::size_t ldb, T beta, cl::Buffer& c,
                    std::size_t c_offset, std::size_t ldc, const std::vector<cl::Event>* wait) {
  return run_gemm<T>(
      &config, queue,
      make_call<T>(layout, trans_a, trans_b, m, n, k, a, a_offset, lda, b, b_offset, ldb, c, c_offset, ldc), alpha,
      beta, wait, nullptr);
}

template <typename T>
std::vector<cl::Event> gemm_with_events(const Config& config, cl::CommandQueue& queue, Layout layout, Transpose trans_a,
                                        Transpose trans_b, std::size_t m, std::size_t n, std::size_t k, T alpha,
                                        const cl::Buffer& a, std::size_t a_offset, std::size_t lda, const cl::Buffer& b,
                                        std::size_t b_offset, std::size_t ldb, T beta, cl::Buffer& c,
                                        std::size_t c_offset, std::size_t ldc) {
  std::vector<cl::Event> events;
  run_gemm<T>(&config, queue,
              make_call<T>(layout, trans_a, trans_b, m, n, k, a, a_offset, lda, b, b_offset, ldb, c, c_offset, ldc),
              alpha, beta, nullptr, &events);
  return events;
}

std::vector<TunableOp> gemm_tunable_ops() {
  TunableOp op;
  std::vector<std::string> shapes;
  for (const auto& bucket : bucket_table())
    shapes.push_back(std::to_string(bucket.m) + "x" + std::to_string(bucket.n) + "x" + std::to_string(bucket.k));
  // The first shape validates overrides: the large bucket (every bucket's space holds every variant).
  std::rotate(shapes.begin(), shapes.end() - 1, shapes.end());
  op.description = {kOp,
                    kFamily,
                    {"float", "double"},
                    "MxNxK[:NN|NT|TN|TT][:row|col] (m, n, k as in BLAS; transposes of A and B; layout), e.g. "
                    "4096x4096x4096 or 1x4096x4096:NT; tuned per shape bucket: " +
                        [] {
                          std::string names;
                          for (const auto& bucket : bucket_table())
                            names += (names.empty() ? "" : ", ") + std::string(bucket.name);
                          return names;
                        }(),
                    shapes};
  op.make_subject = [](const std::string& dtype, const std::string& shape) {
    return make_subject(dtype, classify(row_major(parse_shape(shape))));
  };
  return {op};
}

#define TILECL_GEMM_INSTANTIATE(T)                                                                                    \
  template cl::Event gemm_with<T>(const Config&, cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t,        \
                                  std::size_t, std::size_t, T, const cl::Buffer&, std::size_t, std::size_t,           \
                                  const cl::Buffer&, std::size_t, std::size_t, T, cl::Buffer&, std::size_t,           \
                                  std::size_t, const std::vector<cl::Event>*);                                        \
  template std::vector<cl::Event> gemm_with_events<T>(const Config&, cl::CommandQueue&, Layout, Transpose, Transpose, \
                                                      std::size_t, std::size_t, std::size_t, T, const cl::Buffer&,    \
                                                      std::size_t, std::size_t, const cl::Buffer&, std::size_t,       \
                                                      std::size_t, T, cl::Buffer&, std::size_t, std::size_t);
TILECL_GEMM_INSTANTIATE(float)
TILECL_GEMM_INSTANTIATE(double)
#undef TILECL_GEMM_INSTANTIATE

}  // namespace detail

template <typename T>
detail::FloatingEvent<T> gemm(cl::CommandQueue& queue, Layout layout, Transpose trans_a, Transpose trans_b,
                              std::size_t m, std::size_t n, std::size_t k, T alpha, const cl::Buffer& a,
                              std::size_t a_offset, std::size_t lda, const cl::Buffer& b, std::size_t b_offset,
                              std::size_t ldb, T beta, cl::Buffer& c, std::size_t c_offset, std::size_t ldc,
                              const std::vector<cl::Event>* wait) {
  return detail::run_gemm<T>(
      nullptr, queue,
      detail::make_call<T>(layout, trans_a, trans_b, m, n, k, a, a_offset, lda, b, b_offset, ldb, c, c_offset, ldc),
      alpha, beta, wait, nullptr);
}

template cl::Event gemm<float>(cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t,
                               float, const cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                               std::size_t, float, cl::Buffer&, std::size_t, std::size_t,
                               const std::vector<cl::Event>*);
template cl::Event gemm<double>(cl::CommandQueue&, Layout, Transpose, Transpose, std::size_t, std::size_t, std::size_t,
                                double, const cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                                std::size_t, double, cl::Buffer&, std::size_t, std::size_t,
                                const std::vector<cl::Event>*);

}  // namespace tilecl
