// The public tuning API (include/tilecl/tuning.hpp): the mode, choices by op name, overrides, clear, the tunable
// ops. Choices come from the resolver (src/tuning/choice_resolver.hpp); subjects from the op registry.
#include "dispatch_generation.hpp"
#include "environment.hpp"
#include "log.hpp"
#include "tilecl/error.hpp"
#include "tilecl/tuning.hpp"
#include "tuning/choice_resolver.hpp"
#include "tuning/op_registry.hpp"
#include "tuning/overrides.hpp"

namespace tilecl {

tuning::Mode tuning::mode() {
  auto text = detail::env_value("TILECL_TUNE");
  if (!text || *text == "first-use") return Mode::FirstUse;
  if (*text == "off" || *text == "0") return Mode::Off;
  if (*text == "full") return Mode::Full;
  detail::warn_once("TILECL_TUNE", "TILECL_TUNE='" + *text + "' is not off, first-use or full; using first-use");
  return Mode::FirstUse;
}

const char* tuning::origin_name(Origin origin) {
  switch (origin) {
    case Origin::Override:
      return "override";
    case Origin::Database:
      return "database";
    case Origin::FirstUse:
      return "first-use";
    case Origin::Tune:
      return "tune";
    case Origin::Default:
      return "default";
  }
  return "?";
}

tuning::Choice tuning::parameters_for(const cl::CommandQueue& queue, const std::string& op, const std::string& dtype,
                                      const std::string& shape) {
  const auto& entry = detail::find_tunable_op(op);
  auto subject = entry.make_subject(dtype, shape);
  auto target = detail::queue_target(op, queue);
  return detail::ChoiceResolver::instance().choose(target, *subject);
}

void tuning::override_parameters(const cl::Device& device, const std::string& op, const std::string& dtype,
                                 const Parameters& parameters) {
  const auto& entry = detail::find_tunable_op(op);
  const DeviceInfo& info = device_info(device);
  // Valid when some shape class of the op takes it: gemm's "gemv" variant, for one, belongs to its gemv-shaped
  // classes only. The reason given is the first class's.
  std::string why;
  for (const auto& shape : entry.description.default_shapes) {
    const std::string reason = entry.make_subject(dtype, shape)->search_space(info).validate(parameters, info);
    if (reason.empty()) {
      why.clear();
      break;
    }
    if (why.empty()) why = reason;
  }
  if (!why.empty())
    throw Error(op, "parameters", CL_INVALID_VALUE, "cannot override with '" + parameters.to_string() + "': " + why);
  detail::set_override(info.fingerprint(), op, dtype, parameters);
  detail::invalidate_dispatch_memos();
}

void tuning::clear() {
  detail::clear_overrides();
  detail::ChoiceResolver::instance().forget_choices();  // advances the dispatch generation
}

std::vector<tuning::OpDescription> tuning::tunable_ops() {
  std::vector<OpDescription> descriptions;
  for (const auto& op : detail::tunable_op_registry()) descriptions.push_back(op.description);
  return descriptions;
}

}  // namespace tilecl
