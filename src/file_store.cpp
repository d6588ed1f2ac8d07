#include "file_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "environment.hpp"

namespace tilecl::detail {

namespace fs = std::filesystem;

std::optional<std::vector<unsigned char>> read_bytes(const fs::path& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) return std::nullopt;
  std::ifstream file(path, std::ios::binary);
  if (!file) return std::nullopt;
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) return std::nullopt;
  return bytes;
}

void write_atomically(const fs::path& path, const std::vector<unsigned char>& bytes) {
  static std::atomic<unsigned> counter{0};
  fs::create_directories(path.parent_path());
  const fs::path temp = path.string() + ".tmp." + std::to_string(::getpid()) + "." +
                        std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()) % 100000) + "." +
                        std::to_string(counter++);
  {
    std::ofstream file(temp, std::ios::binary | std::ios::trunc);
    if (!file) throw std::runtime_error("cannot create " + temp.string() + ": " + std::strerror(errno));
    file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    file.flush();
    if (!file) {
      std::error_code ignored;
      fs::remove(temp, ignored);
      throw std::runtime_error("cannot write " + temp.string());
    }
  }
  if (kill_after_temp_file_for_testing()) ::raise(SIGKILL);
  std::error_code error;
  fs::rename(temp, path, error);
  if (error) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw std::runtime_error("cannot rename " + temp.string() + " to " + path.string() + ": " + error.message());
  }
  remove_abandoned_temp_files(path);
}

std::size_t remove_abandoned_temp_files(const fs::path& path) {
  const std::string prefix = path.filename().string() + ".tmp.";
  const auto cutoff = fs::file_time_type::clock::now() - kAbandonedTempAge;
  std::size_t removed = 0;
  std::error_code error;
  for (fs::directory_iterator it(path.parent_path(), error), end; !error && it != end; it.increment(error)) {
    if (it->path().filename().string().compare(0, prefix.size(), prefix) != 0) continue;
    std::error_code ignored;
    const auto written = fs::last_write_time(it->path(), ignored);
    if (!ignored && written < cutoff && fs::remove(it->path(), ignored)) ++removed;
  }
  return removed;
}

FileLock::FileLock(const fs::path& path) {
  fs::create_directories(path.parent_path());
  descriptor_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (descriptor_ < 0) throw std::runtime_error("cannot open lock " + path.string() + ": " + std::strerror(errno));
  while (::flock(descriptor_, LOCK_EX) != 0) {
    if (errno != EINTR) {
      ::close(descriptor_);
      throw std::runtime_error("cannot lock " + path.string() + ": " + std::strerror(errno));
    }
  }
}

FileLock::~FileLock() {
  if (descriptor_ >= 0) {
    ::flock(descriptor_, LOCK_UN);
    ::close(descriptor_);
  }
}

}  // namespace tilecl::detail
