// Batched gemm's tuning: shape buckets, search space, device-derived defaults and build options.
//
// Buckets, by the larger side of the matrices, max(m, n) (each has its own tuned choice; timing shape, batch x
// m x n x k, in brackets; gemm_strided_batched and gemm_batched are tuned separately, on the same shapes):
//   mn<=8    [16384 x 8x8x8]       mn<=16   [8192 x 16x16x16]      mn<=32   [4096 x 32x32x32]
//   mn<=64   [1024 x 64x64x64]     mn<=128  [256 x 128x128x128]    mn>128   [16 x 256x256x256]
#include <algorithm>

#include "ops/gemm_batched_parts.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

const std::vector<BatchedBucketShape>& bucket_table() {
  static const std::vector<BatchedBucketShape> table{
      {"mn<=8", 8, 16384, 8, 8, 8},     {"mn<=16", 16, 8192, 16, 16, 16},     {"mn<=32", 32, 4096, 32, 32, 32},
      {"mn<=64", 64, 1024, 64, 64, 64}, {"mn<=128", 128, 256, 128, 128, 128}, {"mn>128", 0, 16, 256, 256, 256}};
  return table;
}

bool in_range(std::int64_t value, std::int64_t low, std::int64_t high) { return value >= low && value <= high; }

// Bytes of the type the kernels compute in and keep in local memory: float for half storage.
std::size_t compute_size(const DTypeInfo& dtype) { return is_half_storage(dtype) ? sizeof(float) : dtype.size; }
bool valid_vector_width(std::int64_t vec) { return vec == 1 || vec == 2 || vec == 4 || vec == 8 || vec == 16; }

// A work-group x * y * z fits the device (each side checked before the product, so absurd values cannot overflow).
bool work_group_fits(std::int64_t x, std::int64_t y, std::int64_t z, const DeviceInfo& d) {
  if (x < 1 || y < 1 || z < 1) return false;
  if (static_cast<std::uint64_t>(x) > d.max_work_item_sizes[0] ||
      static_cast<std::uint64_t>(y) > d.max_work_item_sizes[1] ||
      static_cast<std::uint64_t>(z) > d.max_work_item_sizes[2])
    return false;
  return static_cast<std::uint64_t>(x * y * z) <= d.max_work_group_size;
}

// `values` with `first` moved to (or added at) the front.
std::vector<std::int64_t> starting_with(std::int64_t first, std::vector<std::int64_t> values) {
  values.erase(std::remove(values.begin(), values.end(), first), values.end());
  values.insert(values.begin(), first);
  return values;
}

// `element`: bytes of the compute type (local tiles); `storage`: bytes of an element in memory.
VariantSpace tiled_space(std::size_t element, std::size_t storage) {
  const auto local_vec = static_cast<std::int64_t>(16 / element);
  const auto widest = static_cast<std::int64_t>(16 / storage);
  return {
      "tiled",
      {{"PAD", {4, 1, 0}},
       {"USE_LOCAL_VECTORS", {1, 0}},
       {"MATS", {1, 2, 4, 8}},
       {"TILE_K", {16, 32, 8}},
       {"WPT_N", {4, 2, 8, 1}},
       {"WPT_M", {4, 2, 8, 1}},
       {"TILE_N", {32, 64, 16, 8}},
       {"TILE_M", {32, 64, 16, 8}},
       {"LOAD_VEC", starting_with(widest, {4, 2, 1, 8})},
       {"PREFETCH_C", {0, 1}},
       {"DOUBLE_BUFFER", {0, 1}}},
      {{"TILE_M, TILE_N, TILE_K in [1, 256], WPT_M, WPT_N in [1, 16] (at most 64 outputs), MATS in [1, 64], PAD in "
        "[0, 16]",
        [](const Values& v, const DeviceInfo&) {
          for (const char* name : {"TILE_M", "TILE_N", "TILE_K"})
            if (!in_range(at(v, name), 1, 256)) return false;
          return in_range(at(v, "WPT_M"), 1, 16) && in_range(at(v, "WPT_N"), 1, 16) &&
                 at(v, "WPT_M") * at(v, "WPT_N") <= 64 && in_range(at(v, "MATS"), 1, 64) &&
                 in_range(at(v, "PAD"), 0, 16);
        }},
       {"TILE_M % WPT_M == 0 and TILE_N % WPT_N == 0",
        [](const Values& v, const DeviceInfo&) {
          return at(v, "TILE_M") % at(v, "WPT_M") == 0 && at(v, "TILE_N") % at(v, "WPT_N") == 0;
        }},
       {"the work-group (TILE_N / WPT_N) x (TILE_M / WPT_M) x MATS fits the device",
        [](const Values& v, const DeviceInfo& d) {
          return work_group_fits(at(v, "TILE_N") / at(v, "WPT_N"), at(v, "TILE_M") / at(v, "WPT_M"), at(v, "MATS"), d);
        }},
       {"USE_LOCAL_VECTORS is 0 or 1; if 1, WPT_M, WPT_N, TILE_M + PAD and TILE_N + PAD are multiples of 16 bytes "
        "of elements",
        [local_vec](const Values& v, const DeviceInfo&) {
          const auto use = at(v, "USE_LOCAL_VECTORS");
          if (use == 0) return true;
          return use == 1 && at(v, "WPT_M") % local_vec == 0 && at(v, "WPT_N") % local_vec == 0 &&
                 (at(v, "TILE_M") + at(v, "PAD")) % local_vec == 0 && (at(v, "TILE_N") + at(v, "PAD")) % local_vec == 0;
        }},
       {"LOAD_VEC in {1, 2, 4, 8}, at most 16 bytes; PREFETCH_C and DOUBLE_BUFFER 0 or 1",
        [widest](const Values& v, const DeviceInfo&) {
          const auto load = at(v, "LOAD_VEC");
          return (load == 1 || load == 2 || load == 4 || load == 8) && load <= widest &&
                 in_range(at(v, "PREFETCH_C"), 0, 1) && in_range(at(v, "DOUBLE_BUFFER"), 0, 1);
        }},
       {"MATS * TILE_K * (TILE_M + TILE_N + 2 * PAD) elements fit local memory",
        [element](const Values& v, const DeviceInfo& d) {
          const auto elements =
              at(v, "MATS") * at(v, "TILE_K") * (at(v, "TILE_M") + at(v, "TILE_N") + 2 * at(v, "PAD"));
          return static_cast<std::uint64_t>(elements) * element <= d.local_memory_bytes;
        }}}};
}

VariantSpace cpu_space() {
  return {"cpu",
          {{"WPT_M", {4, 2, 8, 1}},
           {"WPT_N", {16, 8, 32, 4}},
           {"VEC", {8, 4, 16, 2, 1}},
           {"WG_X", {1, 2, 4}, ParameterKind::Launch},
           {"WG_Y", {8, 4, 1, 16}, ParameterKind::Launch}},
          {{"WPT_M, WPT_N in [1, 64], VEC in {1, 2, 4, 8, 16} dividing WPT_N",
            [](const Values& v, const DeviceInfo&) {
              return in_range(at(v, "WPT_M"), 1, 64) && in_range(at(v, "WPT_N"), 1, 64) &&
                     valid_vector_width(at(v, "VEC")) && at(v, "WPT_N") % at(v, "VEC") == 0;
            }},
           {"WG_X x WG_Y fits the device",
            [](const Values& v, const DeviceInfo& d) { return work_group_fits(at(v, "WG_X"), at(v, "WG_Y"), 1, d); }}}};
}

// Vector local reads with a padding of 4 where the outputs per work-item allow it, else strided outputs with a
// padding of 1; global accesses of 16 bytes (`storage` bytes an element) where the call's alignment allows
// (element by element, the H100 took 1.6-2.3x longer at 32^3 to 128^3: bench/results/nvidia-h100/session14).
Config tiled_config(std::size_t storage, std::int64_t tile_m, std::int64_t tile_n, std::int64_t tile_k,
                    std::int64_t wpt_m, std::int64_t wpt_n, std::int64_t mats, std::int64_t double_buffer) {
  const bool vectors = wpt_m % 4 == 0 && wpt_n % 4 == 0;
  return {"tiled",
          {{"TILE_M", tile_m},
           {"TILE_N", tile_n},
           {"TILE_K", tile_k},
           {"WPT_M", wpt_m},
           {"WPT_N", wpt_n},
           {"MATS", mats},
           {"PAD", vectors ? 4 : 1},
           {"USE_LOCAL_VECTORS", vectors ? 1 : 0},
           {"LOAD_VEC", static_cast<std::int64_t>(16 / storage)},
           {"PREFETCH_C", 0},
           {"DOUBLE_BUFFER", double_buffer}}};
}

Config cpu_config(std::int64_t wpt_m, std::int64_t wpt_n, std::int64_t vec, std::int64_t wg_x, std::int64_t wg_y) {
  return {"cpu", {{"WPT_M", wpt_m}, {"WPT_N", wpt_n}, {"VEC", vec}, {"WG_X", wg_x}, {"WG_Y", wg_y}}};
}

// The preferred configurations of a bucket, best first (the first the device holds is the default).
std::vector<Config> preferred_configs(const DTypeInfo& dtype, const BatchedBucketShape& bucket,
                                      const DeviceInfo& device) {
  const std::uint64_t side = bucket.max_side;
  if (device.is_cpu() || !device.local_memory_is_dedicated) {
    // CPUs: one SIMD register of the element type per vector, 4 rows by up to two vectors per work-item,
    // fixed work-group sizes (PoCL compiles a kernel per local size).
    const unsigned native = dtype.size == 8 ? device.native_vector_width_double : device.native_vector_width_float;
    std::int64_t vec = 1;
    while (vec * 2 <= std::min<std::int64_t>(16, native)) vec *= 2;
    const std::int64_t wpt_n = side != 0 && side <= static_cast<std::uint64_t>(vec) ? vec : 2 * vec;
    return {cpu_config(4, wpt_n, vec, 1, side != 0 && side <= 16 ? 2 : 4), cpu_config(1, 1, 1, 1, 1)};
  }
  // GPUs: a whole small matrix per work-group (several when tiny: 64 to 256 work-items a group), 4 x 4 outputs
  // per work-item at 32 x 32; larger matrices in 64 x 64 tiles, 8 x 4 outputs per work-item, K in steps of 16 with
  // the next step's loads issued before the current step's products (H100, session 14: 13% faster than without at
  // 128^3, 4% at 64^3; double buffering lost 8% at 32^3, one K step). A call's matrices smaller than the tile get
  // it fitted to them (gemm_batched_fit_config).
  std::vector<Config> configs;
  const std::size_t bytes = dtype.size;
  const auto tiled = [&](std::int64_t tm, std::int64_t tn, std::int64_t tk, std::int64_t wm, std::int64_t wn,
                         std::int64_t mats, std::int64_t double_buffer) {
    configs.push_back(tiled_config(bytes, tm, tn, tk, wm, wn, mats, double_buffer));
  };
  if (side != 0 && side <= 8) tiled(8, 8, 8, 2, 2, 8, 0);
  if (side != 0 && side <= 16) tiled(16, 16, 16, 2, 2, 4, 0);
  if (side != 0 && side <= 32) tiled(32, 32, 16, 4, 4, 2, 0);
  tiled(64, 64, 16, 8, 4, 1, 1);
  tiled(32, 32, 8, 4, 4, 1, 0);
  tiled(8, 8, 8, 1, 1, 1, 0);
  configs.push_back(cpu_config(1, 1, 1, 1, 1));
  return configs;
}

}  // namespace

std::uint64_t common_alignment(std::initializer_list<std::uint64_t> values) {
  for (std::uint64_t width : {8, 4, 2})
    if (std::all_of(values.begin(), values.end(), [width](std::uint64_t v) { return v % width == 0; })) return width;
  return 1;
}

std::uint64_t common_alignment(std::uint64_t ld, const std::vector<std::size_t>& offsets) {
  std::uint64_t bits = ld;
  for (std::size_t offset : offsets) bits |= offset;
  return common_alignment({bits});  // a power of two divides every value iff it divides their bitwise or
}

const BatchedBucketShape& gemm_batched_bucket_shape(const std::string& bucket) {
  for (const auto& entry : bucket_table())
    if (bucket == entry.name) return entry;
  throw Error("gemm_batched", "bucket", CL_INVALID_VALUE, "no shape bucket named '" + bucket + "'");
}

std::string gemm_batched_bucket(std::uint64_t m, std::uint64_t n) {
  const std::uint64_t side = std::max(m, n);
  for (const auto& entry : bucket_table())
    if (entry.max_side == 0 || side <= entry.max_side) return entry.name;
  return bucket_table().back().name;
}

std::vector<std::string> gemm_batched_buckets() {
  std::vector<std::string> names;
  for (const auto& entry : bucket_table()) names.emplace_back(entry.name);
  return names;
}

Config gemm_batched_default_config(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device) {
  const SearchSpace space({tiled_space(compute_size(dtype), dtype.size), cpu_space()});
  const auto configs = preferred_configs(dtype, gemm_batched_bucket_shape(bucket), device);
  for (const auto& config : configs)
    if (space.validate(config, device).empty()) return config;
  return configs.back();
}

SearchSpace gemm_batched_search_space(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device) {
  const Config preferred = gemm_batched_default_config(dtype, bucket, device);
  std::vector<VariantSpace> variants{tiled_space(compute_size(dtype), dtype.size), cpu_space()};
  std::stable_partition(variants.begin(), variants.end(),
                        [&](const VariantSpace& space) { return space.variant == preferred.variant; });
  for (auto& parameter : variants.front().parameters)
    parameter.candidates = starting_with(preferred.value(parameter.name), parameter.candidates);
  return SearchSpace(std::move(variants));
}

// Work-items below which a group of several thin matrices takes fewer outputs per work-item. H100, strided-batched
// SGEMM of 15708 matrices 115 x 1 x 11 (TN): the 64 x 64 default fitted to 64 x 1 with 8 outputs a work-item and two
// matrices a group (16 work-items) took 0.612 ms, CLBlast 0.251; with 2 outputs (64 work-items) 0.133 ms
// (bench/results/nvidia-h100/session19, run 4).
constexpr std::int64_t kThinGroup = 64;

std::uint64_t gemm_batched_matrices_cap(std::uint64_t batch, const DeviceInfo& device) {
  const std::uint64_t units = std::max(1u, device.compute_units);
  std::uint64_t cap = 1;
  while (cap * 2 * 2 * units <= batch) cap *= 2;
  return cap;
}

Config gemm_batched_fit_config(const DTypeInfo& dtype, const Config& config, std::uint64_t m, std::uint64_t n,
                               std::uint64_t k, std::uint64_t batch, const DeviceInfo& device) {
  if (config.variant != "tiled" || m == 0 || n == 0) return config;
  const auto value = [&](const char* name) { return config.value(name); };
  const auto power_of_two_at_least = [](std::uint64_t x) {
    std::int64_t p = 1;
    while (static_cast<std::uint64_t>(p) < x) p *= 2;
    return p;
  };
  const std::int64_t tm = value("TILE_M"), tn = value("TILE_N"), tk = value("TILE_K");
  const std::int64_t wm = value("WPT_M"), wn = value("WPT_N"), mats = value("MATS"), pad = value("PAD");
  const std::int64_t tm2 = std::min(tm, power_of_two_at_least(m)), tn2 = std::min(tn, power_of_two_at_least(n));
  const std::int64_t tk2 = k == 0 ? tk : std::min(tk, power_of_two_at_least(k));
  // Only tiles that are powers of two shrink (a tuned odd tile stays as it is).
  if ((tm2 == tm && tn2 == tn && tk2 == tk) || !is_power_of_two(tm) || !is_power_of_two(tn) || !is_power_of_two(tk) ||
      !is_power_of_two(wm) || !is_power_of_two(wn))
    return config;
  std::int64_t wm2 = std::min(wm, tm2), wn2 = std::min(wn, tn2);
  const std::int64_t threads = (tm / wm) * (tn / wn) * mats;
  const auto local = [](std::int64_t t_m, std::int64_t t_n, std::int64_t t_k, std::int64_t p, std::int64_t z) {
    return z * t_k * (t_m + t_n + 2 * p);
  };
  const auto local_vec = static_cast<std::int64_t>(16 / compute_size(dtype));
  const auto keeps_vectors = [&] {  // vector local reads still possible with these outputs per work-item
    return value("USE_LOCAL_VECTORS") == 1 && wm2 % local_vec == 0 && wn2 % local_vec == 0 &&
           (tm2 + pad) % local_vec == 0 && (tn2 + pad) % local_vec == 0;
  };
  const auto pad_for = [&](bool vectors) { return vectors || value("USE_LOCAL_VECTORS") == 0 ? pad : 1; };
  // Matrices per group: as many as keep the group's work-items and local memory, within the batch's cap.
  const auto batch_cap = static_cast<std::int64_t>(gemm_batched_matrices_cap(batch, device));
  const std::int64_t pad2 = pad_for(keeps_vectors());
  std::int64_t mats2 = 1;
  while (mats2 * 2 <= std::min<std::int64_t>(64, batch_cap) && (tm2 / wm2) * (tn2 / wn2) * mats2 * 2 <= threads &&
         local(tm2, tn2, tk2, pad2, mats2 * 2) <= local(tm, tn, tk, pad, mats))
    mats2 *= 2;
  // Fewer outputs per work-item, up to the group's former work-items, where the group would be small: a batch too
  // small to fill the device (one matrix a group), or a thin tile whose matrices per group local memory holds back
  // (a group under kThinGroup work-items).
  const auto group = [&] { return (tm2 / wm2) * (tn2 / wn2) * mats2; };
  while (group() * 2 <= threads && (wm2 > 1 || wn2 > 1) && (mats2 == 1 || group() < kThinGroup)) {
    if (wm2 >= wn2)
      wm2 /= 2;
    else
      wn2 /= 2;
  }
  const bool vectors = keeps_vectors();
  Config fitted = config;
  fitted.values["TILE_M"] = tm2, fitted.values["TILE_N"] = tn2, fitted.values["TILE_K"] = tk2;
  fitted.values["WPT_M"] = wm2, fitted.values["WPT_N"] = wn2, fitted.values["MATS"] = mats2;
  fitted.values["USE_LOCAL_VECTORS"] = vectors ? 1 : 0, fitted.values["PAD"] = pad_for(vectors);
  return fitted;
}

BuildOptions gemm_batched_build_options(const DTypeInfo& dtype, const Config& config, bool trans_a, bool trans_b,
                                        bool per_matrix, const OperandAlignment& alignment) {
  static const SearchSpace space({tiled_space(4, 1), cpu_space()});
  BuildOptions options;
  // Half storage computes in float (kernels/gemm_batched.cl, HALF_STORAGE): local tiles and scalars are floats.
  options.define("DTYPE", is_half_storage(dtype) ? "float" : dtype.cl_type);
  options.define("STORAGE", dtype.cl_type);
  if (is_half_storage(dtype)) options.define("HALF_STORAGE", std::int64_t{1});
  options.define("TRANS_A", trans_a ? 1 : 0);
  options.define("TRANS_B", trans_b ? 1 : 0);
  options.define("USE_OFFSETS", per_matrix ? 1 : 0);
  options.define("LOCAL_VEC", static_cast<std::int64_t>(16 / compute_size(dtype)));
  if (config.variant == "tiled") {  // the CPU kernel has no use for them: one program whatever the alignment
    options.define("ALIGN_A", static_cast<std::int64_t>(alignment.a));
    options.define("ALIGN_B", static_cast<std::int64_t>(alignment.b));
    options.define("ALIGN_C", static_cast<std::int64_t>(alignment.c));
  }
  options.define("VARIANT", config.variant == "tiled" ? 1 : 2);  // only the configuration's kernel
  space.add_build_macros(config, options);
  return options;
}

}  // namespace tilecl::detail
