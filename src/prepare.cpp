// tilecl::prepare (include/tilecl/prepare.hpp): the choice a call would make, and its program built ahead.
#include "tilecl/prepare.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "checks.hpp"
#include "dtype.hpp"
#include "program_cache.hpp"
#include "tilecl/error.hpp"
#include "tuning/choice_resolver.hpp"
#include "tuning/op_registry.hpp"

namespace tilecl {

Prepared prepare(const cl::CommandQueue& queue, const std::string& op, const std::string& dtype,
                 const std::string& shape) {
  const auto start = std::chrono::steady_clock::now();
  const detail::TunableOp& entry = detail::find_tunable_op(op);
  const detail::QueueTarget target = detail::queue_target(op, queue);
  const auto& dtypes = entry.description.dtypes;
  if (std::find(dtypes.begin(), dtypes.end(), dtype) == dtypes.end()) {
    std::string known;
    for (const auto& name : dtypes) known += (known.empty() ? "" : ", ") + name;
    throw Error(op, "dtype", CL_INVALID_VALUE, "'" + dtype + "' is not one of " + known);
  }
  // (An op's own modes, as gemm_mma's "tf32", are no element type and need nothing of the device here.)
  if (const detail::DTypeInfo* info = detail::dtype_named(dtype))
    detail::check_dtype_supported(op, *info, *target.info);
  std::unique_ptr<detail::TuningSubject> subject;
  try {
    subject = entry.make_subject(dtype, shape);
  } catch (const Error& error) {
    throw Error(
        op, "shape", error.status(),
        "'" + shape + "' is not a shape of " + op + " (" + entry.description.shape_syntax + "): " + error.what());
  }

  Prepared prepared;
  prepared.choice = detail::ChoiceResolver::instance().choose(target, *subject);
  prepared.timed_shape = subject->timing_shape();
  const detail::BuildOptions options = subject->build_options(prepared.choice.parameters);
  detail::ProgramCache::instance().get(target.context, target.device, subject->family(), options, op);
  prepared.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return prepared;
}

}  // namespace tilecl
