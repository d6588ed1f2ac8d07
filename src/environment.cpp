#include "environment.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace tilecl::detail {

std::optional<std::string> env_value(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

bool env_enabled(const char* name) {
  auto value = env_value(name);
  if (!value) return false;
  std::string lower = *value;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return !(lower == "0" || lower == "off" || lower == "false" || lower == "no");
}

bool verbose() { return env_enabled("TILECL_VERBOSE"); }
bool show_kernels() { return env_enabled("TILECL_SHOW_KERNELS"); }
bool kill_after_temp_file_for_testing() { return env_enabled("TILECL_TEST_KILL_AFTER_TEMP_FILE"); }

}  // namespace tilecl::detail
