#include "support/fixture.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>

#include <unistd.h>

namespace tilecl::test {

TestDevice& device() {
  static TestDevice instance = [] {
    TestDevice d;
    d.device = select_device();
    d.context = cl::Context(d.device);
    d.queue = cl::CommandQueue(d.context, d.device);
    d.info = &device_info(d.device);
    return d;
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

std::string probe_path() { return TILECL_PROBE_PATH; }

std::string temp_directory(const std::string& name) {
  static int counter = 0;
  auto path = std::filesystem::temp_directory_path() /
              ("tilecl-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" + name);
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
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
