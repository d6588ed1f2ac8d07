// Small filesystem helpers shared by the binary cache and the tuning database: atomic replacement of a
// file (write a temp file, rename it into place) and an advisory lock file for writers.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilecl::detail {

// The whole file, or nullopt when it cannot be read.
std::optional<std::vector<unsigned char>> read_bytes(const std::filesystem::path& path);

// Writes to a unique temp file beside `path`, then renames it over `path`: readers see the old file or
// the new one, never a mix. Creates missing directories. Throws std::runtime_error on failure.
void write_atomically(const std::filesystem::path& path, const std::vector<unsigned char>& bytes);

// Holds an exclusive flock() on `path` (created if missing) for its lifetime. Throws on failure.
class FileLock {
 public:
  explicit FileLock(const std::filesystem::path& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int descriptor_ = -1;
};

}  // namespace tilecl::detail
