// gemv's tuning: shape buckets, the search space, device-derived defaults, the tuning subject and the entry of
// `tilecl tune`.
//
// Buckets (R as the kernels see it, rows x cols; each has its own tuned choice; timing shape in brackets):
//   dots,<2^20     dots form, rows * cols < 2^20 (launch-bound)      [512 x 1024]
//   dots,<2^24     dots form, < 2^24 (cache-resident on large GPUs)  [2048 x 4096]
//   dots,>=2^24    dots form, larger (memory-bound)                  [8192 x 8192]
//   dots,multi     dots form, 2..8 vectors (gemm with n <= 8)        [4096 x 4096, 4 vectors]
// and the same four for the columns form.
#include "ops/gemv_tuning.hpp"

#include <algorithm>

#include "checks.hpp"
#include "ops/gemv.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

const std::vector<GemvBucketShape>& bucket_table() {
  static const std::vector<GemvBucketShape> table{
      {"dots,<2^20", GemvForm::Dots, 512, 1024, 1},         {"dots,<2^24", GemvForm::Dots, 2048, 4096, 1},
      {"dots,>=2^24", GemvForm::Dots, 8192, 8192, 1},       {"dots,multi", GemvForm::Dots, 4096, 4096, 4},
      {"columns,<2^20", GemvForm::Columns, 512, 1024, 1},   {"columns,<2^24", GemvForm::Columns, 2048, 4096, 1},
      {"columns,>=2^24", GemvForm::Columns, 8192, 8192, 1}, {"columns,multi", GemvForm::Columns, 4096, 4096, 4}};
  return table;
}

// ---- search space and defaults ------------------------------------------------------------------------------

bool valid_vector_width(std::int64_t vec) { return vec == 1 || vec == 2 || vec == 4 || vec == 8 || vec == 16; }
bool in_range(std::int64_t value, std::int64_t low, std::int64_t high) { return value >= low && value <= high; }

}  // namespace

std::vector<Constraint> gemv_constraints(std::size_t element) {
  return {{"VEC in {1, 2, 4, 8, 16}, WPT and UNROLL in [1, 16], SPLIT in [1, 64]",
           [](const Values& v, const DeviceInfo&) {
             return valid_vector_width(at(v, "VEC")) && in_range(at(v, "WPT"), 1, 16) &&
                    in_range(at(v, "UNROLL"), 1, 16) && in_range(at(v, "SPLIT"), 1, 64);
           }},
          {"WG_X and WG_Y are powers of two and WG_X x WG_Y fits the device",
           [](const Values& v, const DeviceInfo& d) {
             const auto x = at(v, "WG_X"), y = at(v, "WG_Y");
             if (!is_power_of_two(x) || !is_power_of_two(y) || x > 1024 || y > 1024) return false;
             return static_cast<std::uint64_t>(x) <= d.max_work_item_sizes[0] &&
                    static_cast<std::uint64_t>(y) <= d.max_work_item_sizes[1] &&
                    static_cast<std::uint64_t>(x * y) <= d.max_work_group_size;
           }},
          {"WG_X * WG_Y * WPT * VEC * 8 elements (the partial sums of 8 vectors) fit local memory",
           [element](const Values& v, const DeviceInfo& d) {
             const auto elements =
                 static_cast<std::uint64_t>(at(v, "WG_X") * at(v, "WG_Y") * at(v, "WPT") * at(v, "VEC"));
             return elements * kMaxGemvVectors * element <= d.local_memory_bytes;
           }}};
}

namespace {

// `values` with `first` moved to (or added at) the front.
std::vector<std::int64_t> starting_with(std::int64_t first, std::vector<std::int64_t> values) {
  values.erase(std::remove(values.begin(), values.end(), first), values.end());
  values.insert(values.begin(), first);
  return values;
}

Config gemv_config(std::int64_t vec, std::int64_t wpt, std::int64_t wg_x, std::int64_t wg_y, std::int64_t unroll,
                   std::int64_t split) {
  return {"gemv", {{"VEC", vec}, {"WPT", wpt}, {"WG_X", wg_x}, {"WG_Y", wg_y}, {"UNROLL", unroll}, {"SPLIT", split}}};
}

// The device's preferred configuration for a bucket's form and vector count, before fitting it to the device's
// limits.
Config preferred_config(const DTypeInfo& dtype, const GemvBucketShape& shape, const DeviceInfo& device) {
  const GemvForm form = shape.form;
  if (device.is_cpu() || !device.local_memory_is_dedicated) {
    // CPUs: no local memory; each work-item streams whole rows (dots: WPT rows at once) or a strip of WPT
    // SIMD vectors of columns down the rows, in one SIMD register's width. Fixed work-group sizes: PoCL
    // compiles a kernel per local size.
    const unsigned native = dtype.size == 8 ? device.native_vector_width_double : device.native_vector_width_float;
    std::int64_t vec = 1;
    while (vec * 2 <= std::min<std::int64_t>(16, native)) vec *= 2;
    if (form == GemvForm::Dots) return gemv_config(vec, 4, 1, 8, 2, 4);
    // Half down the columns: 8 vectors per work-item (256 bytes of each row). With 4 (128 bytes), as float takes,
    // gemv<half> 4096^2 transposed took 9.5-11 ms on PoCL (the 2-core Xeon VM, 2026-12-06; float 1.4-2.6 ms), with
    // 8 1.05-1.5 ms (bench/results/pocl-cpu/session10).
    if (is_half_storage(dtype) && shape.vectors == 1) return gemv_config(vec, 8, 8, 1, 2, 8);
    return gemv_config(vec, 4, 8, 1, 2, 8);
  }
  // GPUs: dots -- a warp-sized row of work-items per matrix row, 16-byte loads, four in flight each; columns --
  // 32 work-items across 32 neighbouring columns (128 contiguous bytes per row) and 8 rows of them, eight rows in
  // flight each, partial sums added in local memory, the depth split in 16 slices for enough work-groups. At most
  // 256 work-items: NVIDIA's driver allows these kernels no more on the H200 (CL_KERNEL_WORK_GROUP_SIZE 256; a
  // 32 x 32 work-group failed every transposed call there, 2026-12-01).
  // Several vectors down the columns (gemm with m of 2..8): 4 columns per work-item (each vector element loaded
  // serves 4 outputs), 64 work-items along the row, each summing its own rows, 8 in flight, and the depth in 64
  // slices. gemm m x 8192 x 8192 on the H200 for m = 2 / 4 / 8: 0.072 / 0.084 / 0.088 ms (93 / 80 / 77% of a copy
  // of the matrix), against 0.072 / 0.103 / 0.251 ms with the one-vector settings
  // (bench/experiments/explore_overrides.cpp, 2026-12-02).
  // Half storage, one vector: 8-byte loads for dots (two row pieces per work-item, 64 work-items along the row)
  // and 16-byte loads down the columns, 64 x 1 work-items, the depth in 64 slices. gemv 16384^2 on the H200:
  // N 0.141 ms (92% of a copy of A) against 0.281 ms with the float settings (16-byte loads, 32 x 4); T 0.174 ms
  // (75%) against 0.254 ms (explore_overrides gemv_half, 2026-12-02, run 7b).
  if (is_half_storage(dtype) && shape.vectors == 1)
    return form == GemvForm::Dots ? gemv_config(4, 2, 64, 1, 2, 64) : gemv_config(8, 1, 64, 1, 4, 64);
  if (form == GemvForm::Dots)
    return gemv_config(std::max<std::int64_t>(1, 16 / static_cast<std::int64_t>(dtype.size)), 1, 32, 8, 4, 16);
  if (shape.vectors > 1) return gemv_config(4, 1, 64, 1, 8, 64);
  return gemv_config(1, 1, 32, 8, 8, 16);
}

// The one variant: its parameters (candidates in search order, the first turning fastest) and constraints.
VariantSpace variant_space(const DTypeInfo& dtype) {
  return {"gemv",
          {{"UNROLL", {4, 2, 8, 1}},
           {"WPT", {1, 2, 4, 8}},
           {"VEC", {4, 1, 2, 8}},
           {"WG_Y", {8, 4, 1, 16, 32}},
           {"WG_X", {32, 8, 64, 1}},
           {"SPLIT", {16, 4, 1, 64}, ParameterKind::Launch}},
          gemv_constraints(is_half_storage(dtype) ? sizeof(float) : dtype.size)};  // partial sums in DTYPE
}

}  // namespace

SearchSpace gemv_search_space(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device) {
  const Config preferred = gemv_default_config(dtype, bucket, device);
  VariantSpace space = variant_space(dtype);
  for (auto& parameter : space.parameters)
    parameter.candidates = starting_with(preferred.value(parameter.name), parameter.candidates);
  return SearchSpace({space});
}

Config gemv_default_config(const DTypeInfo& dtype, const std::string& bucket, const DeviceInfo& device) {
  Config config = preferred_config(dtype, gemv_bucket_problem(bucket), device);
  // Halve the work-group (then the vector width) until the device holds it; one work-item always fits.
  const SearchSpace space({variant_space(dtype)});
  auto& v = config.values;
  while (!space.validate(config, device).empty() && v["WG_X"] * v["WG_Y"] * v["VEC"] > 1) {
    if (v["WG_Y"] > 1)
      v["WG_Y"] /= 2;
    else if (v["WG_X"] > 1)
      v["WG_X"] /= 2;
    else
      v["VEC"] /= 2;
  }
  return config;
}

BuildOptions gemv_build_options(const DTypeInfo& dtype, const Config& config, GemvForm form, std::uint64_t vectors) {
  BuildOptions options;
  // Half storage computes in float (kernels/gemv.cl, HALF_STORAGE).
  options.define("DTYPE", is_half_storage(dtype) ? "float" : dtype.cl_type);
  options.define("STORAGE", dtype.cl_type);
  if (is_half_storage(dtype)) options.define("HALF_STORAGE", std::int64_t{1});
  options.define("NUM_VECTORS", static_cast<std::int64_t>(vectors));
  options.define("FORM", form == GemvForm::Dots ? 1 : 2);
  for (const char* name : {"VEC", "WPT", "WG_X", "WG_Y", "UNROLL"}) options.define(name, config.value(name));
  return options;
}

std::size_t gemv_bucket_index(const GemvProblem& problem) {
  const double elements = static_cast<double>(problem.rows) * static_cast<double>(problem.cols);
  const std::size_t size_class = problem.vectors > 1 ? 3 : elements < 0x1p20 ? 0 : elements < 0x1p24 ? 1 : 2;
  return (problem.form == GemvForm::Dots ? 0 : 4) + size_class;  // bucket_table's order
}

std::string gemv_bucket(const GemvProblem& problem) { return bucket_table()[gemv_bucket_index(problem)].name; }

const GemvBucketShape& gemv_bucket_problem(const std::string& bucket) {
  for (const auto& entry : bucket_table())
    if (bucket == entry.name) return entry;
  throw Error(kGemvOp, "bucket", CL_INVALID_VALUE, "no shape bucket named '" + bucket + "'");
}

std::vector<std::string> gemv_buckets() {
  std::vector<std::string> names;
  for (const auto& bucket : bucket_table()) names.emplace_back(bucket.name);
  return names;
}

}  // namespace tilecl::detail
