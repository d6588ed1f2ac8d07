#include "file_store.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "environment.hpp"

namespace tilecl::detail {

namespace fs = std::filesystem;

namespace {

std::function<void(const fs::path&)>& before_open_hook() {
  static std::function<void(const fs::path&)> hook;
  return hook;
}

// Closes a descriptor when it goes out of scope.
class Descriptor {
 public:
  explicit Descriptor(int descriptor) : descriptor_(descriptor) {}
  ~Descriptor() {
    if (descriptor_ >= 0) ::close(descriptor_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return descriptor_; }

 private:
  int descriptor_;
};

// Reads exactly the file's `size` bytes from an open descriptor; false when it is shorter, longer or fails.
bool read_exactly(int descriptor, std::uint64_t size, std::vector<unsigned char>& bytes) {
  bytes.resize(static_cast<std::size_t>(size));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::read(descriptor, bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    done += static_cast<std::size_t>(got);
  }
  unsigned char extra = 0;
  return ::read(descriptor, &extra, 1) == 0;  // grown since fstat: another writer, refused
}

// Reads an opened file whose fstat is `status`, refusing what the cache must not use.
FileRead read_opened(int descriptor, const struct stat& status, std::uint64_t max_bytes, bool check_trust) {
  FileRead result;
  result.outcome = FileRead::Outcome::Refused;
  if (!S_ISREG(status.st_mode)) {
    result.outcome = FileRead::Outcome::NotAFile;
    result.why = S_ISDIR(status.st_mode) ? "a directory, not a file" : "not a regular file";
  } else if (const std::string distrust = check_trust ? distrust_reason(status) : std::string(); !distrust.empty()) {
    result.why = distrust;
  } else if (static_cast<std::uint64_t>(status.st_size) > max_bytes) {
    result.why = std::to_string(status.st_size) + " bytes, above the limit of " + std::to_string(max_bytes);
  } else if (!read_exactly(descriptor, static_cast<std::uint64_t>(status.st_size), result.bytes)) {
    result.bytes.clear();
    result.why = "unreadable, or changed while it was read";
  } else {
    result.outcome = FileRead::Outcome::Read;
  }
  return result;
}

FileRead open_failure(int error) {
  FileRead result;
  if (error == ENOENT) return result;
  result.outcome = FileRead::Outcome::Refused;
  if (error == ELOOP)
    result.why = "a symbolic link (not followed)";
  else if (error == EACCES)
    result.why = "unreadable";
  else
    result.why = std::string("cannot be opened: ") + std::strerror(error);
  return result;
}

std::string temp_name(const std::string& name) {
  static std::atomic<unsigned> counter{0};
  return name + ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()) % 100000) + "." +
         std::to_string(counter++);
}

// Writes `bytes` into a new file `name` of the directory (0600, never through a link); throws on failure.
void write_new_file(const TrustedDirectory& directory, const std::string& name,
                    const std::vector<unsigned char>& bytes) {
  const fs::path path = directory.path() / name;
  Descriptor file(
      ::openat(directory.descriptor(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (file.get() < 0) throw std::runtime_error("cannot create " + path.string() + ": " + std::strerror(errno));
  ::fchmod(file.get(), 0600);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t wrote = ::write(file.get(), bytes.data() + done, bytes.size() - done);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      const std::string error = std::strerror(errno);
      ::unlinkat(directory.descriptor(), name.c_str(), 0);
      throw std::runtime_error("cannot write " + path.string() + ": " + error);
    }
    done += static_cast<std::size_t>(wrote);
  }
}

}  // namespace

FileRead read_file(const TrustedDirectory& directory, const std::string& name, std::uint64_t max_bytes) {
  if (before_open_hook()) before_open_hook()(directory.path() / name);
  Descriptor file(::openat(directory.descriptor(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (file.get() < 0) return open_failure(errno);
  struct stat status {};
  if (::fstat(file.get(), &status) != 0) return open_failure(errno);
  return read_opened(file.get(), status, max_bytes, true);
}

std::optional<std::vector<unsigned char>> read_bytes(const fs::path& path, std::uint64_t max_bytes, std::string& why) {
  Descriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  struct stat status {};
  FileRead result = file.get() < 0 || ::fstat(file.get(), &status) != 0
                        ? open_failure(errno)
                        : read_opened(file.get(), status, max_bytes, false);
  if (result.outcome == FileRead::Outcome::Read) return std::move(result.bytes);
  why = result.outcome == FileRead::Outcome::Missing ? "no such file" : result.why;
  return std::nullopt;
}

void write_atomically(const TrustedDirectory& directory, const std::string& name,
                      const std::vector<unsigned char>& bytes) {
  const std::string temp = temp_name(name);
  write_new_file(directory, temp, bytes);
  if (kill_after_temp_file_for_testing()) ::raise(SIGKILL);
  if (::renameat(directory.descriptor(), temp.c_str(), directory.descriptor(), name.c_str()) != 0) {
    const std::string error = std::strerror(errno);
    ::unlinkat(directory.descriptor(), temp.c_str(), 0);
    throw std::runtime_error("cannot rename " + (directory.path() / temp).string() + " to " +
                             (directory.path() / name).string() + ": " + error);
  }
  remove_abandoned_temp_files(directory, name);
}

void write_atomically(const fs::path& path, const std::vector<unsigned char>& bytes) {
  write_atomically(TrustedDirectory::open_unchecked(path.parent_path().empty() ? "." : path.parent_path()),
                   path.filename().string(), bytes);
}

bool remove_entry(const TrustedDirectory& directory, const std::string& name) {
  if (::unlinkat(directory.descriptor(), name.c_str(), 0) == 0) return true;
  return (errno == EISDIR || errno == EPERM) && ::unlinkat(directory.descriptor(), name.c_str(), AT_REMOVEDIR) == 0;
}

bool rename_entry(const TrustedDirectory& directory, const std::string& from, const std::string& to) {
  return ::renameat(directory.descriptor(), from.c_str(), directory.descriptor(), to.c_str()) == 0;
}

std::size_t remove_abandoned_temp_files(const TrustedDirectory& directory, const std::string& name) {
  const std::string prefix = name + ".tmp.";
  const int listing = ::openat(directory.descriptor(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR* entries = listing < 0 ? nullptr : ::fdopendir(listing);
  if (entries == nullptr) {
    if (listing >= 0) ::close(listing);
    return 0;
  }
  const auto cutoff = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() - kAbandonedTempAge);
  std::size_t removed = 0;
  while (const dirent* entry = ::readdir(entries)) {
    if (std::strncmp(entry->d_name, prefix.c_str(), prefix.size()) != 0) continue;
    struct stat status {};
    if (::fstatat(directory.descriptor(), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) == 0 &&
        status.st_mtime < cutoff && ::unlinkat(directory.descriptor(), entry->d_name, 0) == 0)
      ++removed;
  }
  ::closedir(entries);
  return removed;
}

std::size_t remove_abandoned_temp_files(const fs::path& path) {
  return remove_abandoned_temp_files(TrustedDirectory::open_unchecked(path.parent_path()), path.filename().string());
}

FileLock::FileLock(const TrustedDirectory& directory, const std::string& name) {
  const fs::path path = directory.path() / name;
  descriptor_ =
      ::openat(directory.descriptor(), name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (descriptor_ >= 0)
    ::fchmod(descriptor_, 0600);
  else if (errno == EEXIST)
    descriptor_ = ::openat(directory.descriptor(), name.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  if (descriptor_ < 0) throw std::runtime_error("cannot open lock " + path.string() + ": " + std::strerror(errno));
  while (::flock(descriptor_, LOCK_EX) != 0) {
    if (errno != EINTR) {
      const std::string error = std::strerror(errno);
      ::close(descriptor_);
      throw std::runtime_error("cannot lock " + path.string() + ": " + error);
    }
  }
}

FileLock::~FileLock() {
  if (descriptor_ >= 0) {
    ::flock(descriptor_, LOCK_UN);
    ::close(descriptor_);
  }
}

void set_before_open_hook_for_testing(std::function<void(const fs::path&)> hook) {
  before_open_hook() = std::move(hook);
}

}  // namespace tilecl::detail
