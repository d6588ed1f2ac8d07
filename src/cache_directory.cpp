#include "cache_directory.hpp"

#include <algorithm>
#include <cctype>

#include "environment.hpp"
#include "tilecl/runtime.hpp"

namespace tilecl {
namespace detail {

std::optional<std::filesystem::path> cache_root() {
  if (auto setting = env_value("TILECL_CACHE")) {
    std::string lower = *setting;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "off" || lower == "0" || lower == "false" || lower == "no") return std::nullopt;
  }
  if (auto directory = env_value("TILECL_CACHE_DIR")) return std::filesystem::path(*directory);
  if (auto xdg = env_value("XDG_CACHE_HOME")) return std::filesystem::path(*xdg) / "tilecl";
  if (auto home = env_value("HOME")) return std::filesystem::path(*home) / ".cache" / "tilecl";
  return std::nullopt;
}

std::optional<std::filesystem::path> program_cache_root() {
  auto root = cache_root();
  if (!root) return std::nullopt;
  return *root / "programs";
}

std::optional<std::filesystem::path> tuning_root() {
  auto root = cache_root();
  if (!root) return std::nullopt;
  return *root / "tuning";
}

}  // namespace detail

std::string cache_directory() {
  auto root = detail::cache_root();
  return root ? root->string() : std::string();
}

}  // namespace tilecl
