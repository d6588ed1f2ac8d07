#include "support/fixture.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include "log.hpp"
#include "workspace.hpp"

namespace tilecl::test {

// Never destroyed, like the library's caches: OpenCL objects must not outlive the driver at exit.
TestDevice& device() {
  static TestDevice& instance = *[] {
    auto* created = new TestDevice;
    TestDevice& d = *created;
    d.device = select_device();
    d.context = cl::Context(d.device);
    d.queue = cl::CommandQueue(d.context, d.device);
    d.info = &device_info(d.device);
    return created;
  }();
  return instance;
}

std::uint64_t seed() {
  static const std::uint64_t value = [] {
    std::uint64_t chosen = std::random_device{}();
    if (const char* text = std::getenv("TILECL_TEST_SEED")) chosen = std::strtoull(text, nullptr, 10);
    return chosen;
  }();
  return value;
}

std::mt19937_64 random_engine(const std::string& salt) {
  return std::mt19937_64(seed() ^ std::hash<std::string>{}(salt));
}

namespace {

std::filesystem::path executable_directory() {
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : executable.parent_path();
}

// The first of `candidates` that exists, or "" (each candidate is a path to check and the path to return).
std::string first_existing(const std::vector<std::pair<std::filesystem::path, std::string>>& candidates) {
  std::error_code error;
  for (const auto& [check, result] : candidates)
    if (!check.empty() && std::filesystem::exists(check, error)) return result;
  return "";
}

}  // namespace

// $TILECL_TEST_PROBE, else beside the test executable (so a test folder copied to another machine finds it),
// else where the build put it.
std::string probe_path() {
  static const std::string path = [] {
    if (const char* chosen = std::getenv("TILECL_TEST_PROBE"); chosen != nullptr && *chosen != '\0')
      return std::string(chosen);
    const auto beside = executable_directory() / "tilecl_test_probe";
    const std::string found = first_existing({{beside, beside.string()}, {TILECL_PROBE_PATH, TILECL_PROBE_PATH}});
    return found.empty() ? beside.string() : found;
  }();
  return path;
}

// A directory holding kernels/: $TILECL_TEST_SOURCE_DIR, else the copy the build puts beside the test
// executable (test-data/kernels), else the source tree as configured. Empty when none has kernels/.
std::string source_directory() {
  static const std::string path = [] {
    if (const char* chosen = std::getenv("TILECL_TEST_SOURCE_DIR"); chosen != nullptr && *chosen != '\0')
      return std::string(chosen);
    const auto beside = executable_directory() / "test-data";
    return first_existing(
        {{beside / "kernels", beside.string()}, {std::string(TILECL_SOURCE_DIR) + "/kernels", TILECL_SOURCE_DIR}});
  }();
  return path;
}

std::string temp_directory(const std::string& name) {
  static int counter = 0;
  auto path = std::filesystem::temp_directory_path() /
              ("tilecl-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + name);
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  // 0755 whatever the umask: a cache there must pass tilecl's trust checks (not writable by group or others).
  std::filesystem::permissions(path, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                         std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                         std::filesystem::perms::others_exec);
  return path.string();
}

CommandResult run_command(const std::string& command) {
  CommandResult result{-1, {}};
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return result;
  char buffer[4096];
  while (std::fgets(buffer, sizeof(buffer), pipe.get()) != nullptr) result.output += buffer;
  int status = pclose(pipe.release());
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::size_t reports_mentioning(const std::string& text) {
  std::size_t count = 0;
  for (const auto& report : detail::reports_so_far())
    if (report.subject.find(text) != std::string::npos || report.message.find(text) != std::string::npos) ++count;
  return count;
}

void prepare_workspace_for_oclgrind(const std::string& name, std::size_t bytes) {
  auto workspace = detail::acquire_workspace("test", device().context, device().device, name, bytes, nullptr);
  const std::vector<unsigned char> zeros(workspace.bytes(), 0);
  device().queue.enqueueWriteBuffer(workspace.buffer(), CL_TRUE, 0, zeros.size(), zeros.data());
}

bool file_permissions_enforced() {
  static const bool enforced = [] {
    const std::filesystem::path file = temp_directory("permissions") + "/unreadable";
    std::ofstream(file) << "x";
    std::filesystem::permissions(file, std::filesystem::perms::none);
    const bool blocked = !std::ifstream(file).is_open();
    std::filesystem::remove_all(file.parent_path());
    return blocked;
  }();
  return enforced;
}

std::string as_nobody() {
  if (::geteuid() != 0 || run_command("command -v setpriv >/dev/null 2>&1").status != 0) return {};
  return "setpriv --reuid=65534 --regid=65534 --clear-groups ";
}

nlohmann::json probe_report(const std::string& environment, const std::string& args, bool unprivileged) {
  const std::string command = (unprivileged ? as_nobody() : std::string()) + "env " + environment + " '" +
                              probe_path() + "' " + args + " 2>/dev/null";
  auto result = run_command(command);
  const bool reported = (result.status == 0 || result.status == 1) && nlohmann::json::accept(result.output);
  REQUIRE_MESSAGE(reported, command << " -> exit status " << result.status << ", " << result.output);
  return nlohmann::json::parse(result.output);
}

ScopedEnv::ScopedEnv(const char* name, const std::string& value) : name_(name) {
  const char* old = std::getenv(name);
  had_value_ = old != nullptr;
  if (had_value_) old_value_ = old;
  if (value.empty())
    ::unsetenv(name);
  else
    ::setenv(name, value.c_str(), 1);
}

ScopedEnv::~ScopedEnv() {
  if (had_value_)
    ::setenv(name_.c_str(), old_value_.c_str(), 1);
  else
    ::unsetenv(name_.c_str());
}

}  // namespace tilecl::test
