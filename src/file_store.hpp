// Reading and writing the files of the disk cache, shared by the binary cache and the tuning database. Every
// access goes through a TrustedDirectory's descriptor (src/trusted_directory.hpp): files are opened with
// O_NOFOLLOW and checked on the opened descriptor, created 0600, and replaced atomically (a temp file renamed
// over the old one), under an advisory lock for writers that merge.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "trusted_directory.hpp"

namespace tilecl::detail {

// What reading a file of the cache gave.
struct FileRead {
  enum class Outcome {
    Missing,   // no entry of that name
    Read,      // `bytes` holds the whole file
    NotAFile,  // a directory or another special file is in its place (`why`)
    Refused,   // a symbolic link, untrusted, above the size limit, or unreadable (`why`)
  };
  Outcome outcome = Outcome::Missing;
  std::vector<unsigned char> bytes;
  std::string why;
};

// Opens `name` in `directory` without following a symbolic link, checks the opened descriptor (a regular file,
// trusted by distrust_reason(), at most `max_bytes` long) and reads it whole.
FileRead read_file(const TrustedDirectory& directory, const std::string& name, std::uint64_t max_bytes);

// The whole file at `path`, a file the user names (an imported bundle): nullopt with the reason when it is missing,
// not a regular file, longer than `max_bytes`, or unreadable.
std::optional<std::vector<unsigned char>> read_bytes(const std::filesystem::path& path, std::uint64_t max_bytes,
                                                     std::string& why);

// Writes to a unique temp file beside `name` (`<name>.tmp.<pid>.<thread>.<n>`, created 0600), then renames it
// over `name`: readers see the old file or the new one, never a mix, and a writer killed half-way leaves the old
// file and a temp file. After a successful rename, temp files of `name` older than kAbandonedTempAge are deleted
// (age, not the writer's pid, decides: the cache may be shared by several hosts). Throws std::runtime_error.
void write_atomically(const TrustedDirectory& directory, const std::string& name,
                      const std::vector<unsigned char>& bytes);
// The same for a file the user names (an exported bundle); creates missing directories.
void write_atomically(const std::filesystem::path& path, const std::vector<unsigned char>& bytes);

// Deletes the entry `name`: a file, a symbolic link itself (never its target), or an empty directory. Returns
// whether something was deleted.
bool remove_entry(const TrustedDirectory& directory, const std::string& name);

// Renames `from` to `to` within the directory (replacing `to`). Returns whether it did.
bool rename_entry(const TrustedDirectory& directory, const std::string& from, const std::string& to);

// A write takes milliseconds; a temp file this old belongs to a writer that died.
constexpr std::chrono::minutes kAbandonedTempAge{10};

// Deletes the temp files of `name` last written before now - kAbandonedTempAge; returns how many.
std::size_t remove_abandoned_temp_files(const TrustedDirectory& directory, const std::string& name);
std::size_t remove_abandoned_temp_files(const std::filesystem::path& path);

// Holds an exclusive flock() on `name` in the directory (created 0600 if missing) for its lifetime. Throws
// std::runtime_error on failure.
class FileLock {
 public:
  FileLock(const TrustedDirectory& directory, const std::string& name);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int descriptor_ = -1;
};

// Tests only: called with the file's path right before read_file() opens it, to simulate a file replaced (by a
// symbolic link, say) between a check and the open. Set it while no other thread reads cache files; an empty
// function removes it.
void set_before_open_hook_for_testing(std::function<void(const std::filesystem::path&)> hook);

}  // namespace tilecl::detail
