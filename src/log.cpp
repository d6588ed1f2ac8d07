#include "log.hpp"

#include <iostream>
#include <mutex>
#include <set>

#include "environment.hpp"

namespace tilecl::detail {
namespace {
std::mutex& output_mutex() {
  static std::mutex mutex;
  return mutex;
}
}  // namespace

void log_verbose(const std::string& message) {
  if (!verbose()) return;
  std::lock_guard<std::mutex> lock(output_mutex());
  std::cerr << "[tilecl] " << message << std::endl;
}

void warn_once(const std::string& subject, const std::string& message) {
  static std::set<std::string> warned;
  std::lock_guard<std::mutex> lock(output_mutex());
  if (!warned.insert(subject).second) return;
  std::cerr << "[tilecl] warning: " << message << std::endl;
}

}  // namespace tilecl::detail
