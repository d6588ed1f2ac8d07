// Where tilecl keeps its files: $TILECL_CACHE_DIR, else $XDG_CACHE_HOME/tilecl, else $HOME/.cache/tilecl.
// Resolved on every call, so a test (or a user) may change the environment between calls.
#pragma once

#include <filesystem>
#include <optional>

namespace tilecl::detail {

// nullopt when TILECL_CACHE=off or no location can be determined.
std::optional<std::filesystem::path> cache_root();

// <root>/programs: compiled binaries, one folder per device fingerprint.
std::optional<std::filesystem::path> program_cache_root();

// <root>/tuning: one tuning database file per device fingerprint.
std::optional<std::filesystem::path> tuning_root();

}  // namespace tilecl::detail
