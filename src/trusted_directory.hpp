// A directory of the disk cache, held open by its descriptor, and the rules for trusting what tilecl reads from
// it (SECURITY.md).
//
// tilecl loads program binaries from its cache and runs them, and reads launch parameters there: a file someone
// else could have written must not be used. A directory or file is trusted when it is owned by the effective
// user or by root, is not writable by group or others, and is not a symbolic link. The checks are made with
// fstat() on descriptors opened with O_NOFOLLOW, and every later access goes through openat() and friends on the
// checked descriptor, so nothing can be swapped between the check and the use: once a trusted directory is open,
// only its owner (or root) can change what is in it, whatever happens to the path that led there.
// Directories tilecl creates are 0700 and files 0600, whatever the umask.
#pragma once

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>

namespace tilecl::detail {

// Why an entry with this status (from fstat) is not trusted, or empty when it is.
std::string distrust_reason(const struct stat& status);

class TrustedDirectory {
 public:
  // Opens the directory at `path` (its last component must not be a symbolic link; the components above it may
  // be: they are the user's choice of location). With `create`, missing directories are created 0700 first.
  // nullopt with an empty `why` when it is missing, with the reason when it is refused or cannot be opened (`why`
  // completes "<path> is ...": "a symbolic link (not followed)", "writable by others (mode 0777)").
  static std::optional<TrustedDirectory> open(const std::filesystem::path& path, bool create, std::string& why);

  // Opens the plain directory at `path` (created, parents and all, when missing) without the ownership rules:
  // for files a user names explicitly (an exported bundle). Throws std::runtime_error.
  static TrustedDirectory open_unchecked(const std::filesystem::path& path);

  // A subdirectory (one path component), with the same rules and options as open().
  std::optional<TrustedDirectory> child(const std::string& name, bool create, std::string& why) const;

  TrustedDirectory(TrustedDirectory&& other) noexcept;
  TrustedDirectory& operator=(TrustedDirectory&& other) noexcept;
  TrustedDirectory(const TrustedDirectory&) = delete;
  TrustedDirectory& operator=(const TrustedDirectory&) = delete;
  ~TrustedDirectory();

  int descriptor() const { return descriptor_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  TrustedDirectory(int descriptor, std::filesystem::path path) : descriptor_(descriptor), path_(std::move(path)) {}
  // Takes `descriptor` (an open directory) when fstat finds it trusted; else closes it and says why.
  static std::optional<TrustedDirectory> adopt(int descriptor, std::filesystem::path path, std::string& why);

  int descriptor_ = -1;
  std::filesystem::path path_;
};

}  // namespace tilecl::detail
