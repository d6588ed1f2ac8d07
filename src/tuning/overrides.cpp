#include "tuning/overrides.hpp"

#include <map>
#include <mutex>
#include <tuple>

namespace tilecl::detail {
namespace {

using OverrideKey = std::tuple<std::string, std::string, std::string>;  // fingerprint, op, dtype

struct Overrides {
  std::mutex mutex;
  std::map<OverrideKey, Config> configs;
};

Overrides& overrides() {
  static auto* held = new Overrides;
  return *held;
}

}  // namespace

void set_override(const std::string& fingerprint, const std::string& op, const std::string& dtype,
                  const Config& config) {
  std::lock_guard<std::mutex> lock(overrides().mutex);
  overrides().configs[OverrideKey{fingerprint, op, dtype}] = config;
}

std::optional<Config> find_override(const std::string& fingerprint, const std::string& op, const std::string& dtype) {
  std::lock_guard<std::mutex> lock(overrides().mutex);
  auto found = overrides().configs.find(OverrideKey{fingerprint, op, dtype});
  if (found == overrides().configs.end()) return std::nullopt;
  return found->second;
}

void clear_overrides() {
  std::lock_guard<std::mutex> lock(overrides().mutex);
  overrides().configs.clear();
}

}  // namespace tilecl::detail
