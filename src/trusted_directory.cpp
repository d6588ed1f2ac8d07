#include "trusted_directory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace tilecl::detail {

namespace fs = std::filesystem;

namespace {

constexpr int kDirectoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof(text), "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// Why opening `name` (relative to `parent`, a descriptor or AT_FDCWD) as a directory failed with `error`.
std::string open_failure(int parent, const std::string& name, int error) {
  struct stat status {};
  if ((error == ELOOP || error == ENOTDIR) && ::fstatat(parent, name.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0)
    return S_ISLNK(status.st_mode) ? "a symbolic link (not followed)" : "not a directory";
  return std::string("not accessible (") + std::strerror(error) + ")";
}

// Creates `path` and its missing parents, each 0700 whatever the umask; failures surface when it is opened.
void create_missing(const fs::path& path) {
  fs::path prefix;
  for (const auto& component : path) {
    prefix /= component;
    if (::mkdir(prefix.c_str(), 0700) != 0) continue;
    const int created = ::open(prefix.c_str(), kDirectoryFlags);
    if (created < 0) continue;
    ::fchmod(created, 0700);
    ::close(created);
  }
}

// "dir/" names the same directory as "dir", whose last component O_NOFOLLOW must see.
fs::path without_trailing_separator(fs::path path) {
  if (!path.has_filename() && path.has_parent_path() && path.parent_path() != path.root_path())
    return path.parent_path();
  return path;
}

}  // namespace

std::string distrust_reason(const struct stat& status) {
  const uid_t me = ::geteuid();
  if (status.st_uid != me && status.st_uid != 0)
    return "owned by user " + std::to_string(status.st_uid) + ", neither you (user " + std::to_string(me) +
           ") nor root";
  if ((status.st_mode & S_IWOTH) != 0) return "writable by others (mode " + octal_mode(status.st_mode) + ")";
  if ((status.st_mode & S_IWGRP) != 0) return "writable by its group (mode " + octal_mode(status.st_mode) + ")";
  return {};
}

std::optional<TrustedDirectory> TrustedDirectory::open(const fs::path& path, bool create, std::string& why) {
  why.clear();
  const fs::path directory = without_trailing_separator(path);
  int descriptor = ::open(directory.c_str(), kDirectoryFlags);
  if (descriptor < 0 && errno == ENOENT && create) {
    create_missing(directory);
    descriptor = ::open(directory.c_str(), kDirectoryFlags);
  }
  if (descriptor < 0) {
    if (errno != ENOENT) why = open_failure(AT_FDCWD, directory.string(), errno);
    return std::nullopt;
  }
  return adopt(descriptor, directory, why);
}

std::optional<TrustedDirectory> TrustedDirectory::child(const std::string& name, bool create, std::string& why) const {
  why.clear();
  const bool created = create && ::mkdirat(descriptor_, name.c_str(), 0700) == 0;
  const int descriptor = ::openat(descriptor_, name.c_str(), kDirectoryFlags);
  if (descriptor < 0) {
    if (errno != ENOENT) why = open_failure(descriptor_, name, errno);
    return std::nullopt;
  }
  if (created) ::fchmod(descriptor, 0700);
  return adopt(descriptor, path_ / name, why);
}

std::optional<TrustedDirectory> TrustedDirectory::adopt(int descriptor, fs::path path, std::string& why) {
  struct stat status {};
  why = ::fstat(descriptor, &status) != 0 ? std::string("not examinable (") + std::strerror(errno) + ")"
                                          : distrust_reason(status);
  if (!why.empty()) {
    ::close(descriptor);
    return std::nullopt;
  }
  return TrustedDirectory(descriptor, std::move(path));
}

TrustedDirectory TrustedDirectory::open_unchecked(const fs::path& path) {
  std::error_code ignored;
  fs::create_directories(path, ignored);
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (descriptor < 0) throw std::runtime_error("cannot open directory " + path.string() + ": " + std::strerror(errno));
  return TrustedDirectory(descriptor, path);
}

TrustedDirectory::TrustedDirectory(TrustedDirectory&& other) noexcept
    : descriptor_(other.descriptor_), path_(std::move(other.path_)) {
  other.descriptor_ = -1;
}

TrustedDirectory& TrustedDirectory::operator=(TrustedDirectory&& other) noexcept {
  if (this != &other) {
    if (descriptor_ >= 0) ::close(descriptor_);
    descriptor_ = other.descriptor_;
    path_ = std::move(other.path_);
    other.descriptor_ = -1;
  }
  return *this;
}

TrustedDirectory::~TrustedDirectory() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

}  // namespace tilecl::detail
