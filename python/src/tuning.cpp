// Tuning: what a call would use, overrides, the tunable ops, and ahead-of-time tuning of one key (the loop of
// `tilecl tune`, whose table the Python command prints).
#include "tilecl/tuning.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>

#include "bindings.hpp"
#include "checks.hpp"
#include "dicts.hpp"
#include "handles.hpp"
#include "tilecl/error.hpp"
#include "tuning/full_tune.hpp"
#include "tuning/op_registry.hpp"

namespace nb = nanobind;

namespace tilecl::python {
namespace {

nb::dict choice_dict(Handle queue, const std::string& op, const std::string& dtype, const std::string& shape) {
  tuning::Choice choice;
  {
    nb::gil_scoped_release release;  // may tune (TILECL_TUNE=first-use)
    choice = tuning::parameters_for(queue_from(queue), op, dtype, shape);
  }
  nb::dict result;
  result["parameters"] = choice.parameters.to_string();
  result["variant"] = choice.parameters.variant;
  result["values"] = choice.parameters.values;
  result["origin"] = tuning::origin_name(choice.origin);
  result["bucket"] = choice.bucket;
  return result;
}

const char* mode_name(tuning::Mode mode) {
  switch (mode) {
    case tuning::Mode::Off:
      return "off";
    case tuning::Mode::FirstUse:
      return "first-use";
    case tuning::Mode::Full:
      return "full";
  }
  return "?";
}

nb::list tunable_ops_list() {
  using Description = tuning::OpDescription;
  nb::list result;
  for (const auto& op : tuning::tunable_ops())
    result.append(dict_of(op, "name", &Description::name, "family", &Description::family, "dtypes",
                          &Description::dtypes, "shape_syntax", &Description::shape_syntax, "default_shapes",
                          &Description::default_shapes));
  return result;
}

detail::FullTuneOptions tune_options(double budget_ms, const std::string& strategy, std::uint64_t seed,
                                     std::size_t max_candidates) {
  detail::FullTuneOptions options;
  options.budget_ms = budget_ms;
  options.seed = seed;
  options.max_candidates = max_candidates;
  if (strategy == "random")
    options.strategy = detail::SearchStrategy::Random;
  else if (strategy != "exhaustive")
    throw Error("tune", "strategy", CL_INVALID_VALUE, "'" + strategy + "' is not exhaustive or random");
  return options;
}

nb::dict tune_key(Handle queue, const std::string& op, const std::string& dtype, const std::string& shape,
                  double budget_ms, const std::string& strategy, std::uint64_t seed, std::size_t max_candidates) {
  detail::TuningOutcome outcome;
  std::string bucket, timing_shape, work_unit;
  double work = 0;
  {
    nb::gil_scoped_release release;
    const detail::FullTuneOptions options = tune_options(budget_ms, strategy, seed, max_candidates);
    auto subject = detail::find_tunable_op(op).make_subject(dtype, shape);
    outcome = detail::tune_key(detail::queue_target("tune", queue_from(queue)), *subject, options);
    bucket = subject->key().bucket;
    timing_shape = subject->timing_shape();
    work = subject->work();
    work_unit = subject->work_unit();
  }
  std::size_t tried = 0, failed = 0;
  for (const auto& result : outcome.results) {
    if (result.status != detail::CandidateStatus::NotTried) ++tried;
    if (result.status == detail::CandidateStatus::BuildFailed ||
        result.status == detail::CandidateStatus::LaunchFailed || result.status == detail::CandidateStatus::WrongResult)
      ++failed;
  }
  nb::dict result;
  result["found"] = outcome.found;
  result["best"] = outcome.found ? outcome.best.to_string() : std::string();
  result["best_ms"] = outcome.best_ms;
  result["default_ms"] = outcome.default_ms;
  result["bucket"] = bucket;
  result["timing_shape"] = timing_shape;
  result["work"] = work;
  result["work_unit"] = work_unit;
  result["tried"] = tried;
  result["failed"] = failed;
  return result;
}

void override_call(Handle device, const std::string& op, const std::string& dtype, const std::string& parameters) {
  tuning::override_parameters(device_from(device), op, dtype, tuning::Parameters::parse(parameters));
}

}  // namespace

void bind_tuning(nb::module_& module) {
  module.def("parameters_for", &choice_dict);
  module.def("override_parameters", &override_call, nb::call_guard<nb::gil_scoped_release>());
  module.def("clear_tuning", &tuning::clear, nb::call_guard<nb::gil_scoped_release>());
  module.def("tunable_ops", &tunable_ops_list);
  module.def("tuning_mode", [] { return mode_name(tuning::mode()); });
  module.def("tune", &tune_key);
}

}  // namespace tilecl::python
