// transpose: the variants (one descriptor each), the shape buckets, the tuning subject and the op, run through the
// common frame (ops/op_frame.hpp).
#include "ops/transpose.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include "launch.hpp"
#include "ops/op_frame.hpp"
#include "ops/tunable_ops.hpp"
#include "tilecl/transpose.hpp"
#include "tuning/constraints.hpp"
#include "tuning/scratch.hpp"
#include "tuning/variant.hpp"

namespace tilecl {
namespace detail {
namespace {

constexpr const char* kTransposeFamily = "transpose";
constexpr const char* kTransposeOp = "transpose";
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

// ---- variants ---------------------------------------------------------------------------------------------

struct FreeLaunch {  // naive and block: the work-group is a launch parameter (0 x 0: the driver chooses)
  std::int64_t vec = 1, shuffle = 1, wg_x = 0, wg_y = 0;
};
struct TileParams {  // tiled (PAD = 0), padded and shifted
  std::int64_t tile = 32, vec = 4, wg_y = 8, pad = 0, sector = 0;
};

// The NDRange of one launch over `rows` rows.
struct Geometry {
  std::uint64_t global_x, global_y;
  std::uint64_t local_x, local_y;  // 0: the driver chooses
  std::uint64_t rows_per_group_y;  // rows one work-group (or, with a null local size, one work-item) covers
};

const std::vector<std::int64_t> kVectorWidths{1, 2, 4, 8, 16};

VariantDescriptor<FreeLaunch> naive_variant() {
  using F = VariantDescriptor<FreeLaunch>::Field;
  return {"naive",
          "transpose_naive",
          {F{"WG_X", &FreeLaunch::wg_x, ParameterKind::Launch, {32, 16, 64, 8, 0}, 0, 1024},
           F{"WG_Y", &FreeLaunch::wg_y, ParameterKind::Launch, {8, 4, 16, 1, 0}, 0, 1024}},
          {constraints::work_group_fits("WG_X", "WG_Y", true)}};
}

VariantDescriptor<FreeLaunch> block_variant() {
  using F = VariantDescriptor<FreeLaunch>::Field;
  return {"block",
          "transpose_block",
          {F{"VEC", &FreeLaunch::vec, ParameterKind::Build, {4, 8, 16, 2}, 2, 16},
           F{"USE_SHUFFLE", &FreeLaunch::shuffle, ParameterKind::Build, {1, 0}, 0, 2},
           F{"WG_X", &FreeLaunch::wg_x, ParameterKind::Launch, {1, 4, 8, 16, 32, 0}, 0, 1024},
           F{"WG_Y", &FreeLaunch::wg_y, ParameterKind::Launch, {32, 16, 8, 4, 1, 0}, 0, 1024}},
          {constraints::one_of("VEC", {2, 4, 8, 16}), constraints::work_group_fits("WG_X", "WG_Y", true)}};
}

// The tiled kernel as two variants: "tiled" without padding, "padded" with PAD >= 1.
VariantDescriptor<TileParams> tile_variant(bool padded, std::size_t element_size) {
  using F = VariantDescriptor<TileParams>::Field;
  std::vector<F> fields{F{"TILE", &TileParams::tile, ParameterKind::Build, {32, 64, 16}, 1, 128},
                        F{"VEC", &TileParams::vec, ParameterKind::Build, {4, 2, 1, 8, 16}, 1, 16},
                        F{"WG_Y", &TileParams::wg_y, ParameterKind::Build, {8, 4, 16, 2, 32}, 1, 128}};
  std::vector<Constraint> rules{
      constraints::one_of("VEC", kVectorWidths), constraints::multiple_of("TILE", {"VEC"}),
      constraints::multiple_of("TILE", {"WG_Y"}),
      constraints::derived("(TILE / VEC) x WG_Y fits the device's work-group limits",
                           [](const Values& v, const DeviceInfo& d) {
                             const auto x = static_cast<std::uint64_t>(at(v, "TILE") / at(v, "VEC"));
                             const auto y = static_cast<std::uint64_t>(at(v, "WG_Y"));
                             return x <= d.max_work_item_sizes[0] && y <= d.max_work_item_sizes[1] &&
                                    x * y <= d.max_work_group_size;
                           }),
      constraints::local_memory_fits("TILE * (TILE + PAD) elements", [padded, element_size](const Values& v) {
        const auto tile = static_cast<std::uint64_t>(at(v, "TILE"));
        return tile * (tile + (padded ? static_cast<std::uint64_t>(at(v, "PAD")) : 0)) * element_size;
      })};
  if (padded) fields.push_back(F{"PAD", &TileParams::pad, ParameterKind::Build, {1, 2, 4}, 1, 16});
  return {padded ? "padded" : "tiled", "transpose_tiled", fields, rules};
}

// The padded tile with output pieces shifted to SECTOR-element boundaries (kernels/transpose.cl).
VariantDescriptor<TileParams> shifted_variant(std::size_t element_size) {
  using F = VariantDescriptor<TileParams>::Field;
  VariantDescriptor<TileParams> v = tile_variant(true, element_size);
  v.variant = "shifted";
  v.kernel = "transpose_shifted";
  const auto sector = static_cast<std::int64_t>(32 / element_size);
  v.fields.push_back(F{"SECTOR", &TileParams::sector, ParameterKind::Build, {sector, 2 * sector}, 1, 64});
  v.constraints.back() =
      constraints::local_memory_fits("(TILE + SECTOR) * (TILE + PAD) elements", [element_size](const Values& values) {
        const auto tile = static_cast<std::uint64_t>(at(values, "TILE"));
        return (tile + static_cast<std::uint64_t>(at(values, "SECTOR"))) *
               (tile + static_cast<std::uint64_t>(at(values, "PAD"))) * element_size;
      });
  v.constraints.push_back(constraints::multiple_of("TILE", {"SECTOR"}));
  v.constraints.push_back(constraints::multiple_of("SECTOR", {"VEC"}));
  return v;
}

// Bytes through 4 x 4 blocks in registers (kernels/transpose.cl, transpose_bytes): VEC is 4 by construction.
VariantDescriptor<TileParams> bytes_variant() {
  using F = VariantDescriptor<TileParams>::Field;
  using P = TileParams;
  return {"bytes",
          "transpose_bytes",
          {F{"TILE", &P::tile, ParameterKind::Build, {64, 128, 32}, 4, 256},
           F{"WG_Y", &P::wg_y, ParameterKind::Build, {8, 16, 4}, 1, 64},
           F{"PAD", &P::pad, ParameterKind::Build, {1, 2}, 1, 8},
           F{"SECTOR", &P::sector, ParameterKind::Build, {4, 32, 64}, 4, 128}},
          {constraints::one_of("SECTOR", {4, 8, 16, 32, 64, 128}), constraints::multiple_of("TILE", {"SECTOR"}),
           constraints::multiple_of("TILE", {"WG_Y"}),
           constraints::derived("(TILE / 4) x WG_Y fits the device's work-group limits",
                                [](const Values& v, const DeviceInfo& d) {
                                  const auto x = static_cast<std::uint64_t>(at(v, "TILE") / 4);
                                  const auto y = static_cast<std::uint64_t>(at(v, "WG_Y"));
                                  return x <= d.max_work_item_sizes[0] && y <= d.max_work_item_sizes[1] &&
                                         x * y <= d.max_work_group_size;
                                }),
           constraints::local_memory_fits("TILE * ((TILE + SECTOR) / 4 + PAD) words", [](const Values& v) {
             const auto tile = static_cast<std::uint64_t>(at(v, "TILE"));
             const auto words =
                 (tile + static_cast<std::uint64_t>(at(v, "SECTOR"))) / 4 + static_cast<std::uint64_t>(at(v, "PAD"));
             return tile * words * 4;
           })}};
}

// The variants for an element size, built once.
struct Variants {
  VariantDescriptor<FreeLaunch> naive, block;
  VariantDescriptor<TileParams> tiled, padded, shifted, bytes;
  SearchSpace space;

  const VariantDescriptor<TileParams>* tile_descriptor(const std::string& name) const {
    if (name == "tiled") return &tiled;
    if (name == "padded") return &padded;
    if (name == "bytes") return &bytes;
    return name == "shifted" ? &shifted : nullptr;
  }
};
const Variants& variants_for(std::size_t element_size) {
  auto make = [](std::size_t size) {
    Variants v{naive_variant(),
               block_variant(),
               tile_variant(false, size),
               tile_variant(true, size),
               shifted_variant(size),
               bytes_variant(),
               {}};
    std::vector<VariantSpace> spaces{v.shifted.space(), v.padded.space(), v.tiled.space(), v.block.space(),
                                     v.naive.space()};
    if (size == 1) spaces.insert(spaces.begin(), v.bytes.space());
    v.space = SearchSpace(spaces);
    return v;
  };
  static const Variants bytes = make(1), halves = make(2), words = make(4), doubles = make(8);
  if (element_size == 2) return halves;
  return element_size == 1 ? bytes : element_size == 8 ? doubles : words;
}

// The kernels move bits: float and int32 share the programs of uint, double those of ulong (no fp64 needed), half
// and bfloat16 those of ushort.
const char* bits_type(const DTypeInfo& dtype) {
  if (dtype.size == 1) return "uchar";
  if (dtype.size == 2) return "ushort";
  return dtype.size == 8 ? "ulong" : "uint";
}

// One launch's kernel, macros and geometry, from a configuration.
struct LaunchPlan {
  std::string kernel;
  BuildOptions options;
  std::uint64_t vec = 1, wg_x = 0, wg_y = 0, tile = 0;

  Geometry geometry(std::uint64_t rows, std::uint64_t cols) const {
    if (tile > 0) return {ceil_div(cols, tile) * (tile / vec), ceil_div(rows, tile) * wg_y, tile / vec, wg_y, tile};
    const std::uint64_t items_x = ceil_div(cols, vec), items_y = ceil_div(rows, vec);
    if (wg_x == 0) return {items_x, items_y, 0, 0, vec};
    return {round_up(items_x, wg_x), round_up(items_y, wg_y), wg_x, wg_y, vec * wg_y};
  }
};

LaunchPlan plan_for(const DTypeInfo& dtype, const Config& config) {
  const Variants& v = variants_for(dtype.size);
  LaunchPlan plan;
  plan.options.define("DTYPE", bits_type(dtype));
  if (const auto* tile_descriptor = v.tile_descriptor(config.variant)) {
    const auto& descriptor = *tile_descriptor;
    TileParams p = descriptor.decode(config);
    descriptor.render(p, plan.options);
    if (config.variant == "tiled") plan.options.define("PAD", std::int64_t{0});
    if (config.variant == "bytes") p.vec = 4;  // a word of 4 bytes per work-item along the tile's row
    plan.kernel = descriptor.kernel;
    plan.vec = static_cast<std::uint64_t>(p.vec);
    plan.tile = static_cast<std::uint64_t>(p.tile);
    plan.wg_y = static_cast<std::uint64_t>(p.wg_y);
    return plan;
  }
  const auto& descriptor = config.variant == "block" ? v.block : v.naive;
  FreeLaunch p = descriptor.decode(config);
  descriptor.render(p, plan.options);
  plan.kernel = descriptor.kernel;
  plan.vec = config.variant == "block" ? static_cast<std::uint64_t>(p.vec) : 1;
  plan.wg_x = static_cast<std::uint64_t>(p.wg_x);
  plan.wg_y = static_cast<std::uint64_t>(p.wg_y);
  return plan;
}

// ---- the op -----------------------------------------------------------------------------------------------

void validate(const QueueTarget& target, const DTypeInfo& dtype, const Matrix& m) {
  check_kernel_extent(kTransposeOp, "rows", m.rows);
  check_kernel_extent(kTransposeOp, "cols", m.cols);
  if (m.ld_in < m.cols)
    throw Error(kTransposeOp, "ld_in", CL_INVALID_VALUE,
                "ld_in (" + std::to_string(m.ld_in) + ") is less than cols (" + std::to_string(m.cols) + ")");
  if (m.ld_out < m.rows)
    throw Error(kTransposeOp, "ld_out", CL_INVALID_VALUE,
                "ld_out (" + std::to_string(m.ld_out) + ") is less than rows (" + std::to_string(m.rows) + ")");
  check_kernel_extent(kTransposeOp, "ld_in", m.ld_in);
  check_kernel_extent(kTransposeOp, "ld_out", m.ld_out);
  // Exact extents: the last row ends at its last element, not at the leading dimension.
  const std::uint64_t in_extent =
      checked_add(kTransposeOp, "in", checked_multiply(kTransposeOp, "in", m.rows - 1, m.ld_in), m.cols);
  const std::uint64_t out_extent =
      checked_add(kTransposeOp, "out", checked_multiply(kTransposeOp, "out", m.cols - 1, m.ld_out), m.rows);
  check_buffer(kTransposeOp, "in", *m.in, target.context, m.in_offset, in_extent, dtype.size);
  check_buffer(kTransposeOp, "out", *m.out, target.context, m.out_offset, out_extent, dtype.size);
  check_no_overlap(kTransposeOp, "in", *m.in, m.in_offset, in_extent, "out", *m.out, m.out_offset, out_extent,
                   dtype.size);
}

// Enqueues the bands of one transpose with `kernel` (one band unless the matrix is taller than kMaxGroupsY
// work-groups); returns the last event, or a marker joining the bands.
cl::Event enqueue_bands(cl::CommandQueue& queue, cl::Kernel& kernel, const LaunchPlan& plan, const Matrix& m,
                        const std::vector<cl::Event>* wait) {
  const std::uint64_t band = kMaxGroupsY * plan.geometry(m.rows, m.cols).rows_per_group_y;
  std::vector<cl::Event> events;
  for (std::uint64_t first_row = 0; first_row < m.rows; first_row += band) {
    const std::uint64_t rows = std::min(band, m.rows - first_row);
    const Geometry g = plan.geometry(rows, m.cols);
    set_kernel_args(kTransposeOp, kernel, static_cast<cl_int>(rows), static_cast<cl_int>(m.cols), *m.in,
                    static_cast<cl_ulong>(m.in_offset + first_row * m.ld_in), static_cast<cl_int>(m.ld_in), *m.out,
                    static_cast<cl_ulong>(m.out_offset + first_row), static_cast<cl_int>(m.ld_out));
    events.push_back(enqueue_kernel(kTransposeOp, queue, kernel, cl::NDRange(g.global_x, g.global_y),
                                    g.local_x > 0 ? cl::NDRange(g.local_x, g.local_y) : cl::NullRange, wait));
  }
  if (events.size() == 1) return events.front();
  cl::Event done;
  try {
    queue.enqueueMarkerWithWaitList(&events, &done);
  } catch (const cl::Error& error) {
    throw Error(kTransposeOp, "queue", error.err(), "enqueueing the marker that joins the bands failed");
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
    throw Error(kTransposeOp, "copy", error.err(), "enqueueing the copy of a single row or column failed");
  }
  return event;
}

// Shape buckets: tiny problems (launch-bound), thin matrices (one side below 32: tiles are mostly empty),
// medium and large; medium and large split by whether every output row starts on a 32-byte sector (ld_out a
// multiple of 32 bytes): there the padded tile writes whole sectors, elsewhere the shifted tile does (an H200
// sweep, seed 3: a 5305 x 8878 float matrix ran the padded tile chosen for an earlier aligned shape at 72% of copy).
struct Bucket {
  std::uint64_t code;
  const char* name;
  std::uint64_t timing_rows, timing_cols;  // timed when no call's shape is known (tilecl tune without --shape)
  bool out_aligned;
};
const Bucket& bucket_of(std::uint64_t rows, std::uint64_t cols, bool out_aligned) {
  static const Bucket buckets[] = {{0, "rows*cols<2^16", 128, 256, false},
                                   {1, "min(rows,cols)<32", 16, 32768, false},
                                   {2, "rows*cols<2^22", 1024, 1024, false},
                                   {3, "rows*cols>=2^22", 4096, 4096, false},
                                   {4, "rows*cols<2^22,out-aligned", 1024, 1024, true},
                                   {5, "rows*cols>=2^22,out-aligned", 4096, 4096, true}};
  const std::uint64_t elements = rows * cols;
  if (elements < (1u << 16)) return buckets[0];
  if (std::min(rows, cols) < 32) return buckets[1];
  return buckets[(elements < (1u << 22) ? 2 : 3) + (out_aligned ? 2 : 0)];
}

// Whether output rows `ld_out` elements of T apart all start on a 32-byte sector.
template <typename T>
bool sector_aligned(std::uint64_t ld_out) {
  return ld_out * sizeof(T) % 32 == 0;
}

template <typename T>
class TransposeSubject;

template <typename T>
struct TransposeOp {
  using Call = Matrix;
  const char* name() const { return kTransposeOp; }
  bool is_empty(const Call& m) const { return m.rows == 0 || m.cols == 0; }
  void validate(const QueueTarget& target, const Call& m) const { detail::validate(target, dtype_of<T>(), m); }
  const SearchSpace& space(const DeviceInfo& /*device*/, const Call& /*m*/) const {
    return variants_for(sizeof(T)).space;
  }
  ShapeKey shape_key(const Call& m) const {
    return {kTransposeOp, dtype_of<T>().name, bucket_of(m.rows, m.cols, sector_aligned<T>(m.ld_out)).code, 0};
  }
  std::unique_ptr<TuningSubject> subject(const Call& m) const {
    return std::make_unique<TransposeSubject<T>>(m.rows, m.cols, m.ld_out);
  }
  cl::Event enqueue(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const Call& m,
                    const std::vector<cl::Event>* wait) const {
    if (!resolved.is_explicit && is_contiguous_copy(m)) return enqueue_copy(queue, dtype_of<T>(), m, wait);
    const auto& plan = resolved.plan_as<LaunchPlan>([](const Config& c) { return plan_for(dtype_of<T>(), c); });
    cl::Kernel& kernel = resolved.main_kernel(target, kTransposeFamily, plan.options, plan.kernel, kTransposeOp);
    const Geometry whole = plan.geometry(m.rows, m.cols);
    resolved.check_main_work_group(kTransposeOp, plan.kernel, whole.local_x * whole.local_y);
    return enqueue_bands(queue, kernel, plan, m, wait);
  }
};

// ---- tuning -----------------------------------------------------------------------------------------------

// Tunes at the caller's shape, scaled down (same aspect) to at most kMaxTimedBytes per matrix so that tuning
// stays quick and its two buffers small; a subject made without a shape (tilecl tune) times its bucket's
// representative. A quarter of a GiB keeps the call's own shape up to 2^25 doubles or 2^26 floats (the earlier
// cap, 2^24 elements, halved most large matrices: the tiles' order depends on the shape and the element size).
constexpr std::uint64_t kMaxTimedBytes = std::uint64_t{1} << 28;

std::pair<std::uint64_t, std::uint64_t> timed_shape(std::uint64_t rows, std::uint64_t cols, std::uint64_t element) {
  while (rows * cols * element > kMaxTimedBytes) {
    if (rows >= cols)
      rows = (rows + 1) / 2;
    else
      cols = (cols + 1) / 2;
  }
  return {rows, cols};
}

template <typename T>
class TransposeSubject : public TuningSubject {
 public:
  // Timed at (rows, cols) scaled down, with output rows as aligned as the call's: whole sectors or not.
  TransposeSubject(std::uint64_t rows, std::uint64_t cols, std::uint64_t ld_out)
      : bucket_(bucket_of(rows, cols, sector_aligned<T>(ld_out))) {
    std::tie(rows_, cols_) = timed_shape(rows, cols, sizeof(T));
    const std::uint64_t sector = std::max<std::uint64_t>(1, 32 / sizeof(T));
    ld_out_ = bucket_.out_aligned ? (rows_ + sector - 1) / sector * sector : rows_ + (sector_aligned<T>(rows_) ? 1 : 0);
  }

  TuningKey key() const override { return {kTransposeOp, dtype_of<T>().name, bucket_.name}; }
  std::string family() const override { return kTransposeFamily; }
  std::string timing_shape() const override {
    return std::to_string(rows_) + "x" + std::to_string(cols_) +
           (ld_out_ != rows_ ? ",ld_out " + std::to_string(ld_out_) : "");
  }
  SearchSpace search_space(const DeviceInfo& /*device*/) const override { return variants_for(sizeof(T)).space; }
  Config default_config(const DeviceInfo& device) const override {
    return transpose_default_config(dtype_of<T>(), device);
  }
  BuildOptions build_options(const Config& config) const override { return plan_for(dtype_of<T>(), config).options; }
  // The shifted and the padded tile trade places with the output's alignment: first use times both at the call's
  // shape, within a budget that holds two cold compiles (on the H200 a transpose program took 0.2-0.3 s to build
  // on a fresh machine: with the common 250 ms budget the second tile was never timed there, and a 3488 x 8425
  // double matrix kept the shifted tile at 0.146 ms against the padded one's 0.127 ms; 2026-12-02, runs 7d, 7e).
  double first_use_budget_ms(double /*default_ms*/) const override { return 1000; }
  std::vector<Config> first_use_candidates(const DeviceInfo& device) const override {
    Config other = default_config(device);
    if (other.variant == "bytes") {
      const std::int64_t tile = other.values.at("TILE");
      other = {"padded", {{"TILE", tile}, {"VEC", 4}, {"WG_Y", 8}, {"PAD", 4}}};
    } else if (other.variant == "shifted") {
      other.variant = "padded";
      other.values.erase("SECTOR");
    } else if (other.variant == "padded" && sizeof(T) > 1) {
      other.variant = "shifted";
      other.values["SECTOR"] = static_cast<std::int64_t>(32 / sizeof(T));
    } else if (other.variant == "padded" && other.values.at("TILE") == 64) {
      // Bytes: the 128 x 128 tile beside the 64 x 64 default. H100 (bench/results/nvidia-h100/session12/run3):
      // 128 took 0.89-0.94x the time of 64 on five large matrices (ragged, 1:4 and 4:1, 5305 x 8878, 8191 x 8193)
      // and 1.06x on 16384^2.
      other.values["TILE"] = 128;
      if (!search_space(device).validate(other, device).empty()) return {};
    } else {
      return {};
    }
    return {other};
  }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    // The timing matrix is filled on the device: a transpose's speed does not depend on the values (the checks
    // below hold random ones), and host-made random data of up to 256 MiB took longer than the tuning budget.
    const std::size_t bytes = rows_ * cols_ * sizeof(T);
    timing_in_ = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
    queue_.enqueueFillBuffer(timing_in_, std::uint8_t{0x5A}, 0, bytes);
    timing_out_ = cl::Buffer(context, CL_MEM_READ_WRITE, ld_out_ * cols_ * sizeof(T));
    for (auto& check : checks_) check.prepare(context, queue_, random);
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    const Matrix m{rows_, cols_, &timing_in_, 0, cols_, &timing_out_, 0, ld_out_};
    return {transpose_with<T>(config, queue, m.rows, m.cols, *m.in, 0, m.ld_in, *m.out, 0, m.ld_out)};
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    for (auto& check : checks_) {
      std::string why = check.run(queue, config);
      if (!why.empty()) return why;
    }
    return {};
  }

  double work() const override { return 2.0 * static_cast<double>(rows_ * cols_) * sizeof(T); }
  const char* work_unit() const override { return "byte"; }

 private:
  // A ragged, offset transpose into a poisoned output: every element must move bit for bit, nothing else change.
  struct Check {
    std::size_t rows, cols, in_offset, ld_in, out_offset, ld_out;
    std::vector<T> poisoned_out, expected;
    cl::Buffer in, out;

    void prepare(const cl::Context& context, cl::CommandQueue& queue, std::mt19937_64& random) {
      const std::size_t in_size = in_offset + (rows - 1) * ld_in + cols + 7;
      const std::size_t out_size = out_offset + (cols - 1) * ld_out + rows + 7;
      const std::vector<T> in_values = random_values<T>(in_size, random);
      poisoned_out.assign(out_size, T{});
      std::memset(static_cast<void*>(poisoned_out.data()), 0xA7, out_size * sizeof(T));
      expected = poisoned_out;
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
          expected[out_offset + c * ld_out + r] = in_values[in_offset + r * ld_in + c];
      in = upload(context, queue, in_values);
      out = cl::Buffer(context, CL_MEM_READ_WRITE, out_size * sizeof(T));
    }

    std::string run(cl::CommandQueue& queue, const Config& config) {
      queue.enqueueWriteBuffer(out, CL_TRUE, 0, poisoned_out.size() * sizeof(T), poisoned_out.data());
      transpose_with<T>(config, queue, rows, cols, in, in_offset, ld_in, out, out_offset, ld_out).wait();
      const auto got = download<T>(queue, out, expected.size());
      // A transpose moves bits: compare representations, so that -0.0 for 0.0 or a changed NaN payload fails.
      // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): bit-for-bit equality is the point.
      if (std::memcmp(got.data(), expected.data(), got.size() * sizeof(T)) == 0) return {};
      return "the " + std::to_string(rows) + "x" + std::to_string(cols) + " output differs";
    }
  };

  const Bucket& bucket_;
  std::uint64_t rows_ = 0, cols_ = 0, ld_out_ = 0;
  cl::CommandQueue queue_;
  cl::Buffer timing_in_, timing_out_;
  // Aligned to 16 elements (the vector paths run), then ragged and misaligned (windows and edge paths), then
  // large enough for interior tiles of 64 with misaligned rows.
  std::vector<Check> checks_{{100, 136, 16, 144, 32, 112, {}, {}, {}, {}},
                             {67, 131, 3, 134, 5, 70, {}, {}, {}, {}},
                             {203, 141, 1, 141, 2, 205, {}, {}, {}, {}}};
};

std::unique_ptr<TuningSubject> make_subject(const std::string& dtype, std::uint64_t rows, std::uint64_t cols) {
  if (dtype == "float") return std::make_unique<TransposeSubject<float>>(rows, cols, rows);
  if (dtype == "double") return std::make_unique<TransposeSubject<double>>(rows, cols, rows);
  if (dtype == "int32") return std::make_unique<TransposeSubject<std::int32_t>>(rows, cols, rows);
  if (dtype == "uint8") return std::make_unique<TransposeSubject<std::uint8_t>>(rows, cols, rows);
  if (dtype == "half") return std::make_unique<TransposeSubject<half>>(rows, cols, rows);
  if (dtype == "bfloat16") return std::make_unique<TransposeSubject<bfloat16>>(rows, cols, rows);
  throw Error(kTransposeOp, "dtype", CL_INVALID_VALUE,
              "'" + dtype + "' is not float, double, int32, uint8, half or bfloat16");
}

}  // namespace

SearchSpace transpose_search_space(const DTypeInfo& dtype, const DeviceInfo& /*device*/) {
  return variants_for(dtype.size).space;
}

FamilyMacros transpose_macros() {
  const Variants& v = variants_for(4);
  return {kTransposeFamily,
          {macros_of(v.naive), macros_of(v.block), macros_of(v.tiled), macros_of(v.padded), macros_of(v.shifted),
           macros_of(variants_for(1).bytes)},
          {"DTYPE", "PAD"}};
}

Config transpose_default_config(const DTypeInfo& dtype, const DeviceInfo& device) {
  const auto size = static_cast<std::int64_t>(dtype.size);
  // GPUs: a padded local tile (one extra column against bank conflicts). Measured on an H200 (2026-11-30,
  // 16384^2): for 4-byte elements a 64 x 64 tile with float4 accesses and 16 rows of work-items reached 94% of
  // copy bandwidth (32 x 32: 87%); for 8-byte elements 32 x 32 with double2; for bytes 64 x 64 with uchar4 and
  // 4 columns of padding. 2-byte elements (half, bfloat16) take the 4-byte tile with ushort8 (16-byte) accesses, by
  // analogy (not measured). Smaller tiles, then fewer rows, when the device's local memory or work-group is smaller.
  const std::int64_t tile_vec = size == 1 ? 4 : 16 / size;
  std::int64_t tile = size == 8 ? 32 : 64;
  const std::int64_t pad = size == 1 ? 4 : 1;
  std::int64_t tile_rows = size == 1 ? 8 : 16;
  while (tile > 16 && static_cast<std::uint64_t>(tile * (tile + pad) * size) > device.local_memory_bytes / 2) tile /= 2;
  while (tile_rows > 1 && static_cast<std::uint64_t>(tile / tile_vec * tile_rows) > device.max_work_group_size)
    tile_rows /= 2;
  const bool tile_fits = static_cast<std::uint64_t>(tile * (tile + pad) * size) <= device.local_memory_bytes &&
                         static_cast<std::uint64_t>(tile / tile_vec) <= device.max_work_group_size;
  // 4- and 8-byte elements take the shifted tile: in an H200 experiment (bench/results/nvidia-h200/, run 3), a packed
  // ragged matrix of 1000-20000 per side reached 74-77% of copy with the padded tile, 88-92% when only the output
  // rows were made sector-aligned (so partial sectors written by two work-groups were the cost), and 80-86% with
  // the shifted tile, which writes whole sectors; on aligned outputs it skips its extra rows and equals the padded.
  const std::int64_t sector = 32 / size;
  if (!device.is_cpu() && device.local_memory_is_dedicated && tile_fits && size > 1 && tile % sector == 0 &&
      static_cast<std::uint64_t>((tile + sector) * (tile + pad) * size) <= device.local_memory_bytes)
    return {"shifted", {{"TILE", tile}, {"VEC", tile_vec}, {"WG_Y", tile_rows}, {"PAD", pad}, {"SECTOR", sector}}};
  // Bytes take the padded tile with uchar4 accesses: on an H200 (2026-12-02, bench/results/nvidia-h200/session7/,
  // run 8d) it beat every setting of the 4 x 4 block kernel (transpose_bytes) by 1.3-1.7x on aligned and ragged
  // matrices (16384^2: 0.230 ms against 0.312 at best), and again on an H100 after that kernel's windows became
  // funnel shifts and its pieces could align to words (session 12, run 3: 44-50% of a copy against 56-71%).
  // First use also times the 128 x 128 padded tile (first_use_candidates).
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
  return run_op(TransposeOp<T>{}, &config, queue, Matrix{rows, cols, &in, in_offset, ld_in, &out, out_offset, ld_out},
                wait);
}

std::vector<TunableOp> transpose_tunable_ops() {
  TunableOp op;
  op.description = {kTransposeOp,
                    kTransposeFamily,
                    {"float", "double", "int32", "uint8", "half", "bfloat16"},
                    "ROWSxCOLS (in is rows x cols, packed), e.g. 4096x4096",
                    {"128x256", "16x32768", "1021x1021", "1024x1024", "4093x4093", "4096x4096"}};
  op.make_subject = [](const std::string& dtype, const std::string& shape) {
    const auto sizes = parse_dimensions(kTransposeOp, shape, 2);
    if (sizes[0] == 0 || sizes[1] == 0)
      throw Error(kTransposeOp, "shape", CL_INVALID_VALUE, "'" + shape + "' is empty");
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
TILECL_INSTANTIATE_TRANSPOSE(half)
TILECL_INSTANTIATE_TRANSPOSE(bfloat16)
#undef TILECL_INSTANTIATE_TRANSPOSE

}  // namespace detail

template <typename T>
detail::TransposeEvent<T> transpose(cl::CommandQueue& queue, std::size_t rows, std::size_t cols, const cl::Buffer& in,
                                    std::size_t in_offset, std::size_t ld_in, cl::Buffer& out, std::size_t out_offset,
                                    std::size_t ld_out, const std::vector<cl::Event>* wait) {
  return detail::run_op(detail::TransposeOp<T>{}, nullptr, queue,
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
template cl::Event transpose<half>(cl::CommandQueue&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                                   std::size_t, cl::Buffer&, std::size_t, std::size_t, const std::vector<cl::Event>*);
template cl::Event transpose<bfloat16>(cl::CommandQueue&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                                       std::size_t, cl::Buffer&, std::size_t, std::size_t,
                                       const std::vector<cl::Event>*);

}  // namespace tilecl
