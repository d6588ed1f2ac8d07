#include "ops/image/filter_launch.hpp"

#include "launch.hpp"
#include "ops/image/filter_program.hpp"
#include "ops/image/image_common.hpp"
#include "program_cache.hpp"
#include "tilecl/error.hpp"
#include "workspace.hpp"

namespace tilecl::detail {
namespace {

// The scalar arguments every kernel of a call shares, in the kernels' types.
struct KernelScalars {
  cl_int width, height, radius_x, radius_y;
  cl_float border_value;
  cl_uint4 fixed_point;
  cl_float fixed_scale;
};

KernelScalars scalars_of(const FilterProblem& problem) {
  KernelScalars s{};
  s.width = static_cast<cl_int>(problem.width);
  s.height = static_cast<cl_int>(problem.height);
  s.radius_x = problem.shape.radius_x;
  s.radius_y = problem.shape.radius_y;
  s.border_value = problem.border_value;
  s.fixed_point.s[0] = problem.finish.bias;
  s.fixed_point.s[1] = problem.finish.multiplier;
  s.fixed_point.s[2] = problem.finish.shift;
  s.fixed_point.s[3] = static_cast<cl_uint>(problem.finish.float_end);
  s.fixed_scale = problem.finish.scale;
  return s;
}

LaunchGeometry geometry_of(const FilterPlan& plan, const FilterProblem& problem) {
  const std::uint64_t row_elements = problem.width * problem.shape.channels;
  const auto vec = static_cast<std::uint64_t>(plan.vec);
  switch (plan.variant) {
    case FilterVariant::Tiled: {
      const auto tile_x = static_cast<std::uint64_t>(plan.tile_x), tile_y = static_cast<std::uint64_t>(plan.tile_y);
      const std::uint64_t group_x = tile_x * problem.shape.channels / vec;
      const std::uint64_t group_y = tile_y / static_cast<std::uint64_t>(plan.wpt_y);
      return {cl::NDRange(ceil_div(problem.width, tile_x) * group_x, ceil_div(problem.height, tile_y) * group_y),
              cl::NDRange(group_x, group_y), static_cast<std::size_t>(group_x * group_y)};
    }
    case FilterVariant::Naive:
      return fitted_flat_launch(plan.wg_x, plan.wg_y, problem.width, problem.height);
    case FilterVariant::TwoPass:
      return fitted_flat_launch(plan.wg_x, plan.wg_y, ceil_div(row_elements, vec), problem.height);
    case FilterVariant::Words: {
      // Bands of WPW * WORDS_WG word columns overlapping by 2 ceil(rx * channels / 4) words.
      const std::uint64_t halo =
          ceil_div(static_cast<std::uint64_t>(problem.shape.radius_x) * problem.shape.channels, 4);
      const auto group = static_cast<std::uint64_t>(plan.words_wg);
      const std::uint64_t out = static_cast<std::uint64_t>(plan.wpw) * group - 2 * halo;
      return {cl::NDRange(ceil_div(ceil_div(row_elements, 4), out) * group,
                          ceil_div(problem.height, static_cast<std::uint64_t>(plan.wpt_y))),
              cl::NDRange(group, 1), static_cast<std::size_t>(group)};
    }
    case FilterVariant::Ring:
    case FilterVariant::Vector: {
      const std::uint64_t rows = ceil_div(problem.height, static_cast<std::uint64_t>(plan.wpt_y));
      return fitted_flat_launch(plan.wg_x, plan.wg_y, ceil_div(row_elements, vec), rows);
    }
  }
  return {};
}

std::vector<cl::Event> launch_two_pass(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                                       CompiledProgram& program, const LaunchGeometry& geometry,
                                       const FilterProblem& problem, const ImageOperands& image, const BoundTaps& taps,
                                       const std::vector<cl::Event>* wait) {
  // Rows into a workspace of 4-byte elements (floats, or uints under USE_FIXED_POINT), then columns out of it.
  const KernelScalars s = scalars_of(problem);
  const std::uint64_t work_pitch = round_up(problem.width * problem.shape.channels, 16);
  check_kernel_extent(op, "width", work_pitch);
  const std::uint64_t bytes =
      checked_multiply(op, "workspace", checked_multiply(op, "workspace", work_pitch, problem.height), 4);
  if (bytes > target.info->max_allocation_bytes)
    throw Error(op, "workspace", CL_INVALID_BUFFER_SIZE,
                "the two-pass intermediate needs " + std::to_string(bytes) +
                    " bytes, more than the device allocates at once (" +
                    std::to_string(target.info->max_allocation_bytes) + ")");
  auto workspace = acquire_workspace(op, target.context, target.device, "convolve two-pass intermediate",
                                     static_cast<std::size_t>(bytes), wait);
  for (const char* name : {"convolve_rows_vector", "convolve_cols_vector"})
    check_work_group_fits(op, program, name, geometry.group_items);
  auto rows = program.lease("convolve_rows_vector", op);
  set_kernel_args(op, rows.kernel(), s.width, s.height, *image.src, static_cast<cl_ulong>(image.src_offset),
                  static_cast<cl_int>(image.src_pitch), workspace.buffer(), static_cast<cl_int>(work_pitch), taps.first,
                  s.radius_x, s.border_value);
  cl::Event first = enqueue_kernel(op, queue, rows.kernel(), geometry.global, geometry.local, workspace.wait_list());
  cl::Event second;
  try {
    auto columns = program.lease("convolve_cols_vector", op);
    set_kernel_args(op, columns.kernel(), s.width, s.height, workspace.buffer(), static_cast<cl_int>(work_pitch),
                    *image.dst, static_cast<cl_ulong>(image.dst_offset), static_cast<cl_int>(image.dst_pitch),
                    taps.first, taps.second, s.radius_x, s.radius_y, s.border_value, s.fixed_point, s.fixed_scale);
    const std::vector<cl::Event> after_rows{first};
    second = enqueue_kernel(op, queue, columns.kernel(), geometry.global, geometry.local, &after_rows);
  } catch (...) {
    workspace.release_after(first);  // the next user of the workspace still waits for the row pass
    throw;
  }
  workspace.release_after(second);
  return {first, second};
}

// Sets the single kernel's arguments and enqueues it.
cl::Event launch_single(const std::string& op, cl::CommandQueue& queue, cl::Kernel& kernel,
                        const LaunchGeometry& geometry, const FilterProblem& problem, const ImageOperands& image,
                        const BoundTaps& taps, const std::vector<cl::Event>* wait) {
  const KernelScalars s = scalars_of(problem);
  const auto src_offset = static_cast<cl_ulong>(image.src_offset), dst_offset = static_cast<cl_ulong>(image.dst_offset);
  const auto src_pitch = static_cast<cl_int>(image.src_pitch), dst_pitch = static_cast<cl_int>(image.dst_pitch);
  if (problem.shape.form == FilterForm::Direct)
    set_kernel_args(op, kernel, s.width, s.height, *image.src, src_offset, src_pitch, *image.dst, dst_offset, dst_pitch,
                    taps.first, s.radius_x, s.radius_y, s.border_value);
  else
    set_kernel_args(op, kernel, s.width, s.height, *image.src, src_offset, src_pitch, *image.dst, dst_offset, dst_pitch,
                    taps.first, taps.second, s.radius_x, s.radius_y, s.border_value, s.fixed_point, s.fixed_scale);
  return enqueue_kernel(op, queue, kernel, geometry.global, geometry.local, wait);
}

}  // namespace

BuildOptions filter_program_options(const FilterProblem& problem, const DTypeInfo& dtype, const FilterPlan& plan) {
  return filter_build_options(problem.shape, problem.border, dtype, plan);
}

std::string filter_main_kernel(const FilterProblem& problem, const FilterPlan& plan) {
  return filter_kernel_names(problem.shape.form, plan.variant).front();
}

std::vector<cl::Event> launch_filter_from(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                                          CompiledProgram& program, cl::Kernel* kernel, const FilterPlan& plan,
                                          const FilterProblem& problem, const ImageOperands& image,
                                          const BoundTaps& taps, const std::vector<cl::Event>* wait) {
  std::vector<cl::Event> wait_list;
  if (!taps.copies.empty()) {  // the copies of the caller's taps come first
    if (wait != nullptr) wait_list = *wait;
    wait_list.insert(wait_list.end(), taps.copies.begin(), taps.copies.end());
    wait = &wait_list;
  }
  const LaunchGeometry geometry = geometry_of(plan, problem);
  if (plan.variant == FilterVariant::TwoPass)
    return launch_two_pass(op, target, queue, program, geometry, problem, image, taps, wait);
  if (kernel != nullptr) return {launch_single(op, queue, *kernel, geometry, problem, image, taps, wait)};
  const std::string name = filter_main_kernel(problem, plan);
  check_work_group_fits(op, program, name, geometry.group_items);
  auto lease = program.lease(name, op);
  return {launch_single(op, queue, lease.kernel(), geometry, problem, image, taps, wait)};
}

std::size_t filter_group_items(const FilterPlan& plan, const FilterProblem& problem) {
  // The flat variants' configured group bounds every fitted one, so one check covers every later call of the plan.
  if (plan.variant == FilterVariant::Words) return static_cast<std::size_t>(plan.words_wg);
  if (plan.variant != FilterVariant::Tiled) return plan.wg_x <= 0 ? 0 : static_cast<std::size_t>(plan.wg_x * plan.wg_y);
  return geometry_of(plan, problem).group_items;
}

std::vector<cl::Event> launch_filter(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                                     const DTypeInfo& dtype, const FilterPlan& plan, const FilterProblem& problem,
                                     const ImageOperands& image, const BoundTaps& taps,
                                     const std::vector<cl::Event>* wait) {
  auto program = ProgramCache::instance().get(target.context, target.device, kConvolveFamily,
                                              filter_program_options(problem, dtype, plan), op);
  return launch_filter_from(op, target, queue, *program, nullptr, plan, problem, image, taps, wait);
}

}  // namespace tilecl::detail
