// Parameters set by tuning::override_parameters for (device, op, dtype): they win over every other source of a
// choice (src/tuning/choice_resolver.hpp). Kept in memory until tuning::clear.
#pragma once

#include <optional>
#include <string>

#include "tuning/search_space.hpp"

namespace tilecl::detail {

void set_override(const std::string& fingerprint, const std::string& op, const std::string& dtype,
                  const Config& config);
std::optional<Config> find_override(const std::string& fingerprint, const std::string& op, const std::string& dtype);
void clear_overrides();

}  // namespace tilecl::detail
