// Inspecting and moving what tilecl keeps on disk (the `tilecl cache` command): compiled programs and
// tuning databases under the cache directory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tilecl::detail {

struct ProgramCacheSummary {
  std::string fingerprint;  // folder name: the device's fingerprint
  std::size_t files = 0;
  std::uintmax_t bytes = 0;
};

struct TuningDatabaseSummary {
  std::filesystem::path path;
  std::string fingerprint;
  std::string device_name;
  std::string driver_version;
  std::size_t entries = 0;
  std::size_t failures = 0;
  std::string problem;  // empty when the file is a valid database
};

std::vector<ProgramCacheSummary> list_program_cache();
std::vector<TuningDatabaseSummary> list_tuning_databases();

// Deletes compiled programs and/or tuning databases; returns the number of files removed.
std::size_t clear_program_cache_files();
std::size_t clear_tuning_databases();

// Writes every tuning database under the cache directory into one bundle file; returns how many.
std::size_t export_tuning(const std::filesystem::path& bundle);
// Merges each database of a bundle into the database of the same fingerprint (entries of the same key are
// replaced). Throws tilecl::Error for a file that is not a bundle. Returns how many databases merged.
std::size_t import_tuning(const std::filesystem::path& bundle);

}  // namespace tilecl::detail
