// Where tilecl keeps its files: $TILECL_CACHE_DIR, else $XDG_CACHE_HOME/tilecl, else $HOME/.cache/tilecl; and,
// optionally, a shared cache that is read but never written ($TILECL_CACHE_READONLY), prepared by an
// administrator for a fleet. Resolved on every call, so a test (or a user) may change the environment between
// calls. Every directory is opened and checked as a TrustedDirectory (src/trusted_directory.hpp) before use.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "trusted_directory.hpp"

namespace tilecl::detail {

// nullopt when TILECL_CACHE=off or no location can be determined.
std::optional<std::filesystem::path> cache_root();

// <root>/programs: compiled binaries, one folder per device fingerprint.
std::optional<std::filesystem::path> program_cache_root();

// <root>/tuning: one tuning database file per device fingerprint.
std::optional<std::filesystem::path> tuning_root();

// A cache tilecl reads from: the user's own, which it also writes, or the shared read-only one.
struct CacheRoot {
  std::filesystem::path path;
  bool read_only = false;
};

// The user's cache (cache_root()), and TILECL_CACHE_READONLY when set; nullopt when there is none.
std::optional<CacheRoot> writable_cache();
std::optional<CacheRoot> read_only_cache();
// Those that are set, the user's first: where a file is looked for.
std::vector<CacheRoot> readable_caches();

// Opens <root>/<folders...>, checking every level; with `create` (ignored for a read-only root) missing
// directories are created 0700. nullopt when a level is missing, or refused: a refused level (not trusted, not a
// directory, not accessible) is reported once per directory with what to do, and the call goes on without it.
std::optional<TrustedDirectory> open_cache_folder(const CacheRoot& root, const std::vector<std::string>& folders,
                                                  bool create);

}  // namespace tilecl::detail
