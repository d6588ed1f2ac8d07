// rgb_to_gray: validate -> parameters -> program -> kernel lease -> enqueue.
//
// Shape buckets (the tuning key's bucket): the image area, px <= 2^16, <= 2^20, <= 2^23 and larger, timed at
// 256x192, 1024x768, 2560x1440 and 7680x4320. Shape syntax for `tilecl tune --op rgb_to_gray`: WIDTHxHEIGHT.
#include "ops/color.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "checks.hpp"
#include "launch.hpp"
#include "ops/image_common.hpp"
#include "ops/tunable_ops.hpp"
#include "program_cache.hpp"
#include "tilecl/error.hpp"
#include "tuning/scratch.hpp"
#include "tuning/tuning_service.hpp"

namespace tilecl {
namespace detail {
namespace {

constexpr const char* kFamily = "color";
constexpr const char* kOp = "rgb_to_gray";

struct GrayOperands {
  const cl::Buffer* src;
  std::uint64_t src_offset, src_pitch;
  cl::Buffer* dst;
  std::uint64_t dst_offset, dst_pitch;
};

void validate(const QueueTarget& target, const DTypeInfo& dtype, std::uint64_t width, std::uint64_t height,
              const GrayOperands& operands) {
  check_kernel_extent(kOp, "width", checked_multiply(kOp, "width", width, 3));
  check_kernel_extent(kOp, "height", height);
  check_image(kOp, "src", *operands.src, target.context, operands.src_offset, operands.src_pitch, 3 * width, height,
              dtype.size);
  check_image(kOp, "dst", *operands.dst, target.context, operands.dst_offset, operands.dst_pitch, width, height,
              dtype.size);
  check_no_overlap(kOp, "src", *operands.src, operands.src_offset, image_extent(operands.src_pitch, 3 * width, height),
                   "dst", *operands.dst, operands.dst_offset, image_extent(operands.dst_pitch, width, height),
                   dtype.size);
}

void validate_weights(const GrayWeights& weights) {
  if (!std::isfinite(weights.red) || !std::isfinite(weights.green) || !std::isfinite(weights.blue))
    throw Error(kOp, "weights", CL_INVALID_VALUE, "the weights must be finite");
}

BuildOptions build_options_for(const DTypeInfo& dtype, const Config& config) {
  BuildOptions options;
  options.define("DTYPE", dtype.cl_type);
  rgb_to_gray_search_space(dtype).add_build_macros(config, options);
  return options;
}

cl::Event launch(const QueueTarget& target, cl::CommandQueue& queue, const DTypeInfo& dtype, const Config& config,
                 std::uint64_t width, std::uint64_t height, const GrayOperands& operands, const GrayWeights& weights,
                 const std::vector<cl::Event>* wait) {
  auto program =
      ProgramCache::instance().get(target.context, target.device, kFamily, build_options_for(dtype, config), kOp);
  const std::string kernel_name = "color_rgb_to_gray_" + config.variant;
  const cl::NDRange local = local_range(config);
  check_work_group_fits(
      kOp, *program, kernel_name,
      local.dimensions() == 0 ? 0 : static_cast<std::size_t>(config.value("WG_X") * config.value("WG_Y")));
  std::uint64_t items_x = width, items_y = height;
  if (config.variant == "vector") {
    items_x = ceil_div(ceil_div(width, static_cast<std::uint64_t>(config.value("VEC"))),
                       static_cast<std::uint64_t>(config.value("WPT_X")));
    items_y = ceil_div(height, static_cast<std::uint64_t>(config.value("WPT_Y")));
  } else if (config.variant == "words") {
    items_x = ceil_div(width, static_cast<std::uint64_t>(config.value("VEC")));
  }
  auto lease = program->lease(kernel_name, kOp);
  set_kernel_args(kOp, lease.kernel(), static_cast<cl_int>(width), static_cast<cl_int>(height), *operands.src,
                  static_cast<cl_ulong>(operands.src_offset), static_cast<cl_int>(operands.src_pitch), *operands.dst,
                  static_cast<cl_ulong>(operands.dst_offset), static_cast<cl_int>(operands.dst_pitch), weights.red,
                  weights.green, weights.blue);
  return enqueue_kernel(kOp, queue, lease.kernel(), global_range(config, items_x, items_y), local, wait);
}

// A problem the tuner can run with any configuration: timing at the bucket's image, verification at a ragged
// layout (odd sizes, pitches and offsets: the unaligned paths) and an aligned padded one (the vector-pointer
// paths, which the timing image takes).
template <typename T>
class GraySubject : public TuningSubject {
 public:
  GraySubject(std::uint64_t width, std::uint64_t height) : area_(area_class(width * height)) {}

  TuningKey key() const override { return {kOp, dtype_of<T>().name, area_.name}; }
  std::string family() const override { return kFamily; }
  std::string timing_shape() const override { return std::to_string(area_.width) + "x" + std::to_string(area_.height); }
  SearchSpace search_space(const DeviceInfo& /*device*/) const override {
    return rgb_to_gray_search_space(dtype_of<T>());
  }
  Config default_config(const DeviceInfo& device) const override {
    return rgb_to_gray_default_config(dtype_of<T>(), device);
  }
  BuildOptions build_options(const Config& config) const override { return build_options_for(dtype_of<T>(), config); }

  void prepare(const cl::CommandQueue& queue, std::uint64_t seed) override {
    std::mt19937_64 random(seed);
    queue_ = queue;
    const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
    timing_src_ = upload(context, queue_, random_values<T>(3 * area_.width * area_.height, random));
    timing_dst_ = cl::Buffer(context, CL_MEM_READ_WRITE, area_.width * area_.height * sizeof(T));
    layouts_ = {Layout(133, 9, 3 * 133 + 5, 133 + 3, 7, 5), Layout(100, 7, 320, 112, 0, 0)};
    for (auto& layout : layouts_) {
      const std::size_t src_size = layout.src_offset + image_extent(layout.src_pitch, 3 * layout.width, layout.height);
      const std::size_t dst_size = layout.dst_offset + image_extent(layout.dst_pitch, layout.width, layout.height) + 16;
      const auto src = random_values<T>(src_size, random);
      layout.initial = random_values<T>(dst_size, random);
      layout.src = upload(context, queue_, src);
      layout.dst = upload(context, queue_, layout.initial);
      layout.expected.assign(layout.initial.begin(), layout.initial.end());
      for (std::uint64_t y = 0; y < layout.height; ++y) {
        for (std::uint64_t x = 0; x < layout.width; ++x) {
          const T* pixel = &src[layout.src_offset + y * layout.src_pitch + 3 * x];
          layout.expected[layout.dst_offset + y * layout.dst_pitch + x] =
              static_cast<double>(weights_.red) * pixel[0] + static_cast<double>(weights_.green) * pixel[1] +
              static_cast<double>(weights_.blue) * pixel[2];
        }
      }
    }
  }

  std::vector<cl::Event> run(cl::CommandQueue& queue, const Config& config) override {
    auto target = queue_target(kOp, queue);
    GrayOperands operands{&timing_src_, 0, 3 * area_.width, &timing_dst_, 0, area_.width};
    return {launch(target, queue, dtype_of<T>(), config, area_.width, area_.height, operands, weights_, nullptr)};
  }

  std::string verify(cl::CommandQueue& queue, const Config& config) override {
    auto target = queue_target(kOp, queue);
    for (auto& layout : layouts_) {
      queue.enqueueWriteBuffer(layout.dst, CL_TRUE, 0, layout.initial.size() * sizeof(T), layout.initial.data());
      GrayOperands operands{&layout.src, layout.src_offset, layout.src_pitch,
                            &layout.dst, layout.dst_offset, layout.dst_pitch};
      launch(target, queue, dtype_of<T>(), config, layout.width, layout.height, operands, weights_, nullptr).wait();
      std::string difference = compare_image(download<T>(queue, layout.dst, layout.initial.size()), layout.expected,
                                             std::is_same_v<T, float> ? 1e-5 : 1e-3);
      if (!difference.empty())
        return std::to_string(layout.width) + "x" + std::to_string(layout.height) + " image: " + difference;
    }
    return {};
  }

  // Bytes moved: 3 elements read and 1 written per pixel.
  double work() const override { return 4.0 * static_cast<double>(area_.width * area_.height) * sizeof(T); }
  const char* work_unit() const override { return "byte"; }

 private:
  using Layout = ImageCheck<T>;

  AreaClass area_;
  GrayWeights weights_{0.3f, 0.59f, 0.11f};
  cl::CommandQueue queue_;
  cl::Buffer timing_src_, timing_dst_;
  std::vector<Layout> layouts_;
};

std::unique_ptr<TuningSubject> make_subject(const std::string& dtype, std::uint64_t width, std::uint64_t height) {
  if (dtype == "uint8") return std::make_unique<GraySubject<std::uint8_t>>(width, height);
  if (dtype == "float") return std::make_unique<GraySubject<float>>(width, height);
  throw Error(kOp, "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not uint8 or float");
}

template <typename T>
cl::Event run_rgb_to_gray(const Config* explicit_config, cl::CommandQueue& queue, std::uint64_t width,
                          std::uint64_t height, const GrayOperands& operands, const GrayWeights& weights,
                          const std::vector<cl::Event>* wait) {
  validate_weights(weights);
  if (width == 0 || height == 0) return cl::Event();
  const auto target = queue_target(kOp, queue);
  const DTypeInfo& dtype = dtype_of<T>();
  validate(target, dtype, width, height, operands);
  check_wait_list(kOp, wait, target.context);
  Config config;
  if (explicit_config != nullptr) {
    config = *explicit_config;
    std::string why = rgb_to_gray_search_space(dtype).validate(config, *target.info);
    if (!why.empty()) throw Error(kOp, "config", CL_INVALID_VALUE, config.to_string() + ": " + why);
  } else {
    GraySubject<T> subject(width, height);
    config = TuningService::instance().choose(target, subject).parameters;
  }
  return launch(target, queue, dtype, config, width, height, operands, weights, wait);
}

}  // namespace

SearchSpace rgb_to_gray_search_space(const DTypeInfo& dtype) {
  // 16-byte accesses first: VEC 16 for bytes, 4 for floats.
  const std::vector<std::int64_t> vectors =
      dtype.size == 1 ? std::vector<std::int64_t>{16, 8, 4, 2} : std::vector<std::int64_t>{4, 8, 16, 2};
  auto naive_parameters = work_group_parameters();
  // WPT_X first: in `tilecl tune`'s exhaustive order it varies fastest after the work-group size.
  std::vector<Parameter> vector_parameters{{"WPT_X", {1, 2, 4}}, {"WPT_Y", {1, 2, 4}}, {"VEC", vectors}};
  // Bytes: how the sum is rounded (0 rint, 1 add and subtract 2^23: the same results, and much faster where rint
  // is a software sequence, as under PoCL). Last, so that the GPU default's region (0) is walked first.
  if (dtype.size == 1) vector_parameters.push_back({"ROUND_BY_ADD", {0, 1}});
  for (auto& parameter : work_group_parameters()) vector_parameters.push_back(parameter);
  VariantSpace naive{"naive", naive_parameters, {work_group_fits()}};
  VariantSpace vector{"vector",
                      vector_parameters,
                      {work_group_fits(),
                       {"VEC in {2, 4, 8, 16}",
                        [](const Values& v, const DeviceInfo&) {
                          const auto vec = at(v, "VEC");
                          return vec == 2 || vec == 4 || vec == 8 || vec == 16;
                        }},
                       {"1 <= WPT_X, WPT_Y <= 16", [](const Values& v, const DeviceInfo&) {
                          return at(v, "WPT_X") >= 1 && at(v, "WPT_X") <= 16 && at(v, "WPT_Y") >= 1 &&
                                 at(v, "WPT_Y") <= 16;
                        }}}};
  Constraint rounding{"ROUND_BY_ADD in {0, 1}", [](const Values& v, const DeviceInfo&) {
                        return at(v, "ROUND_BY_ADD") == 0 || at(v, "ROUND_BY_ADD") == 1;
                      }};
  if (dtype.size != 1) return SearchSpace({vector, naive});
  vector.constraints.push_back(rounding);
  // Bytes only: the GPU form, one chunk per work-item taken apart as 32-bit words (color.cl), on
  // little-endian devices.
  std::vector<Parameter> words_parameters{{"VEC", {16, 8, 4}}, {"ROUND_BY_ADD", {0, 1}}};
  for (auto& parameter : work_group_parameters()) words_parameters.push_back(parameter);
  VariantSpace words{"words",
                     words_parameters,
                     {work_group_fits(),
                      rounding,
                      {"VEC in {4, 8, 16} on a little-endian device", [](const Values& v, const DeviceInfo& device) {
                         const auto vec = at(v, "VEC");
                         return (vec == 4 || vec == 8 || vec == 16) && device.little_endian;
                       }}}};
  return SearchSpace({vector, words, naive});
}

Config rgb_to_gray_default_config(const DTypeInfo& dtype, const DeviceInfo& device) {
  Config config{"vector", {{"WPT_X", 1}, {"WPT_Y", 1}}};
  Values work_group;
  if (device.is_cpu()) {
    // Bytes: 16 pixels (three 16-byte loads); floats: one SIMD register per channel. PoCL vectorizes across
    // the work-items of a row of 64. Bytes round by adding 2^23: rint is a software sequence under PoCL.
    config.values["VEC"] =
        dtype.size == 1 ? 16
                        : std::clamp<std::int64_t>(static_cast<std::int64_t>(device.native_vector_width_float), 4, 16);
    if (dtype.size == 1) config.values["ROUND_BY_ADD"] = 1;
    work_group = work_group_default(64, 64, device.max_work_group_size);
  } else if (dtype.size == 1 && device.little_endian) {
    // Bytes: 16 pixels per work-item taken apart as words (three 16-byte loads, one store), rint (one
    // instruction on GPUs), 128 x 1 work-items: 36.4 us at 7680x4320 on an H200, the time of a copy of the
    // same bytes, against 40.4 us for the best vector setting (2026-11-30, bench/results/nvidia-h200).
    config = Config{"words", {{"VEC", 16}, {"ROUND_BY_ADD", 0}}};
    work_group = work_group_default(128, 128, device.max_work_group_size);
  } else {
    // 16-byte accesses (VEC 16 for bytes, 4 for floats: three loads and one store per chunk), 256 work-items
    // as 64 x 4 (first-use tuning tries the other work-group shapes, which cost no compile).
    config.values["VEC"] = std::max<std::int64_t>(1, 16 / static_cast<std::int64_t>(dtype.size));
    if (dtype.size == 1) config.values["ROUND_BY_ADD"] = 0;  // rint: one instruction on GPUs
    work_group = work_group_default(64, 256, device.max_work_group_size);
  }
  config.values.insert(work_group.begin(), work_group.end());
  return config;
}

template <typename T>
cl::Event rgb_to_gray_with(const Config& config, cl::CommandQueue& queue, std::size_t width, std::size_t height,
                           const cl::Buffer& src, std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                           std::size_t dst_offset, std::size_t dst_pitch, const GrayWeights& weights,
                           const std::vector<cl::Event>* wait) {
  return run_rgb_to_gray<T>(&config, queue, width, height,
                            GrayOperands{&src, src_offset, src_pitch, &dst, dst_offset, dst_pitch}, weights, wait);
}

std::vector<TunableOp> color_tunable_ops() {
  TunableOp op;
  op.description = {kOp,
                    kFamily,
                    {"uint8", "float"},
                    "WIDTHxHEIGHT (pixels), e.g. 7680x4320",
                    {"256x192", "1024x768", "2560x1440", "7680x4320"}};
  op.make_subject = [](const std::string& dtype, const std::string& shape) {
    const ImageSize size = parse_image_size(kOp, shape, false);
    return make_subject(dtype, size.width, size.height);
  };
  return {op};
}

template cl::Event rgb_to_gray_with<std::uint8_t>(const Config&, cl::CommandQueue&, std::size_t, std::size_t,
                                                  const cl::Buffer&, std::size_t, std::size_t, cl::Buffer&, std::size_t,
                                                  std::size_t, const GrayWeights&, const std::vector<cl::Event>*);
template cl::Event rgb_to_gray_with<float>(const Config&, cl::CommandQueue&, std::size_t, std::size_t,
                                           const cl::Buffer&, std::size_t, std::size_t, cl::Buffer&, std::size_t,
                                           std::size_t, const GrayWeights&, const std::vector<cl::Event>*);

}  // namespace detail

template <typename T>
detail::ImageEvent<T> rgb_to_gray(cl::CommandQueue& queue, std::size_t width, std::size_t height, const cl::Buffer& src,
                                  std::size_t src_offset, std::size_t src_pitch, cl::Buffer& dst,
                                  std::size_t dst_offset, std::size_t dst_pitch, const GrayWeights& weights,
                                  const std::vector<cl::Event>* wait) {
  return detail::run_rgb_to_gray<T>(nullptr, queue, width, height,
                                    detail::GrayOperands{&src, src_offset, src_pitch, &dst, dst_offset, dst_pitch},
                                    weights, wait);
}

template cl::Event rgb_to_gray<std::uint8_t>(cl::CommandQueue&, std::size_t, std::size_t, const cl::Buffer&,
                                             std::size_t, std::size_t, cl::Buffer&, std::size_t, std::size_t,
                                             const GrayWeights&, const std::vector<cl::Event>*);
template cl::Event rgb_to_gray<float>(cl::CommandQueue&, std::size_t, std::size_t, const cl::Buffer&, std::size_t,
                                      std::size_t, cl::Buffer&, std::size_t, std::size_t, const GrayWeights&,
                                      const std::vector<cl::Event>*);

}  // namespace tilecl
