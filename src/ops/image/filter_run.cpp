#include "ops/image/filter_run.hpp"

#include "launch.hpp"
#include "log.hpp"
#include "ops/image/filter_checks.hpp"
#include "ops/image/filter_launch.hpp"
#include "ops/image/filter_program.hpp"
#include "ops/image/filter_space.hpp"
#include "ops/image/image_common.hpp"
#include "ops/op_frame.hpp"
#include "tilecl/error.hpp"

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
  check_constant_memory(op, call.size_argument, target, kw, kh, shape.form == FilterForm::Direct);
  validate_images(op, target, dtype, call.problem, call.image);
  const std::uint64_t dst_extent =
      image_extent(call.image.dst_pitch, call.problem.width * shape.channels, call.problem.height);
  for (const auto& taps : call.buffers) check_taps_buffer(op, taps, target, call.image, dst_extent, dtype.size);
}

// What a warm call of one memo entry reuses (ops/op_frame.hpp): the plan, its program's options, its kernel's name,
// and the device copy of the last host-built taps it bound. The entry belongs to one thread: no lock.
struct FilterMemoPlan {
  FilterPlan plan;
  BuildOptions options;
  std::string kernel;
  mutable TapWords row, column;
  mutable BoundTaps taps;
  mutable bool has_taps = false;
};

// The tuning service's choice, once per memo entry: one that cannot serve this filter (say an override of a tile
// too large for this radius, set for every size) gives way to the default, with a warning once.
template <typename T>
void fit_choice(const QueueTarget& target, const FilterCall& call, Resolved& resolved) {
  const FilterShape& shape = call.problem.shape;
  const std::string why = convolve_search_space(shape, dtype_of<T>()).validate(resolved.config, *target.info);
  if (why.empty()) return;
  const std::string op = filter_op_name(call.op);
  warn_once("convolve-fallback:" + op + ":" + resolved.config.to_string() + ":" + size_text(shape),
            op + ": parameters '" + resolved.config.to_string() + "' do not fit a " + size_text(shape) + " filter (" +
                why + "); using the default");
  resolved.config =
      convolve_default_config(shape, dtype_of<T>(), *target.info, call.problem.width * call.problem.height,
                              filter_aspect(call.problem.width, call.problem.height));
}

// The filter ops in the common frame: validation, the choice (memoized per thread for warm calls), the launch.
template <typename T>
struct FilterFrameOp {
  FilterOp which;

  using Call = FilterCall;
  const char* name() const { return filter_op_name(which); }
  bool is_empty(const Call& c) const { return c.problem.width == 0 || c.problem.height == 0; }
  void validate(const QueueTarget& target, const Call& c) const { validate_call(target, dtype_of<T>(), c); }
  const SearchSpace& space(const DeviceInfo& /*device*/, const Call& c) const {
    return convolve_search_space(c.problem.shape, dtype_of<T>());
  }
  // The tuning bucket (channels, radii, area class, arithmetic: FilterSubject::key) and what else the program
  // depends on (the border rule, symmetric taps, OpenCV's dividing finish, unit gain).
  ShapeKey shape_key(const Call& c) const {
    const FilterShape& s = c.problem.shape;
    const std::uint64_t area = area_class(c.problem.width * c.problem.height).width;
    const Aspect aspect = filter_aspect(c.problem.width, c.problem.height);
    const std::uint64_t shape_class =
        s.channels | (static_cast<std::uint64_t>(s.radius_x) << 8) | (static_cast<std::uint64_t>(s.radius_y) << 26) |
        (area << 44) | (static_cast<std::uint64_t>(s.opencv) << 60) |
        (static_cast<std::uint64_t>(s.form == FilterForm::Direct) << 61) | (static_cast<std::uint64_t>(aspect) << 62);
    const std::uint64_t program_code =
        static_cast<std::uint64_t>(c.problem.border) | (static_cast<std::uint64_t>(s.symmetric) << 8) |
        (static_cast<std::uint64_t>(s.dividing_finish) << 9) | (static_cast<std::uint64_t>(s.unit_gain) << 10);
    return {name(), dtype_of<T>().name, shape_class, program_code};
  }
  std::unique_ptr<TuningSubject> subject(const Call& c) const {
    return make_filter_subject<T>(c.op, c.problem.width, c.problem.height, c.problem.shape, c.problem.border);
  }
  cl::Event enqueue(const QueueTarget& target, cl::CommandQueue& queue, Resolved& resolved, const Call& c,
                    const std::vector<cl::Event>* wait) const {
    const std::string op = name();
    if (!resolved.is_explicit && !resolved.plan) fit_choice<T>(target, c, resolved);
    const auto& memo = resolved.plan_as<FilterMemoPlan>([&](const Config& config) {
      FilterMemoPlan made{plan_of(config), {}, {}, {}, {}, {}, false};
      made.options = filter_program_options(c.problem, dtype_of<T>(), made.plan);
      made.kernel = filter_main_kernel(c.problem, made.plan);
      return made;
    });
    const BoundTaps taps = bound_taps(op, target, queue, memo, c, wait);
    if (memo.plan.variant == FilterVariant::TwoPass || resolved.is_explicit) {
      auto program = ProgramCache::instance().get(target.context, target.device, kConvolveFamily, memo.options, op);
      return launch_filter_from(op, target, queue, *program, nullptr, memo.plan, c.problem, c.image, taps, wait).back();
    }
    cl::Kernel& kernel = resolved.main_kernel(target, kConvolveFamily, memo.options, memo.kernel, name());
    resolved.check_main_work_group(op, memo.kernel, filter_group_items(memo.plan, c.problem));
    return launch_filter_from(op, target, queue, *resolved.program, &kernel, memo.plan, c.problem, c.image, taps, wait)
        .back();
  }

 private:
  // The call's taps on the device: the caller's buffers (bound, or copied), or the host-built taps' device copy,
  // kept with the memo entry while the taps stay the same.
  static BoundTaps bound_taps(const std::string& op, const QueueTarget& target, cl::CommandQueue& queue,
                              const FilterMemoPlan& memo, const Call& c, const std::vector<cl::Event>* wait) {
    if (!c.buffers.empty()) return bind_taps(op, target, queue, c.buffers, wait);
    if (memo.has_taps && memo.row == c.row && memo.column == c.column) return memo.taps;
    // Copy-assigned from a named value: BoundTaps's move assignment may throw (cl::Buffer's release can).
    const BoundTaps made = host_taps(op, target.context, c.row, c.column);
    memo.taps = made;
    memo.row = c.row;
    memo.column = c.column;
    memo.has_taps = true;
    return memo.taps;
  }
};

}  // namespace

template <typename T>
cl::Event run_filter(const Config* explicit_config, cl::CommandQueue& queue, const FilterCall& call,
                     const std::vector<cl::Event>* wait) {
  return run_op(FilterFrameOp<T>{call.op}, explicit_config, queue, call, wait);
}

template cl::Event run_filter<float>(const Config*, cl::CommandQueue&, const FilterCall&,
                                     const std::vector<cl::Event>*);
template cl::Event run_filter<std::uint8_t>(const Config*, cl::CommandQueue&, const FilterCall&,
                                            const std::vector<cl::Event>*);

}  // namespace tilecl::detail
