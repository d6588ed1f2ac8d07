// Small filesystem helpers shared by the binary cache and the tuning database: atomic replacement of a
// file (write a temp file, rename it into place) and an advisory lock file for writers.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tilecl::detail {

// The whole file, or nullopt when it cannot be read or is not a regular file (a directory, a device).
std::optional<std::vector<unsigned char>> read_bytes(const std::filesystem::path& path);

// Writes to a unique temp file beside `path` (`<path>.tmp.<pid>.<thread>.<n>`), then renames it over `path`:
// readers see the old file or the new one, never a mix, and a writer killed half-way leaves the old file
// and a temp file. After a successful rename, temp files of `path` older than kAbandonedTempAge are deleted
// (age, not the writer's pid, decides: the cache may be shared by several hosts). Creates missing
// directories. Throws std::runtime_error on failure.
void write_atomically(const std::filesystem::path& path, const std::vector<unsigned char>& bytes);

// A write takes milliseconds; a temp file this old belongs to a writer that died.
constexpr std::chrono::minutes kAbandonedTempAge{10};

// Deletes the temp files of `path` last written before now - kAbandonedTempAge; returns how many.
std::size_t remove_abandoned_temp_files(const std::filesystem::path& path);

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
