#include "cache_directory.hpp"

#include <algorithm>
#include <cctype>

#include "environment.hpp"
#include "log.hpp"
#include "tilecl/runtime.hpp"

namespace tilecl {
namespace detail {

namespace {

void report_refused(const CacheRoot& root, const std::filesystem::path& directory, const std::string& why) {
  const std::string rules =
      " tilecl loads compiled programs and launch parameters from its cache, so it uses only directories and "
      "files that belong to you (or root), are not writable by group or others, and are not symbolic links.";
  if (root.read_only) {
    warn_once("untrusted-cache:" + directory.string(),
              "the shared read-only cache " + root.path.string() +
                  " (TILECL_CACHE_READONLY) is not used: " + directory.string() + " is " + why + "." + rules +
                  " Its administrator should make it root's and not writable by others (chmod -R go-w).");
    return;
  }
  warn_once("untrusted-cache:" + directory.string(),
            "the cache directory " + root.path.string() + " is not used: " + directory.string() + " is " + why + "." +
                rules + " Make it private (chmod 700 " + directory.string() +
                ") or set TILECL_CACHE_DIR to a directory of your own; meanwhile programs are compiled and tuning "
                "results kept in memory.");
}

}  // namespace

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

std::optional<CacheRoot> writable_cache() {
  auto root = cache_root();
  if (!root) return std::nullopt;
  return CacheRoot{*root, false};
}

std::optional<CacheRoot> read_only_cache() {
  auto directory = env_value("TILECL_CACHE_READONLY");
  if (!directory) return std::nullopt;
  return CacheRoot{*directory, true};
}

std::vector<CacheRoot> readable_caches() {
  std::vector<CacheRoot> roots;
  if (auto own = writable_cache()) roots.push_back(*own);
  if (auto shared = read_only_cache()) roots.push_back(*shared);
  return roots;
}

std::optional<TrustedDirectory> open_cache_folder(const CacheRoot& root, const std::vector<std::string>& folders,
                                                  bool create) {
  create = create && !root.read_only;
  std::string why;
  std::filesystem::path at = root.path;
  auto directory = TrustedDirectory::open(root.path, create, why);
  for (const auto& folder : folders) {
    if (!directory) break;
    at /= folder;
    directory = directory->child(folder, create, why);
  }
  if (!directory && !why.empty()) report_refused(root, at, why);
  return directory;
}

}  // namespace detail

std::string cache_directory() {
  auto root = detail::cache_root();
  return root ? root->string() : std::string();
}

}  // namespace tilecl
