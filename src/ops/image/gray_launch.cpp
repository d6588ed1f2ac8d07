#include "ops/image/gray_launch.hpp"

#include "launch.hpp"
#include "ops/image/image_common.hpp"
#include "program_cache.hpp"

namespace tilecl::detail {

std::uint64_t source_channels(ChannelOrder order) {
  return order == ChannelOrder::RGBA || order == ChannelOrder::BGRA ? 4 : 3;
}

std::array<float, 3> kernel_weights(const GrayOptions& options, bool opencv) {
  // cvtColor's BT.601 weights in 15 fractional bits (color.hpp in OpenCV's imgproc: RY15, GY15, BY15).
  const float red = opencv ? 9798.0f : options.weights.red;
  const float green = opencv ? 19235.0f : options.weights.green;
  const float blue = opencv ? 3735.0f : options.weights.blue;
  const bool blue_first = options.order == ChannelOrder::BGR || options.order == ChannelOrder::BGRA;
  return blue_first ? std::array<float, 3>{blue, green, red} : std::array<float, 3>{red, green, blue};
}

namespace {

LaunchGeometry gray_geometry(const GrayPlan& plan, std::uint64_t width, std::uint64_t height) {
  std::uint64_t items_x = width, items_y = height;
  if (plan.variant == GrayVariant::Vector) {
    items_x = ceil_div(ceil_div(width, static_cast<std::uint64_t>(plan.vec)), static_cast<std::uint64_t>(plan.wpt_x));
    items_y = ceil_div(height, static_cast<std::uint64_t>(plan.wpt_y));
  } else if (plan.variant == GrayVariant::Words) {
    items_x = ceil_div(width, static_cast<std::uint64_t>(plan.vec));
  }
  return fitted_flat_launch(plan.wg_x, plan.wg_y, items_x, items_y);
}

}  // namespace

std::size_t gray_group_items(const GrayPlan& plan) {
  return plan.wg_x == 0 ? 0 : static_cast<std::size_t>(plan.wg_x * plan.wg_y);
}

cl::Event launch_gray_kernel(cl::CommandQueue& queue, cl::Kernel& kernel, const GrayPlan& plan, std::uint64_t width,
                             std::uint64_t height, const GrayOperands& operands, const std::array<float, 3>& weights,
                             const std::vector<cl::Event>* wait) {
  const LaunchGeometry geometry = gray_geometry(plan, width, height);
  set_kernel_args(kGrayOp, kernel, static_cast<cl_int>(width), static_cast<cl_int>(height), *operands.src,
                  static_cast<cl_ulong>(operands.src_offset), static_cast<cl_int>(operands.src_pitch), *operands.dst,
                  static_cast<cl_ulong>(operands.dst_offset), static_cast<cl_int>(operands.dst_pitch), weights[0],
                  weights[1], weights[2]);
  return enqueue_kernel(kGrayOp, queue, kernel, geometry.global, geometry.local, wait);
}

cl::Event launch_gray(const QueueTarget& target, cl::CommandQueue& queue, const DTypeInfo& dtype,
                      const GrayShape& shape, const GrayPlan& plan, std::uint64_t width, std::uint64_t height,
                      const GrayOperands& operands, const std::array<float, 3>& weights,
                      const std::vector<cl::Event>* wait) {
  auto program = ProgramCache::instance().get(target.context, target.device, kColorFamily,
                                              gray_build_options(dtype, shape, plan), kGrayOp);
  const std::string kernel_name = gray_kernel_name(plan.variant);
  check_work_group_fits(kGrayOp, *program, kernel_name, gray_group_items(plan));
  auto lease = program->lease(kernel_name, kGrayOp);
  return launch_gray_kernel(queue, lease.kernel(), plan, width, height, operands, weights, wait);
}

}  // namespace tilecl::detail
