#include "tuning/search_space.hpp"

#include <algorithm>
#include <sstream>

#include "tilecl/error.hpp"

namespace tilecl {

std::int64_t tuning::Parameters::value(const std::string& name) const {
  auto found = values.find(name);
  if (found == values.end())
    throw Error("tuning", name, CL_INVALID_VALUE, "variant '" + variant + "' has no parameter of that name");
  return found->second;
}

std::string tuning::Parameters::to_string() const {
  std::string text = variant;
  for (const auto& [name, value] : values) text += " " + name + "=" + std::to_string(value);
  return text;
}

tuning::Parameters tuning::Parameters::parse(const std::string& text) {
  std::istringstream words(text);
  Parameters parameters;
  if (!(words >> parameters.variant)) throw Error("tuning", "parameters", CL_INVALID_VALUE, "empty parameter text");
  std::string word;
  while (words >> word) {
    auto equals = word.find('=');
    if (equals == std::string::npos || equals == 0)
      throw Error("tuning", "parameters", CL_INVALID_VALUE, "expected NAME=VALUE, got '" + word + "'");
    try {
      std::size_t used = 0;
      std::int64_t value = std::stoll(word.substr(equals + 1), &used);
      if (used != word.size() - equals - 1) throw std::invalid_argument(word);
      parameters.values[word.substr(0, equals)] = value;
    } catch (const std::logic_error&) {
      throw Error("tuning", "parameters", CL_INVALID_VALUE, "'" + word + "' does not have an integer value");
    }
  }
  return parameters;
}

namespace detail {

bool is_power_of_two(std::int64_t value) { return value > 0 && (value & (value - 1)) == 0; }

const VariantSpace* SearchSpace::find(const std::string& variant) const {
  for (const auto& space : variants_) {
    if (space.variant == variant) return &space;
  }
  return nullptr;
}

namespace {

// The odometer's digits: launch parameters turning fastest, so consecutive configs share a program and a
// budget-limited search compiles as little as possible.
std::vector<std::size_t> odometer_order(const VariantSpace& space) {
  std::vector<std::size_t> order;
  for (std::size_t p = 0; p < space.parameters.size(); ++p)
    if (space.parameters[p].kind == ParameterKind::Launch) order.push_back(p);
  for (std::size_t p = 0; p < space.parameters.size(); ++p)
    if (space.parameters[p].kind == ParameterKind::Build) order.push_back(p);
  return order;
}

Config config_at(const VariantSpace& space, const std::vector<std::size_t>& index) {
  Config config;
  config.variant = space.variant;
  for (std::size_t p = 0; p < space.parameters.size(); ++p)
    config.values[space.parameters[p].name] = space.parameters[p].candidates[index[p]];
  return config;
}

bool meets_constraints(const VariantSpace& space, const Config& config, const DeviceInfo& device) {
  return std::all_of(space.constraints.begin(), space.constraints.end(),
                     [&](const auto& constraint) { return constraint.holds(config.values, device); });
}

// Advances the odometer; false once every combination was visited.
bool advance(const VariantSpace& space, const std::vector<std::size_t>& order, std::vector<std::size_t>& index) {
  std::size_t digit = 0;
  while (digit < order.size() && ++index[order[digit]] == space.parameters[order[digit]].candidates.size())
    index[order[digit++]] = 0;
  return digit != order.size();
}

}  // namespace

std::vector<Config> SearchSpace::enumerate(const DeviceInfo& device, std::size_t per_variant) const {
  std::vector<Config> configs;
  for (const auto& space : variants_) {
    const std::vector<std::size_t> order = odometer_order(space);
    std::vector<std::size_t> index(space.parameters.size(), 0);
    std::size_t found = 0;
    do {
      Config config = config_at(space, index);
      if (meets_constraints(space, config, device)) {
        configs.push_back(std::move(config));
        ++found;
      }
    } while (found < per_variant && advance(space, order, index));
  }
  return configs;
}

std::vector<Config> SearchSpace::same_program_configs(const Config& config, const DeviceInfo& device) const {
  const VariantSpace* space = find(config.variant);
  if (space == nullptr) return {};
  std::vector<std::size_t> order;  // the launch parameters' digits, in the odometer's order
  for (std::size_t p : odometer_order(*space))
    if (space->parameters[p].kind == ParameterKind::Launch) order.push_back(p);
  for (const auto& parameter : space->parameters)
    if (parameter.kind == ParameterKind::Build && config.values.count(parameter.name) == 0) return {};
  std::vector<Config> configs;
  std::vector<std::size_t> index(space->parameters.size(), 0);
  do {
    Config candidate = config_at(*space, index);
    for (const auto& parameter : space->parameters)
      if (parameter.kind == ParameterKind::Build) candidate.values[parameter.name] = config.values.at(parameter.name);
    if (meets_constraints(*space, candidate, device)) configs.push_back(std::move(candidate));
  } while (advance(*space, order, index));
  return configs;
}

std::uint64_t SearchSpace::combinations() const {
  constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t total = 0;
  for (const auto& space : variants_) {
    std::uint64_t product = 1;
    for (const auto& parameter : space.parameters) {
      const std::uint64_t count = parameter.candidates.size();
      product = count != 0 && product > most / count ? most : product * count;
    }
    total = total > most - product ? most : total + product;
  }
  return total;
}

std::string SearchSpace::validate(const Config& config, const DeviceInfo& device) const {
  const VariantSpace* space = find(config.variant);
  if (space == nullptr) return "unknown variant '" + config.variant + "'";
  if (config.values.size() != space->parameters.size()) {
    std::string expected;
    for (const auto& parameter : space->parameters) expected += " " + parameter.name;
    return "variant '" + config.variant + "' takes exactly these parameters:" + expected;
  }
  for (const auto& parameter : space->parameters) {
    auto found = config.values.find(parameter.name);
    if (found == config.values.end()) return "missing parameter " + parameter.name;
    if (found->second < parameter.low || found->second > parameter.high)
      return parameter.name + " = " + std::to_string(found->second) + " is outside [" + std::to_string(parameter.low) +
             ", " + std::to_string(parameter.high) + "]";
  }
  for (const auto& constraint : space->constraints) {
    if (!constraint.holds(config.values, device)) return "violates " + constraint.description;
  }
  return {};
}

void SearchSpace::add_build_macros(const Config& config, BuildOptions& options) const {
  const VariantSpace* space = find(config.variant);
  if (space == nullptr) throw Error("tuning", "variant", CL_INVALID_VALUE, "unknown variant '" + config.variant + "'");
  for (const auto& parameter : space->parameters) {
    if (parameter.kind == ParameterKind::Build) options.define(parameter.name, config.values.at(parameter.name));
  }
}

bool SearchSpace::same_program(const Config& a, const Config& b) const {
  if (a.variant != b.variant) return false;
  const VariantSpace* space = find(a.variant);
  if (space == nullptr) return false;
  return std::all_of(space->parameters.begin(), space->parameters.end(), [&](const auto& parameter) {
    return parameter.kind != ParameterKind::Build || a.values.at(parameter.name) == b.values.at(parameter.name);
  });
}

}  // namespace detail
}  // namespace tilecl
