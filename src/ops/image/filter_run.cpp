#include "ops/image/filter_run.hpp"

#include "log.hpp"
#include "ops/image/filter_checks.hpp"
#include "ops/image/filter_launch.hpp"
#include "ops/image/filter_space.hpp"
#include "ops/image/image_common.hpp"
#include "tilecl/error.hpp"
#include "tuning/choice_resolver.hpp"

namespace tilecl::detail {
namespace {

std::string size_text(const FilterShape& shape) {
  return std::to_string(2 * shape.radius_x + 1) + "x" + std::to_string(2 * shape.radius_y + 1);
}

void validate_call(const QueueTarget& target, const DTypeInfo& dtype, const FilterCall& call) {
  const std::string op = filter_op_name(call.op);
  const FilterShape& shape = call.problem.shape;
  const std::uint64_t kw = 2 * static_cast<std::uint64_t>(shape.radius_x) + 1;
  const std::uint64_t kh = 2 * static_cast<std::uint64_t>(shape.radius_y) + 1;
  if (shape.form == FilterForm::Direct)
    check_constant_memory(op, call.size_argument, target, kw * kh,
                          "a " + std::to_string(kw) + " x " + std::to_string(kh) + " filter's taps");
  else
    check_constant_memory(op, call.size_argument, target, kw + kh,
                          "row and column filters of " + std::to_string(kw) + " and " + std::to_string(kh) + " taps");
  validate_images(op, target, dtype, call.problem, call.image);
  const std::uint64_t dst_extent =
      image_extent(call.image.dst_pitch, call.problem.width * shape.channels, call.problem.height);
  for (const auto& taps : call.buffers) check_taps_buffer(op, taps, target, call.image, dst_extent, dtype.size);
}

// The tuning service's choice; one that cannot serve this filter (say an override of a tile too large for
// this radius, set for every size) gives way to the default, with a warning once.
template <typename T>
Config chosen_config(const QueueTarget& target, const FilterCall& call, const SearchSpace& space) {
  const std::string op = filter_op_name(call.op);
  const FilterShape& shape = call.problem.shape;
  auto subject = make_filter_subject<T>(call.op, call.problem.width, call.problem.height, shape, call.problem.border);
  const tuning::Choice choice = ChoiceResolver::instance().choose(target, *subject);
  const std::string why = space.validate(choice.parameters, *target.info);
  if (why.empty()) return choice.parameters;
  warn_once("convolve-fallback:" + op + ":" + choice.parameters.to_string() + ":" + size_text(shape),
            op + ": parameters '" + choice.parameters.to_string() + "' (" + tuning::origin_name(choice.origin) +
                ") do not fit a " + size_text(shape) + " filter (" + why + "); using the default");
  return convolve_default_config(shape, dtype_of<T>(), *target.info);
}

}  // namespace

template <typename T>
cl::Event run_filter(const Config* explicit_config, cl::CommandQueue& queue, const FilterCall& call,
                     const std::vector<cl::Event>* wait) {
  const std::string op = filter_op_name(call.op);
  if (call.problem.width == 0 || call.problem.height == 0) return cl::Event();
  const auto target = queue_target(op, queue);
  const DTypeInfo& dtype = dtype_of<T>();
  validate_call(target, dtype, call);
  check_wait_list(op, wait, target.context);
  const SearchSpace& space = convolve_search_space(call.problem.shape, dtype);
  Config config;
  if (explicit_config != nullptr) {
    config = *explicit_config;
    const std::string why = space.validate(config, *target.info);
    if (!why.empty()) throw Error(op, "config", CL_INVALID_VALUE, config.to_string() + ": " + why);
  } else {
    config = chosen_config<T>(target, call, space);
  }
  const BoundTaps taps = call.buffers.empty() ? host_taps(op, target.context, call.row, call.column)
                                              : bind_taps(op, target, queue, call.buffers, wait);
  return launch_filter(op, target, queue, dtype, plan_of(config), call.problem, call.image, taps, wait).back();
}

template cl::Event run_filter<float>(const Config*, cl::CommandQueue&, const FilterCall&,
                                     const std::vector<cl::Event>*);
template cl::Event run_filter<std::uint8_t>(const Config*, cl::CommandQueue&, const FilterCall&,
                                            const std::vector<cl::Event>*);

}  // namespace tilecl::detail
