// transpose: validate -> parameters -> program -> kernel lease -> enqueue.
#include "ops/transpose.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "checks.hpp"
#include "launch.hpp"
#include "ops/tunable_ops.hpp"
#include "program_cache.hpp"
#include "tilecl/error.hpp"
#include "tilecl/transpose.hpp"
#include "tuning/scratch.hpp"
#include "tuning/tuning_service.hpp"

namespace tilecl {
namespace detail {
namespace {

constexpr const char* kFamily = "transpose";
constexpr const char* kOp = "transpose";
// Work-groups along y per launch: drivers built on CUDA limit the grid's y extent to 65535 groups, so taller
// matrices are transposed in bands of rows (each band's offsets keep every alignment of the whole).
constexpr std::uint64_t kMaxGroupsY = 32768;

struct Matrix {
  std::uint64_t rows, cols;
  const cl::Buffer* in;
  std::uint64_t in_offset, ld_in;
  cl::Buffer* out;
  std::uint64_t out_offset, ld_out;
};

// The kernels move bits: float and int32 share the programs of uint, double those of ulong (no fp64 needed).
const char* bits_type(const DTypeInfo& dtype) {
  if (dtype.size == 1) return "uchar";
  return dtype.size == 8 ? "ulong" : "uint";
}

void validate(const QueueTarget& target, const DTypeInfo& dtype, const Matrix& m) {
  check_kernel_extent(kOp, "rows", m.rows);
  check_kernel_extent(kOp, "cols", m.cols);
  if (m.ld_in < m.cols)
    throw Error(kOp, "ld_in", CL_INVALID_VALUE,
                "ld_in (" + std::to_string(m.ld_in) + ") is less than cols (" + std::to_string(m.cols) + ")");
  if (m.ld_out < m.rows)
    throw Error(kOp, "ld_out", CL_INVALID_VALUE,
                "ld_out (" + std::to_string(m.ld_out) + ") is less than rows (" + std::to_string(m.rows) + ")");
  check_kernel_extent(kOp, "ld_in", m.ld_in);
  check_kernel_extent(kOp, "ld_out", m.ld_out);
  // Exact extents: the last row ends at its last element, not at the leading dimension.
  const std::uint64_t in_extent = checked_add(kOp, "in", checked_multiply(kOp, "in", m.rows - 1, m.ld_in), m.cols);
  const std::uint64_t out_extent = checked_add(kOp, "out", checked_multiply(kOp, "out", m.cols - 1, m.ld_out), m.rows);
  check_buffer(kOp, "in", *m.in, target.context, m.in_offset, in_extent, dtype.size);
  check_buffer(kOp, "out", *m.out, target.context, m.out_offset, out_extent, dtype.size);
  check_no_overlap(kOp, "in", *m.in, m.in_offset, in_extent, "out", *m.out, m.out_offset, out_extent, dtype.size);
}

std::string kernel_of(const Config& config) {
  return std::string("transpose_") + (config.variant == "padded" ? "tiled" : config.variant);
}

// The build parameters of each variant (the search space declares the same split between build and launch).
BuildOptions build_options_for(const DTypeInfo& dtype, const Config& config) {
  BuildOptions options;
  options.define("DTYPE", bits_type(dtype));
  if (config.variant == "tiled" || config.variant == "padded") {
    for (const char* name : {"TILE", "VEC", "WG_Y"}) options.define(name, config.value(name));
    options.define("PAD", config.variant == "padded" ? config.value("PAD") : 0);
  } else if (config.variant == "block") {
    for (const char* name : {"VEC", "USE_SHUFFLE"}) options.define(name, config.value(name));
  }
  return options;
}

// The NDRange of one launch over `rows` rows.
struct Geometry {
  std::uint64_t global_x, global_y;
  std::uint64_t local_x, local_y;  // 0: the driver chooses
  std::uint64_t rows_per_group_y;  // rows one work-group (or, with a null local size, one work-item) covers
};

Geometry geometry_of(const Config& config, std::uint64_t rows, std::uint64_t cols) {
  if (config.variant == "tiled" || config.variant == "padded") {
    const std::uint64_t tile = config.value("TILE"), vec = config.value("VEC"), wg_y = config.value("WG_Y");
    return {ceil_div(cols, tile) * (tile / vec), ceil_div(rows, tile) * wg_y, tile / vec, wg_y, tile};
  }
  const std::uint64_t vec = config.variant == "block" ? config.value("VEC") : 1;
  const std::uint64_t lx = config.value("WG_X"), ly = config.value("WG_Y");
  const std::uint64_t items_x = ceil_div(cols, vec), items_y = ceil_div(rows, vec);
  if (lx == 0) return {items_x, items_y, 0, 0, vec};
  return {round_up(items_x, lx), round_up(items_y, ly), lx, ly, vec * ly};
}

cl::Event launch(const QueueTarget& target, cl::CommandQueue& queue, const DTypeInfo& dtype, const Config& config,
                 const Matrix& m, const std::vector<cl::Event>* wait) {
  auto program =
      ProgramCache::instance().get(target.context, target.device, kFamily, build_options_for(dtype, config), kOp);
  const std::string kernel_name = kernel_of(config);
  const Geometry whole = geometry_of(config, m.rows, m.cols);
  check_work_group_fits(kOp, *program, kernel_name, whole.local_x * whole.local_y);

  const std::uint64_t band = kMaxGroupsY * whole.rows_per_group_y;
  std::vector<cl::Event> events;
  for (std::uint64_t first_row = 0; first_row < m.rows; first_row += band) {
    const std::uint64_t rows = std::min(band, m.rows - first_row);
    const Geometry g = geometry_of(config, rows, m.cols);
    auto lease = program->lease(kernel_name, kOp);
    set_kernel_args(kOp, lease.kernel(), static_cast<cl_int>(rows), static_cast<cl_int>(m.cols), *m.in,
                    static_cast<cl_ulong>(m.in_offset + first_row * m.ld_in), static_cast<cl_int>(m.ld_in), *m.out,
                    static_cast<cl_ulong>(m.out_offset + first_row), static_cast<cl_int>(m.ld_out));
    events.push_back(enqueue_kernel(kOp, queue, lease.kernel(), cl::NDRange(g.global_x, g.global_y),
                                    g.local_x > 0 ? cl::NDRange(g.local_x, g.local_y) : cl::NullRange, wait));
  }
  if (events.size() == 1) return events.front();
  cl::Event done;
  try {
    queue.enqueueMarkerWithWaitList(&events, &done);
  } catch (const cl::Error& error) {
    throw Error(kOp, "queue", error.err(), "enqueueing the marker that joins the bands failed");
  }
  return done;
}

// A transpose that is a contiguous copy: a single row written to a contiguous column, or a contiguous column
// written to a single row.
bool is_contiguous_copy(const Matrix& m) { return (m.rows == 1 && m.ld_out == 1) || (m.cols == 1 && m.ld_in == 1); }

cl::Event enqueue_copy(cl::CommandQueue& queue, const DTypeInfo& dtype, const Matrix& m,
                       const std::vector<cl::Event>* wait) {
  cl::Event event;
  try {
    queue.enqueueCopyBuffer(*m.in, *m.out, m.in_offset * dtype.size, m.out_offset * dtype.size,
                            m.rows * m.cols * dtype.size, wait, &event);
  } catch (const cl::Error& error) {
    throw Error(kOp, "copy", error.err(), "enqueueing the copy of a single row or column failed");
  }
  return event;
}

// Shape buckets: tiny problems (launch-bound), thin matrices (one side below 32: tiles are mostly empty),
// medium and large.
struct Bucket {
  const char* name;
  std::uint64_t timing_rows, timing_cols;
};
Bucket bucket_of(std::uint64_t rows, std::uint64_t cols) {
  const std::uint64_t elements = rows * cols;
  if (elements < (1u << 16)) return {"rows*cols<2^16", 128, 256};
  if (std::min(rows, cols) < 32) return {"min(rows,cols)<32", 16, 32768};
  if (elements < (1u << 22)) return {"rows*cols<2^22", 1024, 1024};
  return {"rows*cols>=2^22", 4096, 4096};
}

template <typename T>
class TransposeSubject : public TuningSubject {
 public:
  TransposeSubject(std::uint64_t rows, std::uint64_t cols) : bucket_(bucket_of(rows, cols)) {}

  TuningKey key() const override { return {kOp, dtype_of<T>().name, bucket_.name}; }
  std::string family() const override { return kFamily; }
  std::string timing_shape() const override {
    return std::to_string(bucket_.timing_rows) + "x" + std::to_string(bucket_.timing_cols);
  }
  SearchSpace search_space(const DeviceInfo& device) const override {
    return transpose_search_space(dtype_of<T>(), device);
  }
  Config default_config(const DeviceInfo& device) const override {
    return transpose_default_config(dtype_of<T>(), device);
  }
  BuildOptions build_options(const Config& config) const override { return build_options_for(dtype_of<T>(), config); }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    const std::uint64_t elements = bucket_.timing_rows * bucket_.timing_cols;
    timing_in_ = upload(context, queue_, random_values<T>(elements, random));
    timing_out_ = cl::Buffer(context, CL_MEM_READ_WRITE, elements * sizeof(T));
    for (auto& check : checks_) {
      const std::size_t in_size = check.in_offset + (check.rows - 1) * check.ld_in + check.cols + 7;
      const std::size_t out_size = check.out_offset + (check.cols - 1) * check.ld_out + check.rows + 7;
      check.in_values = random_values<T>(in_size, random);
      check.poisoned_out.assign(out_size, T{});
      std::memset(check.poisoned_out.data(), 0xA7, out_size * sizeof(T));
      check.expected = check.poisoned_out;
      for (std::size_t r = 0; r < check.rows; ++r)
        for (std::size_t c = 0; c < check.cols; ++c)
          check.expected[check.out_offset + c * check.ld_out + r] =
              check.in_values[check.in_offset + r * check.ld_in + c];
      check.in = upload(context, queue_, check.in_values);
      check.out = cl::Buffer(context, CL_MEM_READ_WRITE, out_size * sizeof(T));
    }
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    auto target = queue_target(kOp, queue);
    Matrix m{bucket_.timing_rows, bucket_.timing_cols, &timing_in_, 0,
             bucket_.timing_cols, &timing_out_,        0,           bucket_.timing_rows};
    return {launch(target, queue, dtype_of<T>(), config, m, nullptr)};
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    auto target = queue_target(kOp, queue);
    for (auto& check : checks_) {
      queue.enqueueWriteBuffer(check.out, CL_TRUE, 0, check.poisoned_out.size() * sizeof(T), check.poisoned_out.data());
      Matrix m{check.rows,  check.cols, &check.in,        check.in_offset,
               check.ld_in, &check.out, check.out_offset, check.ld_out};
      launch(target, queue, dtype_of<T>(), config, m, nullptr).wait();
      const auto got = download<T>(queue, check.out, check.expected.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        // A transpose moves bits: compare representations, so that -0.0 for 0.0 or a changed NaN payload fails.
        // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): bit-for-bit equality is the point.
        if (std::memcmp(&got[i], &check.expected[i], sizeof(T)) != 0)
          return "element " + std::to_string(i) + " of the " + std::to_string(check.rows) + "x" +
                 std::to_string(check.cols) + " output differs";
      }
    }
    return {};
  }

  double work() const override {
    return 2.0 * static_cast<double>(bucket_.timing_rows * bucket_.timing_cols) * sizeof(T);
  }
  const char* work_unit() const override { return "byte"; }

 private:
  struct Check {
    std::size_t rows, cols, in_offset, ld_in, out_offset, ld_out;
    std::vector<T> in_values, poisoned_out, expected;
    cl::Buffer in, out;
  };

  Bucket bucket_;
  cl::CommandQueue queue_;
  cl::Buffer timing_in_, timing_out_;
  // Aligned to 16 elements (the vector paths run), then ragged and misaligned (the edge and vloadn paths).
  std::vector<Check> checks_{{100, 136, 16, 144, 32, 112, {}, {}, {}, {}, {}},
                             {67, 131, 3, 134, 5, 70, {}, {}, {}, {}, {}}};
};

std::unique_ptr<TuningSubject> make_subject(const std::string& dtype, std::uint64_t rows, std::uint64_t cols) {
  if (dtype == "float") return std::make_unique<TransposeSubject<float>>(rows, cols);
  if (dtype == "double") return std::make_unique<TransposeSubject<double>>(rows, cols);
  if (dtype == "int32") return std::make_unique<TransposeSubject<std::int32_t>>(rows, cols);
  if (dtype == "uint8") return std::make_unique<TransposeSubject<std::uint8_t>>(rows, cols);
  throw Error(kOp, "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not float, double, int32 or uint8");
}

template <typename T>
cl::Event run_transpose(const Config* explicit_config, cl::CommandQueue& queue, const Matrix& m,
                        const std::vector<cl::Event>* wait) {
  if (m.rows == 0 || m.cols == 0) return cl::Event();
  const auto target = queue_target(kOp, queue);
  const DTypeInfo& dtype = dtype_of<T>();
  validate(target, dtype, m);
  check_wait_list(kOp, wait, target.context);
  Config config;
  if (explicit_config != nullptr) {
    config = *explicit_config;
    const std::string why = transpose_search_space(dtype, *target.info).validate(config, *target.info);
    if (!why.empty()) throw Error(kOp, "config", CL_INVALID_VALUE, config.to_string() + ": " + why);
  } else {
    if (is_contiguous_copy(m)) return enqueue_copy(queue, dtype, m, wait);
    TransposeSubject<T> subject(m.rows, m.cols);
    config = TuningService::instance().choose(target, subject).parameters;
  }
  return launch(target, queue, dtype, config, m, wait);
}

// Unique values in order of first appearance.
std::vector<std::int64_t> unique(const std::vector<std::int64_t>& values) {
  std::vector<std::int64_t> result;
  for (auto value : values)
    if (std::find(result.begin(), result.end(), value) == result.end()) result.push_back(value);
  return result;
}

}  // namespace

SearchSpace transpose_search_space(const DTypeInfo& dtype, const DeviceInfo& device) {
  const Config preferred = transpose_default_config(dtype, device);
  const std::int64_t size = static_cast<std::int64_t>(dtype.size);
  // Candidate lists start with the default's value when the default is of that variant (tiled and padded count
  // as one), so a budget-limited search explores around the default first.
  auto first = [&](const std::string& variant, const char* name, std::vector<std::int64_t> rest) {
    const bool same = preferred.variant == variant || (preferred.variant == "padded" && variant == "tiled");
    auto found = preferred.values.find(name);
    if (same && found != preferred.values.end()) rest.insert(rest.begin(), found->second);
    return unique(rest);
  };

  Constraint launch_pair{
      "WG_X and WG_Y are both 0 (the driver chooses) or both positive",
      [](const Values& v, const DeviceInfo&) { return (at(v, "WG_X") == 0) == (at(v, "WG_Y") == 0); }};
  Constraint launch_fits{"WG_X * WG_Y <= the device's max work-group size (and each within its item sizes)",
                         [](const Values& v, const DeviceInfo& d) {
                           const auto x = static_cast<std::uint64_t>(at(v, "WG_X"));
                           const auto y = static_cast<std::uint64_t>(at(v, "WG_Y"));
                           return x * y <= d.max_work_group_size && x <= d.max_work_item_sizes[0] &&
                                  y <= d.max_work_item_sizes[1];
                         }};
  auto tile_constraints = [size](bool padded) {
    std::vector<Constraint> constraints{
        {"VEC in {1, 2, 4, 8, 16}",
         [](const Values& v, const DeviceInfo&) {
           const auto vec = at(v, "VEC");
           return vec == 1 || vec == 2 || vec == 4 || vec == 8 || vec == 16;
         }},
        {"TILE % VEC == 0 and TILE % WG_Y == 0",
         [](const Values& v, const DeviceInfo&) {
           return at(v, "TILE") > 0 && at(v, "WG_Y") > 0 && at(v, "TILE") % at(v, "VEC") == 0 &&
                  at(v, "TILE") % at(v, "WG_Y") == 0;
         }},
        {"(TILE / VEC) * WG_Y <= the device's max work-group size (and each within its item sizes)",
         [](const Values& v, const DeviceInfo& d) {
           const auto x = static_cast<std::uint64_t>(at(v, "TILE") / at(v, "VEC"));
           const auto y = static_cast<std::uint64_t>(at(v, "WG_Y"));
           return x * y <= d.max_work_group_size && x <= d.max_work_item_sizes[0] && y <= d.max_work_item_sizes[1];
         }},
        {"TILE * (TILE + PAD) elements fit the device's local memory",
         [size, padded](const Values& v, const DeviceInfo& d) {
           const auto tile = static_cast<std::uint64_t>(at(v, "TILE"));
           const auto pad = padded ? static_cast<std::uint64_t>(at(v, "PAD")) : 0;
           return tile * (tile + pad) * static_cast<std::uint64_t>(size) <= d.local_memory_bytes;
         }}};
    if (padded)
      constraints.push_back({"1 <= PAD <= 16", [](const Values& v, const DeviceInfo&) {
                               return at(v, "PAD") >= 1 && at(v, "PAD") <= 16;
                             }});
    return constraints;
  };

  const std::vector<std::int64_t> tile_vecs =
      unique({std::max<std::int64_t>(1, 16 / size), std::max<std::int64_t>(1, 8 / size),
              std::max<std::int64_t>(1, 4 / size), 1});
  auto tiled_parameters = [&](bool padded) {
    const std::string variant = padded ? "padded" : "tiled";
    std::vector<Parameter> parameters{{"TILE", first(variant, "TILE", {32, 64, 16})},
                                      {"VEC", first(variant, "VEC", tile_vecs)},
                                      {"WG_Y", first(variant, "WG_Y", {8, 4, 16, 2, 32})}};
    if (padded) parameters.push_back({"PAD", first(variant, "PAD", {1, 2, 4})});
    return parameters;
  };
  VariantSpace naive{
      "naive",
      {{"WG_X", {32, 16, 64, 8, 0}, ParameterKind::Launch}, {"WG_Y", {8, 4, 16, 1, 0}, ParameterKind::Launch}},
      {launch_pair, launch_fits}};
  VariantSpace tiled{"tiled", tiled_parameters(false), tile_constraints(false)};
  VariantSpace padded{"padded", tiled_parameters(true), tile_constraints(true)};
  VariantSpace block{"block",
                     {{"VEC", first("block", "VEC", {4, 8, 16, 2})},
                      {"USE_SHUFFLE", {1, 0}},
                      {"WG_X", first("block", "WG_X", {1, 4, 8, 16, 32, 0}), ParameterKind::Launch},
                      {"WG_Y", first("block", "WG_Y", {32, 16, 8, 4, 1, 0}), ParameterKind::Launch}},
                     {launch_pair,
                      launch_fits,
                      {"VEC in {2, 4, 8, 16}",
                       [](const Values& v, const DeviceInfo&) {
                         const auto vec = at(v, "VEC");
                         return vec == 2 || vec == 4 || vec == 8 || vec == 16;
                       }},
                      {"USE_SHUFFLE in {0, 1}", [](const Values& v, const DeviceInfo&) {
                         return at(v, "USE_SHUFFLE") == 0 || at(v, "USE_SHUFFLE") == 1;
                       }}}};
  if (preferred.variant == "block") return SearchSpace({block, padded, tiled, naive});
  return SearchSpace({padded, tiled, block, naive});
}

Config transpose_default_config(const DTypeInfo& dtype, const DeviceInfo& device) {
  const auto size = static_cast<std::int64_t>(dtype.size);
  // GPUs: a padded local tile (one extra column against bank conflicts). Measured on an H200 (2026-11-30,
  // 16384^2): for 4-byte elements a 64 x 64 tile with float4 accesses and 16 rows of work-items reached 94% of
  // copy bandwidth (32 x 32: 87%); for 8-byte elements 32 x 32 with double2; for bytes 64 x 64 with uchar4 and
  // 4 columns of padding. Smaller tiles, then fewer rows, when the device's local memory or work-group is smaller.
  const std::int64_t tile_vec = size == 8 ? 2 : 4;
  std::int64_t tile = size == 8 ? 32 : 64;
  const std::int64_t pad = size == 1 ? 4 : 1;
  std::int64_t tile_rows = size == 1 ? 8 : 16;
  while (tile > 16 && static_cast<std::uint64_t>(tile * (tile + pad) * size) > device.local_memory_bytes / 2) tile /= 2;
  while (tile_rows > 1 && static_cast<std::uint64_t>(tile / tile_vec * tile_rows) > device.max_work_group_size)
    tile_rows /= 2;
  const bool tile_fits = static_cast<std::uint64_t>(tile * (tile + pad) * size) <= device.local_memory_bytes &&
                         static_cast<std::uint64_t>(tile / tile_vec) <= device.max_work_group_size;
  if (!device.is_cpu() && device.local_memory_is_dedicated && tile_fits)
    return {"padded", {{"TILE", tile}, {"VEC", tile_vec}, {"WG_Y", tile_rows}, {"PAD", pad}}};

  // CPUs (and devices without on-chip local memory): registers only, a VEC x VEC block per work-item, VEC one
  // SIMD register of the element type (at most 8 rows, so the block and its shuffle temporaries stay in
  // registers; 16 for bytes). Each work-group walks down a block column, writing about 1 KiB of every output
  // row it touches.
  const unsigned width = size == 8 ? device.native_vector_width_double
                                   : static_cast<std::int64_t>(device.native_vector_width_float) * 4 / size;
  std::int64_t vec = 2;
  while (vec < 8 && static_cast<unsigned>(vec * 2) <= width) vec *= 2;  // a power of two in [2, 8]
  if (size == 1) vec = 16;
  const std::int64_t rows_per_group = std::clamp<std::int64_t>(1024 / (vec * size), 1, 32);
  const std::int64_t wg_y =
      std::min<std::int64_t>(rows_per_group, static_cast<std::int64_t>(device.max_work_group_size));
  return {"block", {{"VEC", vec}, {"USE_SHUFFLE", 1}, {"WG_X", 1}, {"WG_Y", wg_y}}};
}

template <typename T>
cl::Event transpose_with(const Config& config, cl::CommandQueue& queue, std::size_t rows, std::size_t cols,
                         const cl::Buffer& in, std::size_t in_offset, std::size_t ld_in, cl::Buffer& out,
                         std::size_t out_offset, std::size_t ld_out, const std::vector<cl::Event>* wait) {
  return run_transpose<T>(&config, queue, Matrix{rows, cols, &in, in_offset, ld_in, &out, out_offset, ld_out}, wait);
}

std::vector<TunableOp> transpose_tunable_ops() {
  TunableOp op;
  op.description = {kOp,
                    kFamily,
                    {"float", "double", "int32", "uint8"},
                    "ROWSxCOLS (in is rows x cols, packed), e.g. 4096x4096",
                    {"128x256", "16x32768", "1024x1024", "4096x4096"}};
  op.make_subject = [](const std::string& dtype, const std::string& shape) {
    const auto sizes = parse_dimensions(kOp, shape, 2);
    if (sizes[0] == 0 || sizes[1] == 0) throw Error(kOp, "shape", CL_INVALID_VALUE, "'" + shape + "' is empty");
    return make_subject(dtype, sizes[0], sizes[1]);
  };
  return {op};
}

#define TILECL_INSTANTIATE_TRANSPOSE(T)                                                                               \
  template cl::Event transpose_with<T>(const Config&, cl::CommandQueue&, std::size_t, std::size_t, const cl::Buffer&, \
                                       std::size_t, std::size_t, cl::Buffer&, std::size_t, std::size_t,               \
                                       const std::vector<cl::Event>*);
TILECL_INSTANTIATE_TRANSPOSE(float)
TILECL_INSTANTIATE_TRANSPOSE(double)
TILECL_INSTANTIATE_TRANSPOSE(std::int32_t)
TILECL_INSTANTIATE_TRANSPOSE(std::uint8_t)
#undef TILECL_INSTANTIATE_TRANSPOSE

}  // namespace detail

template <typename T>
detail::TransposeEvent<T> transpose(cl::CommandQueue& queue, std::size_t rows, std::size_t cols, const cl::Buffer& in,
                                    std::size_t in_offset, std::size_t ld_in, cl::Buffer& out, std::size_t out_offset,
                                    std::size_t ld_out, const std::vector<cl::Event>* wait) {
  return detail::run_transpose<T>(nullptr, queue,
                                  detail::Matrix{rows, cols, &in, in_offset, ld_in, &out, out_offset, ld_out}, wait);
}

template cl::Event transpose<float>(cl::CommandQueue&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                                    std::size_t, cl::Buffer&, std::size_t, std::size_t, const std::vector<cl::Event>*);
template cl::Event transpose<double>(cl::CommandQueue&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                                     std::size_t, cl::Buffer&, std::size_t, std::size_t, const std::vector<cl::Event>*);
template cl::Event transpose<std::int32_t>(cl::CommandQueue&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                                           std::size_t, cl::Buffer&, std::size_t, std::size_t,
                                           const std::vector<cl::Event>*);
template cl::Event transpose<std::uint8_t>(cl::CommandQueue&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                                           std::size_t, cl::Buffer&, std::size_t, std::size_t,
                                           const std::vector<cl::Event>*);

}  // namespace tilecl
