#include "ops/image/gray_run.hpp"

#include <cmath>

#include "launch.hpp"
#include "ops/image/gray_launch.hpp"
#include "ops/image/gray_subject.hpp"
#include "ops/image/image_common.hpp"
#include "ops/op_frame.hpp"
#include "tilecl/error.hpp"

namespace tilecl::detail {
namespace {

bool same_weights(const GrayWeights& a, const GrayWeights& b) {
  return a.red == b.red && a.green == b.green && a.blue == b.blue;
}

// The options are valid; returns the shape they and the element type give.
GrayShape check_options(const GrayOptions& options, bool bytes) {
  const GrayWeights& weights = options.weights;
  if (!std::isfinite(weights.red) || !std::isfinite(weights.green) || !std::isfinite(weights.blue))
    throw Error(kGrayOp, "weights", CL_INVALID_VALUE, "the weights must be finite");
  const int order = static_cast<int>(options.order);
  if (order < static_cast<int>(ChannelOrder::RGB) || order > static_cast<int>(ChannelOrder::BGRA))
    throw Error(kGrayOp, "order", CL_INVALID_VALUE, std::to_string(order) + " is not a tilecl::ChannelOrder");
  if (options.arithmetic != Arithmetic::Float && options.arithmetic != Arithmetic::OpenCV)
    throw Error(kGrayOp, "arithmetic", CL_INVALID_VALUE,
                std::to_string(static_cast<int>(options.arithmetic)) + " is not a tilecl::Arithmetic");
  const bool opencv = bytes && options.arithmetic == Arithmetic::OpenCV;
  if (opencv && !same_weights(weights, GrayWeights::bt601()))
    throw Error(kGrayOp, "weights", CL_INVALID_VALUE,
                "Arithmetic::OpenCV takes the BT.601 weights (GrayWeights::bt601()): cvtColor has no others");
  return GrayShape{source_channels(options.order), opencv};
}

void validate(const QueueTarget& target, const DTypeInfo& dtype, std::uint64_t width, std::uint64_t height,
              std::uint64_t channels, const GrayOperands& operands) {
  const std::uint64_t row = checked_multiply(kGrayOp, "width", width, channels);
  check_kernel_extent(kGrayOp, "width", row);
  check_kernel_extent(kGrayOp, "height", height);
  check_image(kGrayOp, "src", *operands.src, target.context, operands.src_offset, operands.src_pitch, row, height,
              dtype.size);
  check_image(kGrayOp, "dst", *operands.dst, target.context, operands.dst_offset, operands.dst_pitch, width, height,
              dtype.size);
  check_no_overlap(kGrayOp, "src", *operands.src, operands.src_offset, image_extent(operands.src_pitch, row, height),
                   "dst", *operands.dst, operands.dst_offset, image_extent(operands.dst_pitch, width, height),
                   dtype.size);
}

// What a warm call of one memo entry reuses: the plan and its program's options.
struct GrayMemoPlan {
  GrayPlan plan;
  BuildOptions options;
  std::string kernel;
};

// rgb_to_gray in the common frame (ops/op_frame.hpp): validation, the choice (memoized per thread), the launch.
template <typename T>
struct GrayFrameOp {
  struct Call {
    std::uint64_t width, height;
    GrayShape shape;
    const GrayOperands& operands;
    std::array<float, 3> weights;
  };
  const char* name() const { return kGrayOp; }
  bool is_empty(const Call& c) const { return c.width == 0 || c.height == 0; }
  void validate(const QueueTarget& target, const Call& c) const {
    detail::validate(target, dtype_of<T>(), c.width, c.height, c.shape.src_channels, c.operands);
  }
  const SearchSpace& space(const DeviceInfo& /*device*/, const Call& c) const {
    static const SearchSpace spaces[2][2] = {
        {rgb_to_gray_search_space(dtype_of<T>(), {3, false}), rgb_to_gray_search_space(dtype_of<T>(), {3, true})},
        {rgb_to_gray_search_space(dtype_of<T>(), {4, false}), rgb_to_gray_search_space(dtype_of<T>(), {4, true})}};
    return spaces[c.shape.src_channels == 4 ? 1 : 0][c.shape.opencv ? 1 : 0];
  }
  // The tuning bucket (GraySubject::key: area class, four channels, arithmetic); the program follows from it.
  ShapeKey shape_key(const Call& c) const {
    const std::uint64_t area = area_class(c.width * c.height).width;
    return {kGrayOp, dtype_of<T>().name, area | (c.shape.src_channels << 16) | (std::uint64_t{c.shape.opencv} << 24),
            0};
  }
  std::unique_ptr<TuningSubject> subject(const Call& c) const {
    return make_gray_subject<T>(c.width, c.height, c.shape);
  }
  cl::Event enqueue(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const Call& c,
                    const std::vector<cl::Event>* wait) const {
    const auto& memo = resolved.plan_as<GrayMemoPlan>([&](const Config& config) {
      GrayMemoPlan made{gray_plan_of(config), {}, {}};
      made.options = gray_build_options(dtype_of<T>(), c.shape, made.plan);
      made.kernel = gray_kernel_name(made.plan.variant);
      return made;
    });
    if (resolved.is_explicit)
      return launch_gray(target, queue, dtype_of<T>(), c.shape, memo.plan, c.width, c.height, c.operands, c.weights,
                         wait);
    cl::Kernel& kernel = resolved.main_kernel(target, kColorFamily, memo.options, memo.kernel, kGrayOp);
    resolved.check_main_work_group(kGrayOp, memo.kernel, gray_group_items(memo.plan));
    return launch_gray_kernel(queue, kernel, memo.plan, c.width, c.height, c.operands, c.weights, wait);
  }
};

}  // namespace

template <typename T>
cl::Event run_rgb_to_gray(const Config* explicit_config, cl::CommandQueue& queue, std::uint64_t width,
                          std::uint64_t height, const GrayOperands& operands, const GrayOptions& options,
                          const std::vector<cl::Event>* wait) {
  const GrayShape shape = check_options(options, sizeof(T) == 1);
  const typename GrayFrameOp<T>::Call call{width, height, shape, operands, kernel_weights(options, shape.opencv)};
  return run_op(GrayFrameOp<T>{}, explicit_config, queue, call, wait);
}

template cl::Event run_rgb_to_gray<float>(const Config*, cl::CommandQueue&, std::uint64_t, std::uint64_t,
                                          const GrayOperands&, const GrayOptions&, const std::vector<cl::Event>*);
template cl::Event run_rgb_to_gray<std::uint8_t>(const Config*, cl::CommandQueue&, std::uint64_t, std::uint64_t,
                                                 const GrayOperands&, const GrayOptions&,
                                                 const std::vector<cl::Event>*);

std::unique_ptr<TuningSubject> parse_gray_subject(const std::string& dtype, const std::string& shape) {
  const std::size_t comma = shape.find(',');
  const ImageSize size = parse_image_size(kGrayOp, shape.substr(0, comma), false);
  GrayShape gray;
  for (std::size_t start = comma; start != std::string::npos;) {
    const std::size_t next = shape.find(',', start + 1);
    const std::string part = shape.substr(start + 1, next == std::string::npos ? std::string::npos : next - start - 1);
    if (part == "rgba" || part == "bgra") {
      gray.src_channels = 4;
    } else if (part == "opencv") {
      gray.opencv = dtype == "uint8";
    } else if (part != "rgb" && part != "bgr") {
      throw Error(kGrayOp, "shape", CL_INVALID_VALUE,
                  "'" + part + "' in '" + shape + "': WIDTHxHEIGHT[,rgb|bgr|rgba|bgra][,opencv]");
    }
    start = next;
  }
  if (dtype == "uint8") return make_gray_subject<std::uint8_t>(size.width, size.height, gray);
  if (dtype == "float") return make_gray_subject<float>(size.width, size.height, gray);
  throw Error(kGrayOp, "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not uint8 or float");
}

}  // namespace tilecl::detail
