// convolve2d, separable_filter, box_blur, gaussian_blur: validate -> parameters -> program -> kernel lease ->
// enqueue.
//
// Programs: every call builds with DTYPE, CHANNELS, BORDER, VARIANT (only the variant's kernels) and the
// radii: fixed at build time (RADIUS_X/RADIUS_Y >= 0: tap loops unroll) for the tiled variants and, up to
// kMaxFixedRadius / kMaxFixedDirectTaps, for the vector ones; -1 (read at run time) for larger filters and for
// the naive variant. So an application compiles one program per filter size it uses, cached on disk.
//
// Filters: the taps are bound to __constant kernel arguments. A caller's filter buffer is bound as it is when
// its offset is 0 and the bound buffers fit CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE together; otherwise its taps
// are first copied (on the device, in the queue) into a buffer of their exact size. The blurs build their
// taps on the host once per (context, taps) and keep them on the device.
//
// Tuning keys: (op, dtype, bucket), bucket = "c<channels> <filter width>x<filter height> <area class>", area
// classes as rgb_to_gray (px <= 2^16, <= 2^20, <= 2^23, larger; timed at 256x192, 1024x768, 2560x1440,
// 7680x4320). The border rule is not part of the key: it only changes the edge tiles. Shape syntax for
// `tilecl tune`: WIDTHxHEIGHT[xCHANNELS],FWxFH[,zero|clamp|mirror|wrap], e.g. 7680x4320,9x9 (the filter size in
// taps; box_blur 5x5 is radius 2; gaussian_blur needs FW = FH).
#include "ops/convolve.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "checks.hpp"
#include "context_registry.hpp"
#include "launch.hpp"
#include "log.hpp"
#include "ops/image_common.hpp"
#include "ops/tunable_ops.hpp"
#include "program_cache.hpp"
#include "tilecl/error.hpp"
#include "tuning/scratch.hpp"
#include "tuning/tuning_service.hpp"
#include "workspace.hpp"

namespace tilecl {
namespace detail {
namespace {

constexpr const char* kFamily = "convolve";
// Radii beyond these use the run-time radius: unrolling more taps costs compile time and gains nothing.
constexpr int kMaxFixedRadius = 16;           // separable kernels, per direction
constexpr int kMaxFixedDirectTaps = 17 * 17;  // direct vector kernel
constexpr int kMaxTiledDirectRadius = 8;      // direct tiled kernel (it unrolls all taps for WPT_Y x VEC outputs)
// Keeps every tap index within the kernels' 32-bit arithmetic, whatever constant memory a device reports.
constexpr std::uint64_t kMaxRadius = 65535;

enum class Kind { Convolve2d, Separable, Box, Gaussian };

const char* op_name(Kind kind) {
  switch (kind) {
    case Kind::Convolve2d:
      return "convolve2d";
    case Kind::Separable:
      return "separable_filter";
    case Kind::Box:
      return "box_blur";
    case Kind::Gaussian:
      return "gaussian_blur";
  }
  return "?";
}

FilterForm form_of(Kind kind) { return kind == Kind::Convolve2d ? FilterForm::Direct : FilterForm::Separable; }

struct ImageOperands {
  const cl::Buffer* src;
  std::uint64_t src_offset, src_pitch;
  cl::Buffer* dst;
  std::uint64_t dst_offset, dst_pitch;
};

struct FilterProblem {
  std::uint64_t width, height;
  FilterShape shape;
  Border border;
};

// The buffers bound to the kernels' __constant arguments (direct: `first` is the filter; separable: row and
// column filters), and the device copies that must finish before the kernels read them. Its implicit move
// assignment may throw (cl::Buffer's does when releasing the old handle fails); the only one (run_filter)
// assigns to a default-constructed BoundTaps, which holds nothing to release.
// NOLINTNEXTLINE(bugprone-exception-escape): its one move assignment targets an empty BoundTaps (above).
struct BoundTaps {
  cl::Buffer first, second;
  std::vector<cl::Event> copies;
};

// Taps a caller passes in a device buffer.
struct TapsArgument {
  const char* name;  // "filter", "row_filter", "column_filter"
  const cl::Buffer* buffer;
  std::uint64_t offset;
  std::uint64_t count;
};

// ---------------------------------------------------------------------------------------------------------
// Variants, programs, geometry.

bool is_tiled(const std::string& variant) { return variant == "tiled"; }

// VARIANT of kernels/convolve.cl.
int variant_code(FilterForm form, const std::string& variant) {
  if (form == FilterForm::Direct) return variant == "naive" ? 1 : variant == "vector" ? 2 : 3;
  return variant == "two_pass" ? 4 : variant == "vector" ? 5 : 6;
}

bool fixed_radius(const FilterShape& shape, const std::string& variant) {
  if (is_tiled(variant)) return true;
  if (variant == "naive") return false;
  if (shape.form == FilterForm::Direct)
    return (2 * shape.radius_x + 1) * (2 * shape.radius_y + 1) <= kMaxFixedDirectTaps;
  return std::max(shape.radius_x, shape.radius_y) <= kMaxFixedRadius;
}

std::uint64_t tiled_local_bytes(const FilterShape& shape, const Values& v) {
  const std::int64_t vec = at(v, "VEC"), channels = static_cast<std::int64_t>(shape.channels);
  const std::int64_t halo = (shape.radius_x * channels + vec - 1) / vec * vec;
  const std::int64_t rows = at(v, "TILE_Y") + 2 * static_cast<std::int64_t>(shape.radius_y);
  const std::int64_t tile_elements = at(v, "TILE_X") * channels;
  const std::int64_t input = rows * (tile_elements + 2 * halo + at(v, "PAD"));
  if (shape.form == FilterForm::Direct) return static_cast<std::uint64_t>(4 * input);
  const std::int64_t mid = rows * (tile_elements + at(v, "PAD"));
  return static_cast<std::uint64_t>(4 * (mid + (at(v, "USE_LOCAL_INPUT") ? input : 0)));
}

BuildOptions build_options_for(const FilterShape& shape, Border border, const DTypeInfo& dtype, const Config& config) {
  BuildOptions options;
  options.define("DTYPE", dtype.cl_type);
  options.define("CHANNELS", static_cast<std::int64_t>(shape.channels));
  options.define("BORDER", static_cast<std::int64_t>(border));
  options.define("VARIANT", variant_code(shape.form, config.variant));
  const bool fixed = fixed_radius(shape, config.variant);
  options.define("RADIUS_X", fixed ? shape.radius_x : -1);
  options.define("RADIUS_Y", fixed ? shape.radius_y : -1);
  convolve_search_space(shape, dtype).add_build_macros(config, options);
  return options;
}

std::string kernel_name(FilterForm form, const std::string& variant) {
  return std::string(form == FilterForm::Direct ? "convolve_direct_" : "convolve_separable_") + variant;
}

// Enqueues the config's kernels; returns their events, first to last.
std::vector<cl::Event> launch(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                              const DTypeInfo& dtype, const Config& config, const FilterProblem& problem,
                              const ImageOperands& image, const BoundTaps& taps, const std::vector<cl::Event>* wait) {
  const FilterShape& shape = problem.shape;
  auto program = ProgramCache::instance().get(target.context, target.device, kFamily,
                                              build_options_for(shape, problem.border, dtype, config), op);
  const cl_int width = static_cast<cl_int>(problem.width), height = static_cast<cl_int>(problem.height);
  const cl_int radius_x = shape.radius_x, radius_y = shape.radius_y;
  const std::uint64_t row_elements = problem.width * shape.channels;
  std::vector<cl::Event> wait_list = wait != nullptr ? *wait : std::vector<cl::Event>();
  wait_list.insert(wait_list.end(), taps.copies.begin(), taps.copies.end());
  const std::vector<cl::Event>* first_wait = wait_list.empty() ? nullptr : &wait_list;

  if (config.variant == "two_pass") {
    // Rows into a float workspace, then columns out of it.
    const std::uint64_t vec = static_cast<std::uint64_t>(config.value("VEC"));
    const std::uint64_t work_pitch = round_up(row_elements, 16);
    check_kernel_extent(op, "width", work_pitch);
    const std::uint64_t bytes =
        checked_multiply(op, "workspace", checked_multiply(op, "workspace", work_pitch, problem.height), 4);
    if (bytes > target.info->max_allocation_bytes)
      throw Error(op, "workspace", CL_INVALID_BUFFER_SIZE,
                  "the two-pass intermediate needs " + std::to_string(bytes) +
                      " bytes, more than the device allocates at once (" +
                      std::to_string(target.info->max_allocation_bytes) + ")");
    auto workspace = acquire_workspace(op, target.context, target.device, "convolve two-pass intermediate",
                                       static_cast<std::size_t>(bytes), first_wait);
    const cl::NDRange local = local_range(config);
    const cl::NDRange global = global_range(config, ceil_div(row_elements, vec), problem.height);
    const std::size_t group =
        local.dimensions() == 0 ? 0 : static_cast<std::size_t>(config.value("WG_X") * config.value("WG_Y"));
    check_work_group_fits(op, *program, "convolve_rows_vector", group);
    check_work_group_fits(op, *program, "convolve_cols_vector", group);
    auto rows = program->lease("convolve_rows_vector", op);
    set_kernel_args(op, rows.kernel(), width, height, *image.src, static_cast<cl_ulong>(image.src_offset),
                    static_cast<cl_int>(image.src_pitch), workspace.buffer(), static_cast<cl_int>(work_pitch),
                    taps.first, radius_x);
    cl::Event first = enqueue_kernel(op, queue, rows.kernel(), global, local, workspace.wait_list());
    cl::Event second;
    try {
      auto columns = program->lease("convolve_cols_vector", op);
      set_kernel_args(op, columns.kernel(), width, height, workspace.buffer(), static_cast<cl_int>(work_pitch),
                      *image.dst, static_cast<cl_ulong>(image.dst_offset), static_cast<cl_int>(image.dst_pitch),
                      taps.second, radius_y);
      const std::vector<cl::Event> after_rows{first};
      second = enqueue_kernel(op, queue, columns.kernel(), global, local, &after_rows);
    } catch (...) {
      workspace.release_after(first);  // the next user of the workspace still waits for the row pass
      throw;
    }
    workspace.release_after(second);
    return {first, second};
  }

  const std::string name = kernel_name(shape.form, config.variant);
  cl::NDRange global, local;
  std::size_t group = 0;
  if (is_tiled(config.variant)) {
    const std::uint64_t tile_x = static_cast<std::uint64_t>(config.value("TILE_X"));
    const std::uint64_t tile_y = static_cast<std::uint64_t>(config.value("TILE_Y"));
    const std::uint64_t group_x = tile_x * shape.channels / static_cast<std::uint64_t>(config.value("VEC"));
    const std::uint64_t group_y = tile_y / static_cast<std::uint64_t>(config.value("WPT_Y"));
    global = cl::NDRange(ceil_div(problem.width, tile_x) * group_x, ceil_div(problem.height, tile_y) * group_y);
    local = cl::NDRange(group_x, group_y);
    group = group_x * group_y;
  } else {
    std::uint64_t items_x = problem.width, items_y = problem.height;
    if (config.variant == "vector") {
      items_x = ceil_div(row_elements, static_cast<std::uint64_t>(config.value("VEC")));
      if (shape.form == FilterForm::Separable)
        items_y = ceil_div(problem.height, static_cast<std::uint64_t>(config.value("WPT_Y")));
    }
    global = global_range(config, items_x, items_y);
    local = local_range(config);
    group = local.dimensions() == 0 ? 0 : static_cast<std::size_t>(config.value("WG_X") * config.value("WG_Y"));
  }
  check_work_group_fits(op, *program, name, group);
  auto lease = program->lease(name, op);
  if (shape.form == FilterForm::Direct) {
    set_kernel_args(op, lease.kernel(), width, height, *image.src, static_cast<cl_ulong>(image.src_offset),
                    static_cast<cl_int>(image.src_pitch), *image.dst, static_cast<cl_ulong>(image.dst_offset),
                    static_cast<cl_int>(image.dst_pitch), taps.first, radius_x, radius_y);
  } else {
    set_kernel_args(op, lease.kernel(), width, height, *image.src, static_cast<cl_ulong>(image.src_offset),
                    static_cast<cl_int>(image.src_pitch), *image.dst, static_cast<cl_ulong>(image.dst_offset),
                    static_cast<cl_int>(image.dst_pitch), taps.first, taps.second, radius_x, radius_y);
  }
  return {enqueue_kernel(op, queue, lease.kernel(), global, local, first_wait)};
}

// ---------------------------------------------------------------------------------------------------------
// Taps.

std::uint64_t constant_memory_limit(const cl::Device& device) {
  static std::mutex mutex;
  static auto* limits = new std::map<cl_device_id, std::uint64_t>;  // never destroyed, like the other caches
  std::lock_guard<std::mutex> lock(mutex);
  auto found = limits->find(device());
  if (found != limits->end()) return found->second;
  const std::uint64_t limit = device.getInfo<CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE>();
  limits->emplace(device(), limit);
  return limit;
}

// The taps of all filters of a call must fit the constant memory together (some drivers place every
// __constant argument of a kernel in one bank).
void check_constant_memory(const std::string& op, const std::string& argument, const QueueTarget& target,
                           std::uint64_t taps, const std::string& what) {
  const std::uint64_t limit = constant_memory_limit(target.device);
  if (taps * sizeof(float) > limit)
    throw Error(op, argument, CL_INVALID_VALUE,
                what + " need " + std::to_string(taps * sizeof(float)) +
                    " bytes of constant memory; the device allows " + std::to_string(limit) + " (" +
                    std::to_string(limit / sizeof(float)) + " taps)");
}

void check_taps_buffer(const std::string& op, const TapsArgument& taps, const QueueTarget& target,
                       const ImageOperands& image, std::uint64_t dst_extent, std::size_t element_size) {
  check_buffer(op, taps.name, *taps.buffer, target.context, 0, 0, sizeof(float));  // null, invalid, other context
  const std::uint64_t size = taps.buffer->getInfo<CL_MEM_SIZE>();
  const std::uint64_t end = checked_add(op, taps.name, taps.offset, taps.count);
  const std::uint64_t needed = checked_multiply(op, taps.name, end, sizeof(float));
  if (needed > size)
    throw Error(op, taps.name, CL_INVALID_BUFFER_SIZE,
                std::string("filter buffer too short: ") + std::to_string(taps.count) + " taps at offset " +
                    std::to_string(taps.offset) + " need " + std::to_string(needed) + " bytes, it holds " +
                    std::to_string(size));
  // The kernels must not write the taps they read (compared in bytes: the element types differ).
  check_no_overlap(op, taps.name, *taps.buffer, taps.offset * sizeof(float), taps.count * sizeof(float), "dst",
                   *image.dst, image.dst_offset * element_size, dst_extent * element_size, 1);
}

// Binds the caller's taps as they are when possible, else copies them into buffers of their exact size.
BoundTaps bind_taps(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                    const std::vector<TapsArgument>& arguments, const std::vector<cl::Event>* wait) {
  std::uint64_t bound_bytes = 0;
  bool as_they_are = true;
  for (const auto& taps : arguments) {
    as_they_are = as_they_are && taps.offset == 0;
    bound_bytes += taps.buffer->getInfo<CL_MEM_SIZE>();
  }
  as_they_are = as_they_are && bound_bytes <= constant_memory_limit(target.device);
  std::vector<cl::Buffer> buffers;
  BoundTaps bound;
  for (const auto& taps : arguments) {
    if (as_they_are) {
      buffers.push_back(*taps.buffer);
      continue;
    }
    const std::size_t bytes = static_cast<std::size_t>(taps.count * sizeof(float));
    try {
      buffers.emplace_back(target.context, CL_MEM_READ_ONLY, bytes);
      cl::Event copied;
      queue.enqueueCopyBuffer(*taps.buffer, buffers.back(), static_cast<std::size_t>(taps.offset * sizeof(float)), 0,
                              bytes, wait, &copied);
      bound.copies.push_back(copied);
    } catch (const cl::Error& error) {
      throw Error(op, taps.name, error.err(), "cannot copy the taps into a buffer of their own");
    }
  }
  bound.first = buffers.at(0);
  bound.second = buffers.size() > 1 ? buffers[1] : buffers[0];
  return bound;
}

// Device copies of host-built taps, one per (context, taps), created on first use; those of forgotten contexts
// are dropped (src/context_registry.hpp).
cl::Buffer cached_taps(const std::string& op, const cl::Context& context, const std::vector<float>& taps) {
  using Key = std::pair<cl_context, std::vector<float>>;
  struct Cache {
    std::mutex mutex;
    std::map<Key, std::pair<cl::Context, cl::Buffer>> buffers;

    void prune(const std::set<cl_context>& kept) {
      std::vector<decltype(buffers)::mapped_type> dropped;  // released after the lock
      std::lock_guard<std::mutex> lock(mutex);
      dropped = take_entries_not_kept(buffers, kept, [](const Key& key) { return key.first; });
    }
  };
  static auto* cache = [] {  // never destroyed: it holds OpenCL objects
    auto* created = new Cache;
    ContextRegistry::instance().add_pruner([created](const std::set<cl_context>& kept) { created->prune(kept); });
    return created;
  }();
  ContextRegistry::instance().touch(context);  // before taking the lock: it may prune this cache
  std::lock_guard<std::mutex> lock(cache->mutex);
  Key key{context(), taps};
  auto found = cache->buffers.find(key);
  if (found != cache->buffers.end()) return found->second.second;
  if (cache->buffers.size() >= 256) cache->buffers.clear();  // a bound, not a policy: taps are cheap to rebuild
  try {
    cl::Buffer buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, taps.size() * sizeof(float),
                      const_cast<float*>(taps.data()));
    cache->buffers.emplace(std::move(key), std::make_pair(context, buffer));
    return buffer;
  } catch (const cl::Error& error) {
    throw Error(op, "taps", error.err(), "cannot allocate " + std::to_string(taps.size()) + " taps on the device");
  }
}

std::vector<float> box_taps(std::uint64_t radius) {
  return std::vector<float>(static_cast<std::size_t>(2 * radius + 1),
                            static_cast<float>(1.0 / static_cast<double>(2 * radius + 1)));
}

// ---------------------------------------------------------------------------------------------------------
// Validation.

void check_channels(const std::string& op, std::uint64_t channels) {
  if (channels != 1 && channels != 3)
    throw Error(op, "channels", CL_INVALID_VALUE,
                std::to_string(channels) + " channels: 1 (gray) and 3 (interleaved RGB) are supported");
}

// An odd filter length; returns its radius.
int radius_of_length(const std::string& op, const std::string& argument, std::uint64_t length) {
  if (length == 0) throw Error(op, argument, CL_INVALID_VALUE, "the filter is empty (0 taps)");
  if (length % 2 == 0)
    throw Error(op, argument, CL_INVALID_VALUE,
                std::to_string(length) + " taps: filter sizes must be odd (the anchor is the centre tap)");
  if (length > 2 * kMaxRadius + 1)
    throw Error(op, argument, CL_INVALID_VALUE,
                std::to_string(length) + " taps: at most " + std::to_string(2 * kMaxRadius + 1) + " are supported");
  return static_cast<int>(length / 2);
}

int checked_radius(const std::string& op, const std::string& argument, std::uint64_t radius) {
  if (radius > kMaxRadius)
    throw Error(op, argument, CL_INVALID_VALUE,
                "radius " + std::to_string(radius) + " is larger than the supported " + std::to_string(kMaxRadius));
  return static_cast<int>(radius);
}

void validate_images(const std::string& op, const QueueTarget& target, const DTypeInfo& dtype,
                     const FilterProblem& problem, const ImageOperands& image) {
  const std::uint64_t row_elements = checked_multiply(op, "width", problem.width, problem.shape.channels);
  check_kernel_extent(op, "width", row_elements);
  check_kernel_extent(op, "height", problem.height);
  check_image(op, "src", *image.src, target.context, image.src_offset, image.src_pitch, row_elements, problem.height,
              dtype.size);
  check_image(op, "dst", *image.dst, target.context, image.dst_offset, image.dst_pitch, row_elements, problem.height,
              dtype.size);
  check_no_overlap(op, "src", *image.src, image.src_offset, image_extent(image.src_pitch, row_elements, problem.height),
                   "dst", *image.dst, image.dst_offset, image_extent(image.dst_pitch, row_elements, problem.height),
                   dtype.size);
}

// ---------------------------------------------------------------------------------------------------------
// Host reference for the tuner's verification (double precision; the test suite has its own).

long fold(long i, long n, Border border) {
  if (i >= 0 && i < n) return i;
  switch (border) {
    case Border::Zero:
      return -1;
    case Border::Clamp:
      return i < 0 ? 0 : n - 1;
    case Border::Mirror: {
      if (n == 1) return 0;
      const long period = 2 * n - 2;
      long m = i % period;
      if (m < 0) m += period;
      return m < n ? m : period - m;
    }
    case Border::Wrap: {
      const long m = i % n;
      return m < 0 ? m + n : m;
    }
  }
  return -1;
}

// Filters `src` (pitch, offset) into `out` (pitch, offset) in double: the 2-D filter `direct` when not empty,
// else the separable filter (row, column).
template <typename T>
void reference_filter(const std::vector<T>& src, std::uint64_t src_offset, std::uint64_t src_pitch,
                      std::vector<double>& out, std::uint64_t out_offset, std::uint64_t out_pitch,
                      const FilterProblem& problem, const std::vector<float>& direct, const std::vector<float>& row,
                      const std::vector<float>& column) {
  const long width = static_cast<long>(problem.width), height = static_cast<long>(problem.height);
  const long channels = static_cast<long>(problem.shape.channels);
  const long rx = problem.shape.radius_x, ry = problem.shape.radius_y, kw = 2 * rx + 1;
  auto at = [&](long y, long e) { return static_cast<double>(src[src_offset + y * src_pitch + e]); };
  std::vector<double> mid(static_cast<std::size_t>(width * channels * height));
  if (direct.empty()) {
    for (long y = 0; y < height; ++y)
      for (long x = 0; x < width; ++x)
        for (long c = 0; c < channels; ++c) {
          double sum = 0;
          for (long dx = -rx; dx <= rx; ++dx) {
            const long xx = fold(x + dx, width, problem.border);
            if (xx >= 0) sum += static_cast<double>(row[dx + rx]) * at(y, xx * channels + c);
          }
          mid[(y * width + x) * channels + c] = sum;
        }
  }
  for (long y = 0; y < height; ++y)
    for (long x = 0; x < width; ++x)
      for (long c = 0; c < channels; ++c) {
        double sum = 0;
        for (long dy = -ry; dy <= ry; ++dy) {
          const long yy = fold(y + dy, height, problem.border);
          if (yy < 0) continue;
          if (direct.empty()) {
            sum += static_cast<double>(column[dy + ry]) * mid[(yy * width + x) * channels + c];
            continue;
          }
          for (long dx = -rx; dx <= rx; ++dx) {
            const long xx = fold(x + dx, width, problem.border);
            if (xx >= 0) sum += static_cast<double>(direct[(dy + ry) * kw + dx + rx]) * at(yy, xx * channels + c);
          }
        }
        out[out_offset + y * out_pitch + x * channels + c] = sum;
      }
}

// ---------------------------------------------------------------------------------------------------------
// Tuning subject.

std::string filter_size_text(const FilterShape& shape) {
  return std::to_string(2 * shape.radius_x + 1) + "x" + std::to_string(2 * shape.radius_y + 1);
}

template <typename T>
class FilterSubject : public TuningSubject {
 public:
  FilterSubject(Kind kind, std::uint64_t width, std::uint64_t height, const FilterShape& shape, Border border)
      : kind_(kind), area_(area_class(width * height)), shape_(shape), border_(border) {}

  TuningKey key() const override {
    return {op_name(kind_), dtype_of<T>().name,
            "c" + std::to_string(shape_.channels) + " " + filter_size_text(shape_) + " " + area_.name};
  }
  std::string family() const override { return kFamily; }
  std::string timing_shape() const override {
    return std::to_string(area_.width) + "x" + std::to_string(area_.height) +
           (shape_.channels != 1 ? "x" + std::to_string(shape_.channels) : "") + "," + filter_size_text(shape_) + "," +
           to_string(border_);
  }
  SearchSpace search_space(const DeviceInfo& /*device*/) const override {
    return convolve_search_space(shape_, dtype_of<T>());
  }
  Config default_config(const DeviceInfo& device) const override {
    return convolve_default_config(shape_, dtype_of<T>(), device);
  }
  BuildOptions build_options(const Config& config) const override {
    return build_options_for(shape_, border_, dtype_of<T>(), config);
  }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    make_taps(random);
    taps_.first = upload(context, queue_, shape_.form == FilterForm::Direct ? direct_ : row_);
    taps_.second = shape_.form == FilterForm::Direct ? taps_.first : upload(context, queue_, column_);
    const std::uint64_t c = shape_.channels;
    timing_src_ = upload(context, queue_, random_values<T>(area_.width * area_.height * c, random));
    timing_dst_ = cl::Buffer(context, CL_MEM_READ_WRITE, area_.width * area_.height * c * sizeof(T));
    // Ragged (odd sizes, pitches and offsets: unaligned paths) and aligned with padding (the vector-pointer
    // paths, which the timing image takes); both hold interior and edge tiles of every tile size in the space.
    layouts_ = {Layout(557, 151, 557 * c + 5, 557 * c + 3, 7, 5), Layout(560, 150, 560 * c + 16, 560 * c + 32, 16, 0)};
    double magnitude = 0;  // sum of |taps| of the 2-D filter
    if (shape_.form == FilterForm::Direct) {
      for (float f : direct_) magnitude += std::abs(f);
    } else {
      double row_sum = 0, column_sum = 0;
      for (float f : row_) row_sum += std::abs(f);
      for (float f : column_) column_sum += std::abs(f);
      magnitude = row_sum * column_sum;
    }
    const double taps = shape_.form == FilterForm::Direct ? static_cast<double>(direct_.size())
                                                          : static_cast<double>(row_.size() + column_.size());
    tolerance_ = (taps + 2) * std::ldexp(magnitude * (std::is_same_v<T, float> ? 1.0 : 255.0), -22);
    for (auto& layout : layouts_) {
      const FilterProblem problem{layout.width, layout.height, shape_, border_};
      const std::size_t src_size = layout.src_offset + image_extent(layout.src_pitch, layout.width * c, layout.height);
      const std::size_t dst_size =
          layout.dst_offset + image_extent(layout.dst_pitch, layout.width * c, layout.height) + 16;
      const auto src = random_values<T>(src_size, random);
      layout.initial = random_values<T>(dst_size, random);
      layout.src = upload(context, queue_, src);
      layout.dst = upload(context, queue_, layout.initial);
      layout.expected.assign(layout.initial.begin(), layout.initial.end());
      reference_filter(src, layout.src_offset, layout.src_pitch, layout.expected, layout.dst_offset, layout.dst_pitch,
                       problem, shape_.form == FilterForm::Direct ? direct_ : std::vector<float>(), row_, column_);
    }
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    auto target = queue_target(op_name(kind_), queue);
    const std::uint64_t pitch = area_.width * shape_.channels;
    ImageOperands image{&timing_src_, 0, pitch, &timing_dst_, 0, pitch};
    return launch(op_name(kind_), target, queue, dtype_of<T>(), config,
                  FilterProblem{area_.width, area_.height, shape_, border_}, image, taps_, nullptr);
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    auto target = queue_target(op_name(kind_), queue);
    for (auto& layout : layouts_) {
      queue.enqueueWriteBuffer(layout.dst, CL_TRUE, 0, layout.initial.size() * sizeof(T), layout.initial.data());
      ImageOperands image{&layout.src, layout.src_offset, layout.src_pitch,
                          &layout.dst, layout.dst_offset, layout.dst_pitch};
      auto events = launch(op_name(kind_), target, queue, dtype_of<T>(), config,
                           FilterProblem{layout.width, layout.height, shape_, border_}, image, taps_, nullptr);
      events.back().wait();
      std::string difference =
          compare_image(download<T>(queue, layout.dst, layout.initial.size()), layout.expected, tolerance_);
      if (!difference.empty())
        return std::to_string(layout.width) + "x" + std::to_string(layout.height) + " image: " + difference;
    }
    return {};
  }

  // Bytes moved: one read and one write of every element.
  double work() const override {
    return 2.0 * static_cast<double>(area_.width * area_.height * shape_.channels) * sizeof(T);
  }
  const char* work_unit() const override { return "byte"; }

 private:
  using Layout = ImageCheck<T>;

  // The op's own taps for the blurs; random ones (negative taps included, summing to 1.1, so that bytes
  // saturate at both ends) for the general filters.
  void make_taps(std::mt19937_64& random) {
    auto random_taps = [&](std::size_t count) {
      std::uniform_real_distribution<double> distribution(-0.25, 1.0);
      std::vector<double> values(count);
      double sum = 0;
      for (auto& value : values) sum += (value = distribution(random));
      std::vector<float> taps(count);
      for (std::size_t i = 0; i < count; ++i) taps[i] = static_cast<float>(1.1 * values[i] / sum);
      return taps;
    };
    const std::size_t kw = 2 * shape_.radius_x + 1, kh = 2 * shape_.radius_y + 1;
    switch (kind_) {
      case Kind::Convolve2d:
        direct_ = random_taps(kw * kh);
        break;
      case Kind::Separable:
        row_ = random_taps(kw);
        column_ = random_taps(kh);
        break;
      case Kind::Box:
        row_ = box_taps(shape_.radius_x);
        column_ = box_taps(shape_.radius_y);
        break;
      case Kind::Gaussian:
        row_ = gaussian_blur_taps(std::max(1, shape_.radius_x) / 3.0, shape_.radius_x);
        column_ = row_;
        break;
    }
  }

  Kind kind_;
  AreaClass area_;
  FilterShape shape_;
  Border border_;
  cl::CommandQueue queue_;
  std::vector<float> direct_, row_, column_;
  BoundTaps taps_;
  double tolerance_ = 0;
  cl::Buffer timing_src_, timing_dst_;
  std::vector<Layout> layouts_;
};

// WIDTHxHEIGHT[xCHANNELS],FWxFH[,border]
std::unique_ptr<TuningSubject> make_subject(Kind kind, const std::string& dtype, const std::string& shape) {
  const std::string op = op_name(kind);
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t comma = shape.find(',', start);
    parts.push_back(shape.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parts.size() < 2 || parts.size() > 3)
    throw Error(op, "shape", CL_INVALID_VALUE,
                "'" + shape + "' is not WIDTHxHEIGHT[xCHANNELS],FWxFH[,zero|clamp|mirror|wrap], e.g. 7680x4320,9x9");
  const ImageSize image = parse_image_size(op, parts[0], true);
  const ImageSize filter = parse_image_size(op, parts[1], false);
  check_channels(op, image.channels);
  FilterShape filter_shape{form_of(kind), image.channels, radius_of_length(op, "shape", filter.width),
                           radius_of_length(op, "shape", filter.height)};
  if (kind == Kind::Gaussian && filter.width != filter.height)
    throw Error(op, "shape", CL_INVALID_VALUE, "gaussian_blur filters are square: '" + parts[1] + "'");
  Border border = Border::Mirror;
  if (parts.size() == 3) {
    const std::map<std::string, Border> borders{
        {"zero", Border::Zero}, {"clamp", Border::Clamp}, {"mirror", Border::Mirror}, {"wrap", Border::Wrap}};
    auto found = borders.find(parts[2]);
    if (found == borders.end())
      throw Error(op, "shape", CL_INVALID_VALUE, "'" + parts[2] + "' is not zero, clamp, mirror or wrap");
    border = found->second;
  }
  if (dtype == "uint8")
    return std::make_unique<FilterSubject<std::uint8_t>>(kind, image.width, image.height, filter_shape, border);
  if (dtype == "float")
    return std::make_unique<FilterSubject<float>>(kind, image.width, image.height, filter_shape, border);
  throw Error(op, "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not uint8 or float");
}

// ---------------------------------------------------------------------------------------------------------
// The entry every op goes through.

// Where the taps come from: the caller's buffers (convolve2d, separable_filter) or the host (the blurs).
struct TapsSource {
  std::vector<TapsArgument> buffers;
  std::vector<float> row, column;  // host taps
};

template <typename T>
cl::Event run_filter(Kind kind, const Config* explicit_config, cl::CommandQueue& queue, const FilterProblem& problem,
                     const ImageOperands& image, const TapsSource& source, const std::string& size_argument,
                     const std::vector<cl::Event>* wait) {
  const std::string op = op_name(kind);
  if (problem.width == 0 || problem.height == 0) return cl::Event();
  const auto target = queue_target(op, queue);
  const DTypeInfo& dtype = dtype_of<T>();
  const FilterShape& shape = problem.shape;
  const std::uint64_t kw = 2 * static_cast<std::uint64_t>(shape.radius_x) + 1;
  const std::uint64_t kh = 2 * static_cast<std::uint64_t>(shape.radius_y) + 1;
  if (shape.form == FilterForm::Direct)
    check_constant_memory(op, size_argument, target, kw * kh,
                          "a " + std::to_string(kw) + " x " + std::to_string(kh) + " filter's taps");
  else
    check_constant_memory(op, size_argument, target, kw + kh,
                          "row and column filters of " + std::to_string(kw) + " and " + std::to_string(kh) + " taps");
  validate_images(op, target, dtype, problem, image);
  const std::uint64_t dst_extent = image_extent(image.dst_pitch, problem.width * shape.channels, problem.height);
  for (const auto& taps : source.buffers) check_taps_buffer(op, taps, target, image, dst_extent, dtype.size);
  check_wait_list(op, wait, target.context);

  const SearchSpace space = convolve_search_space(shape, dtype);
  Config config;
  if (explicit_config != nullptr) {
    config = *explicit_config;
    std::string why = space.validate(config, *target.info);
    if (!why.empty()) throw Error(op, "config", CL_INVALID_VALUE, config.to_string() + ": " + why);
  } else {
    FilterSubject<T> subject(kind, problem.width, problem.height, shape, problem.border);
    const tuning::Choice choice = TuningService::instance().choose(target, subject);
    config = choice.parameters;
    // An override is set for every filter size; one that cannot serve this one (a tile too large for this
    // radius) gives way to the default.
    std::string why = space.validate(config, *target.info);
    if (!why.empty()) {
      warn_once("convolve-fallback:" + op + ":" + config.to_string() + ":" + filter_size_text(shape),
                op + ": parameters '" + config.to_string() + "' (" + tuning::origin_name(choice.origin) +
                    ") do not fit a " + filter_size_text(shape) + " filter (" + why + "); using the default");
      config = convolve_default_config(shape, dtype, *target.info);
    }
  }

  BoundTaps taps;
  if (!source.buffers.empty()) {
    taps = bind_taps(op, target, queue, source.buffers, wait);
  } else {
    taps.first = cached_taps(op, target.context, source.row);
    taps.second = source.column == source.row ? taps.first : cached_taps(op, target.context, source.column);
  }
  return launch(op, target, queue, dtype, config, problem, image, taps, wait).back();
}

template <typename T>
cl::Event convolve2d_impl(const Config* config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                          std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                          cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, const cl::Buffer& filter,
                          std::size_t filter_offset, std::size_t filter_width, std::size_t filter_height, Border border,
                          const std::vector<cl::Event>* wait) {
  const std::string op = op_name(Kind::Convolve2d);
  check_channels(op, channels);
  check_enum(op, "border", border);
  const FilterShape shape{FilterForm::Direct, channels, radius_of_length(op, "filter_width", filter_width),
                          radius_of_length(op, "filter_height", filter_height)};
  TapsSource source;
  source.buffers.push_back(
      {"filter", &filter, filter_offset, static_cast<std::uint64_t>(filter_width) * filter_height});
  return run_filter<T>(Kind::Convolve2d, config, queue, FilterProblem{width, height, shape, border},
                       ImageOperands{&src, src_offset, src_pitch, &dst, dst_offset, dst_pitch}, source,
                       filter_width >= filter_height ? "filter_width" : "filter_height", wait);
}

template <typename T>
cl::Event separable_filter_impl(const Config* config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch,
                                const cl::Buffer& row_filter, std::size_t row_filter_offset,
                                std::size_t row_filter_length, const cl::Buffer& column_filter,
                                std::size_t column_filter_offset, std::size_t column_filter_length, Border border,
                                const std::vector<cl::Event>* wait) {
  const std::string op = op_name(Kind::Separable);
  check_channels(op, channels);
  check_enum(op, "border", border);
  const FilterShape shape{FilterForm::Separable, channels, radius_of_length(op, "row_filter_length", row_filter_length),
                          radius_of_length(op, "column_filter_length", column_filter_length)};
  TapsSource source;
  source.buffers.push_back({"row_filter", &row_filter, row_filter_offset, row_filter_length});
  source.buffers.push_back({"column_filter", &column_filter, column_filter_offset, column_filter_length});
  return run_filter<T>(Kind::Separable, config, queue, FilterProblem{width, height, shape, border},
                       ImageOperands{&src, src_offset, src_pitch, &dst, dst_offset, dst_pitch}, source,
                       row_filter_length >= column_filter_length ? "row_filter_length" : "column_filter_length", wait);
}

template <typename T>
cl::Event box_blur_impl(const Config* config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                        std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                        cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, std::size_t radius_x,
                        std::size_t radius_y, Border border, const std::vector<cl::Event>* wait) {
  const std::string op = op_name(Kind::Box);
  check_channels(op, channels);
  check_enum(op, "border", border);
  const FilterShape shape{FilterForm::Separable, channels, checked_radius(op, "radius_x", radius_x),
                          checked_radius(op, "radius_y", radius_y)};
  TapsSource source;
  source.row = box_taps(radius_x);
  source.column = box_taps(radius_y);
  return run_filter<T>(Kind::Box, config, queue, FilterProblem{width, height, shape, border},
                       ImageOperands{&src, src_offset, src_pitch, &dst, dst_offset, dst_pitch}, source,
                       radius_x >= radius_y ? "radius_x" : "radius_y", wait);
}

template <typename T>
cl::Event gaussian_blur_impl(const Config* config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                             std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                             cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, double sigma,
                             Border border, std::optional<std::size_t> radius, const std::vector<cl::Event>* wait) {
  const std::string op = op_name(Kind::Gaussian);
  check_channels(op, channels);
  check_enum(op, "border", border);
  if (!(sigma > 0) || !std::isfinite(sigma))
    throw Error(op, "sigma", CL_INVALID_VALUE,
                "sigma must be positive and finite (it is " + std::to_string(sigma) + ")");
  std::string radius_argument = "radius";
  if (!radius) {
    radius_argument = "sigma";
    const double derived = std::max(1.0, std::ceil(3.0 * sigma));
    if (derived > static_cast<double>(kMaxRadius))
      throw Error(
          op, "sigma", CL_INVALID_VALUE,
          "sigma " + std::to_string(sigma) + " gives a radius above the supported " + std::to_string(kMaxRadius));
    radius = static_cast<std::size_t>(derived);
  }
  const int r = checked_radius(op, radius_argument, *radius);
  const FilterShape shape{FilterForm::Separable, channels, r, r};
  TapsSource source;
  source.row = gaussian_blur_taps(sigma, *radius);
  source.column = source.row;
  return run_filter<T>(Kind::Gaussian, config, queue, FilterProblem{width, height, shape, border},
                       ImageOperands{&src, src_offset, src_pitch, &dst, dst_offset, dst_pitch}, source, radius_argument,
                       wait);
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// Search space and defaults.

SearchSpace convolve_search_space(const FilterShape& shape, const DTypeInfo& dtype) {
  const std::int64_t channels = static_cast<std::int64_t>(shape.channels);
  const bool direct = shape.form == FilterForm::Direct;
  Constraint vectors{"VEC in {2, 4, 8, 16}", [](const Values& v, const DeviceInfo&) {
                       const auto vec = at(v, "VEC");
                       return vec == 2 || vec == 4 || vec == 8 || vec == 16;
                     }};
  Constraint tile_shape{"TILE_X * channels % VEC == 0, TILE_Y % WPT_Y == 0, PAD % VEC == 0",
                        [channels](const Values& v, const DeviceInfo&) {
                          return at(v, "TILE_X") > 0 && at(v, "TILE_Y") > 0 && at(v, "WPT_Y") > 0 &&
                                 (at(v, "TILE_X") * channels) % at(v, "VEC") == 0 &&
                                 at(v, "TILE_Y") % at(v, "WPT_Y") == 0 && at(v, "PAD") % at(v, "VEC") == 0;
                        }};
  Constraint tile_group{"work-group (TILE_X * channels / VEC) x (TILE_Y / WPT_Y) within the device's limits",
                        [channels](const Values& v, const DeviceInfo& d) {
                          if (at(v, "VEC") <= 0 || at(v, "WPT_Y") <= 0) return false;
                          const std::int64_t x = at(v, "TILE_X") * channels / at(v, "VEC"),
                                             y = at(v, "TILE_Y") / at(v, "WPT_Y");
                          return x >= 1 && y >= 1 && static_cast<std::uint64_t>(x * y) <= d.max_work_group_size &&
                                 static_cast<std::uint64_t>(x) <= d.max_work_item_sizes[0] &&
                                 static_cast<std::uint64_t>(y) <= d.max_work_item_sizes[1];
                        }};
  Constraint local_memory{"the tile fits the device's local memory", [shape](const Values& v, const DeviceInfo& d) {
                            return tiled_local_bytes(shape, v) <= d.local_memory_bytes;
                          }};
  const int largest_radius = std::max(shape.radius_x, shape.radius_y);
  const int tiled_limit = direct ? kMaxTiledDirectRadius : kMaxFixedRadius;
  Constraint radius{
      "filter radii <= " + std::to_string(tiled_limit) + " (the tiled kernel unrolls its taps)",
      [largest_radius, tiled_limit](const Values&, const DeviceInfo&) { return largest_radius <= tiled_limit; }};
  Constraint rows_per_item{"1 <= WPT_Y <= 32", [](const Values& v, const DeviceInfo&) {
                             return at(v, "WPT_Y") >= 1 && at(v, "WPT_Y") <= 32;
                           }};

  // Tiled parameters in the order `tilecl tune` walks them (the first varies fastest): tile height and rows
  // per work-item around the default first, then tile width, vector width, padding.
  std::vector<Parameter> tiled_parameters{{"TILE_Y", {32, 16, 64, 8}},
                                          {"WPT_Y", {8, 4, 16, 2}},
                                          {"TILE_X", {128, 64, 256, 32}},
                                          {"VEC", {4, 8, 2}},
                                          {"PAD", {0, 4}}};
  // Separable: where the row pass reads its windows (USE_LOCAL_INPUT) and whether a work-item loads all of
  // its windows before filtering any (PREFETCH, 1 the GPU default).
  if (!direct) {
    tiled_parameters.push_back({"USE_LOCAL_INPUT", {0, 1}});
    tiled_parameters.push_back({"PREFETCH", {1, 0}});
  }
  VariantSpace tiled{"tiled", tiled_parameters, {vectors, tile_shape, tile_group, local_memory, radius}};
  if (!direct) {
    for (const char* name : {"USE_LOCAL_INPUT", "PREFETCH"}) {
      tiled.constraints.push_back({std::string(name) + " in {0, 1}", [name](const Values& v, const DeviceInfo&) {
                                     return at(v, name) == 0 || at(v, name) == 1;
                                   }});
    }
  }
  tiled.constraints.push_back(rows_per_item);

  // The CPU-shaped variants (vector, two_pass) round bytes by adding 2^23 (1, the CPU default: rint is a
  // software sequence under PoCL) or with rint (0, the GPU fallback's); the same results either way.
  const bool bytes = dtype.size == 1;
  Constraint rounding{"ROUND_BY_ADD in {0, 1}", [](const Values& v, const DeviceInfo&) {
                        return at(v, "ROUND_BY_ADD") == 0 || at(v, "ROUND_BY_ADD") == 1;
                      }};
  auto cpu_shaped = [bytes, &rounding](const std::string& variant, std::vector<Parameter> parameters,
                                       std::vector<Constraint> constraints) {
    if (bytes) {
      parameters.push_back({"ROUND_BY_ADD", {1, 0}});
      constraints.push_back(rounding);
    }
    for (auto& parameter : work_group_parameters()) parameters.push_back(parameter);
    return VariantSpace{variant, parameters, constraints};
  };
  if (direct) {
    VariantSpace vector = cpu_shaped("vector", {{"VEC", {4, 8, 16, 2}}}, {vectors, work_group_fits()});
    VariantSpace naive{"naive", work_group_parameters(), {work_group_fits()}};
    return SearchSpace({tiled, vector, naive});
  }
  VariantSpace vector = cpu_shaped("vector", {{"WPT_Y", {8, 4, 16, 2}}, {"VEC", {4, 8, 16}}},
                                   {vectors, rows_per_item, work_group_fits()});
  VariantSpace two_pass = cpu_shaped("two_pass", {{"VEC", {4, 8, 16}}}, {vectors, work_group_fits()});
  return SearchSpace({tiled, vector, two_pass});
}

Config convolve_default_config(const FilterShape& shape, const DTypeInfo& dtype, const DeviceInfo& device) {
  const bool direct = shape.form == FilterForm::Direct;
  const SearchSpace space = convolve_search_space(shape, dtype);
  const bool gpu_shaped = !device.is_cpu() && device.local_memory_is_dedicated &&
                          device.local_memory_bytes >= std::uint64_t{32} * 1024 && device.max_work_group_size >= 256;
  if (gpu_shaped) {
    // A local tile of about 128 elements by 32 rows, 4 outputs (16 bytes of floats) per work-item and row,
    // 4 rows per work-item: for a 9x9 Gaussian at 7680x4320 the H200 measured 0.090 ms with 4 rows against
    // 0.106 ms with 8 (tilecl tune, 2026-11-30). Smaller tiles while the local memory or the work-group limit
    // is exceeded.
    const std::int64_t tile_x = shape.channels == 1 ? (direct ? 128 : 64) : 32;
    std::vector<std::pair<std::int64_t, std::int64_t>> heights;  // (TILE_Y, WPT_Y)
    if (direct)
      heights = {{32, 4}, {16, 4}, {8, 2}};
    else if (shape.radius_y >= 3)
      heights = {{32, 4}, {32, 8}, {16, 4}, {8, 2}};
    else
      heights = {{16, 4}, {32, 8}, {8, 2}};
    for (std::int64_t x = tile_x; x >= 8; x /= 2) {
      for (auto [tile_y, wpt_y] : heights) {
        Config config{"tiled", {{"TILE_X", x}, {"TILE_Y", tile_y}, {"WPT_Y", wpt_y}, {"VEC", 4}, {"PAD", 0}}};
        if (!direct) {
          config.values["USE_LOCAL_INPUT"] = 0;
          config.values["PREFETCH"] = 1;
        }
        if (space.validate(config, device).empty()) return config;
      }
    }
    // Too large a filter for the tiled kernels: 16-byte accesses, 256 work-items.
    Config config{direct ? "vector" : "two_pass", {{"VEC", 4}}};
    if (dtype.size == 1) config.values["ROUND_BY_ADD"] = 0;  // rint: one instruction on GPUs
    const Values work_group = work_group_default(64, 256, device.max_work_group_size);
    config.values.insert(work_group.begin(), work_group.end());
    return config;
  }
  // CPUs (and devices without fast local memory): no local memory, one SIMD register of floats per
  // work-item; fused separable passes of 8 rows per work-item; bytes rounded by adding 2^23. Work-groups of
  // 128 x 1: few, large groups (PoCL runs a work-group as a loop; 8 x 1 was up to 1.5x slower at 1920x1080,
  // 1 and 3 channels, floats and bytes).
  const std::int64_t vec = std::clamp<std::int64_t>(static_cast<std::int64_t>(device.native_vector_width_float), 4, 16);
  Config config{"vector", {{"VEC", vec == 4 || vec == 8 || vec == 16 ? vec : 8}}};
  if (!direct) config.values["WPT_Y"] = 8;
  if (dtype.size == 1) config.values["ROUND_BY_ADD"] = 1;
  const Values work_group = work_group_default(128, 128, device.max_work_group_size);
  config.values.insert(work_group.begin(), work_group.end());
  return config;
}

std::vector<float> gaussian_blur_taps(double sigma, std::size_t radius) {
  std::vector<double> weights(2 * radius + 1);
  double sum = 0;
  const long r = static_cast<long>(radius);
  for (long d = -r; d <= r; ++d) {
    const auto x = static_cast<double>(d);
    sum += (weights[static_cast<std::size_t>(d + r)] = std::exp(-0.5 * x * x / (sigma * sigma)));
  }
  std::vector<float> taps(weights.size());
  for (std::size_t i = 0; i < weights.size(); ++i) taps[i] = static_cast<float>(weights[i] / sum);
  return taps;
}

// ---------------------------------------------------------------------------------------------------------
// Explicit-configuration entries and registration.

template <typename T>
cl::Event convolve2d_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                          std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                          cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, const cl::Buffer& filter,
                          std::size_t filter_offset, std::size_t filter_width, std::size_t filter_height, Border border,
                          const std::vector<cl::Event>* wait) {
  return convolve2d_impl<T>(&config, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                            dst_pitch, filter, filter_offset, filter_width, filter_height, border, wait);
}

template <typename T>
cl::Event separable_filter_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch,
                                const cl::Buffer& row_filter, std::size_t row_filter_offset,
                                std::size_t row_filter_length, const cl::Buffer& column_filter,
                                std::size_t column_filter_offset, std::size_t column_filter_length, Border border,
                                const std::vector<cl::Event>* wait) {
  return separable_filter_impl<T>(&config, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                                  dst_pitch, row_filter, row_filter_offset, row_filter_length, column_filter,
                                  column_filter_offset, column_filter_length, border, wait);
}

template <typename T>
cl::Event box_blur_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                        std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                        cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, std::size_t radius_x,
                        std::size_t radius_y, Border border, const std::vector<cl::Event>* wait) {
  return box_blur_impl<T>(&config, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                          dst_pitch, radius_x, radius_y, border, wait);
}

template <typename T>
cl::Event gaussian_blur_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                             std::size_t channels, const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch,
                             cl::Buffer& dst, std::size_t dst_offset, std::size_t dst_pitch, double sigma,
                             Border border, std::optional<std::size_t> radius, const std::vector<cl::Event>* wait) {
  return gaussian_blur_impl<T>(&config, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                               dst_pitch, sigma, border, radius, wait);
}

std::vector<TunableOp> convolve_tunable_ops() {
  auto entry = [](Kind kind, std::vector<std::string> shapes) {
    TunableOp op;
    op.description = {op_name(kind),
                      kFamily,
                      {"float", "uint8"},
                      "WIDTHxHEIGHT[xCHANNELS],FWxFH[,zero|clamp|mirror|wrap] (image, filter taps), e.g. 7680x4320,9x9",
                      std::move(shapes)};
    op.make_subject = [kind](const std::string& dtype, const std::string& shape) {
      return make_subject(kind, dtype, shape);
    };
    return op;
  };
  return {entry(Kind::Convolve2d, {"1920x1080,5x5", "7680x4320,5x5"}),
          entry(Kind::Separable, {"1920x1080,9x9", "7680x4320,9x9"}),
          entry(Kind::Box, {"1920x1080,5x5", "7680x4320,5x5"}),
          entry(Kind::Gaussian, {"1920x1080,9x9", "7680x4320,9x9"})};
}

#define TILECL_INSTANTIATE(T)                                                                                          \
  template cl::Event convolve2d_with<T>(const Config&, cl::CommandQueue&, std::size_t, std::size_t, std::size_t,       \
                                        const cl::Buffer&, std::size_t, std::size_t, cl::Buffer&, std::size_t,         \
                                        std::size_t, const cl::Buffer&, std::size_t, std::size_t, std::size_t, Border, \
                                        const std::vector<cl::Event>*);                                                \
  template cl::Event separable_filter_with<T>(                                                                         \
      const Config&, cl::CommandQueue&, std::size_t, std::size_t, std::size_t, const cl::Buffer&, std::size_t,         \
      std::size_t, cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, std::size_t, std::size_t,                 \
      const cl::Buffer&, std::size_t, std::size_t, Border, const std::vector<cl::Event>*);                             \
  template cl::Event box_blur_with<T>(const Config&, cl::CommandQueue&, std::size_t, std::size_t, std::size_t,         \
                                      const cl::Buffer&, std::size_t, std::size_t, cl::Buffer&, std::size_t,           \
                                      std::size_t, std::size_t, std::size_t, Border, const std::vector<cl::Event>*);   \
  template cl::Event gaussian_blur_with<T>(const Config&, cl::CommandQueue&, std::size_t, std::size_t, std::size_t,    \
                                           const cl::Buffer&, std::size_t, std::size_t, cl::Buffer&, std::size_t,      \
                                           std::size_t, double, Border, std::optional<std::size_t>,                    \
                                           const std::vector<cl::Event>*);
TILECL_INSTANTIATE(std::uint8_t)
TILECL_INSTANTIATE(float)
#undef TILECL_INSTANTIATE

}  // namespace detail

// ---------------------------------------------------------------------------------------------------------
// Public API.

template <typename T>
detail::ImageEvent<T> convolve2d(cl::CommandQueue& queue, std::size_t width, std::size_t height, std::size_t channels,
                                 const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                                 std::size_t dst_offset, std::size_t dst_pitch, const cl::Buffer& filter,
                                 std::size_t filter_offset, std::size_t filter_width, std::size_t filter_height,
                                 Border border, const std::vector<cl::Event>* wait) {
  return detail::convolve2d_impl<T>(nullptr, queue, width, height, channels, src, src_offset, src_pitch, dst,
                                    dst_offset, dst_pitch, filter, filter_offset, filter_width, filter_height, border,
                                    wait);
}

template <typename T>
detail::ImageEvent<T> separable_filter(cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                       std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                       std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                                       std::size_t dst_pitch, const cl::Buffer& row_filter,
                                       std::size_t row_filter_offset, std::size_t row_filter_length,
                                       const cl::Buffer& column_filter, std::size_t column_filter_offset,
                                       std::size_t column_filter_length, Border border,
                                       const std::vector<cl::Event>* wait) {
  return detail::separable_filter_impl<T>(nullptr, queue, width, height, channels, src, src_offset, src_pitch, dst,
                                          dst_offset, dst_pitch, row_filter, row_filter_offset, row_filter_length,
                                          column_filter, column_filter_offset, column_filter_length, border, wait);
}

template <typename T>
detail::ImageEvent<T> box_blur(cl::CommandQueue& queue, std::size_t width, std::size_t height, std::size_t channels,
                               const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                               std::size_t dst_offset, std::size_t dst_pitch, std::size_t radius_x,
                               std::size_t radius_y, Border border, const std::vector<cl::Event>* wait) {
  return detail::box_blur_impl<T>(nullptr, queue, width, height, channels, src, src_offset, src_pitch, dst, dst_offset,
                                  dst_pitch, radius_x, radius_y, border, wait);
}

template <typename T>
detail::ImageEvent<T> gaussian_blur(cl::CommandQueue& queue, std::size_t width, std::size_t height,
                                    std::size_t channels, const cl::Buffer& src, std::size_t src_offset,
                                    std::size_t src_pitch, cl::Buffer& dst, std::size_t dst_offset,
                                    std::size_t dst_pitch, double sigma, Border border,
                                    std::optional<std::size_t> radius, const std::vector<cl::Event>* wait) {
  return detail::gaussian_blur_impl<T>(nullptr, queue, width, height, channels, src, src_offset, src_pitch, dst,
                                       dst_offset, dst_pitch, sigma, border, radius, wait);
}

#define TILECL_INSTANTIATE(T)                                                                                          \
  template cl::Event convolve2d<T>(cl::CommandQueue&, std::size_t, std::size_t, std::size_t, const cl::Buffer&,        \
                                   std::size_t, std::size_t, cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, \
                                   std::size_t, std::size_t, std::size_t, Border, const std::vector<cl::Event>*);      \
  template cl::Event separable_filter<T>(cl::CommandQueue&, std::size_t, std::size_t, std::size_t, const cl::Buffer&,  \
                                         std::size_t, std::size_t, cl::Buffer&, std::size_t, std::size_t,              \
                                         const cl::Buffer&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,  \
                                         std::size_t, Border, const std::vector<cl::Event>*);                          \
  template cl::Event box_blur<T>(cl::CommandQueue&, std::size_t, std::size_t, std::size_t, const cl::Buffer&,          \
                                 std::size_t, std::size_t, cl::Buffer&, std::size_t, std::size_t, std::size_t,         \
                                 std::size_t, Border, const std::vector<cl::Event>*);                                  \
  template cl::Event gaussian_blur<T>(cl::CommandQueue&, std::size_t, std::size_t, std::size_t, const cl::Buffer&,     \
                                      std::size_t, std::size_t, cl::Buffer&, std::size_t, std::size_t, double, Border, \
                                      std::optional<std::size_t>, const std::vector<cl::Event>*);
TILECL_INSTANTIATE(std::uint8_t)
TILECL_INSTANTIATE(float)
#undef TILECL_INSTANTIATE

}  // namespace tilecl
