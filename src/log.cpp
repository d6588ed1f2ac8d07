#include "log.hpp"

#include <iostream>
#include <mutex>
#include <set>
#include <vector>

#include "environment.hpp"

namespace tilecl::detail {
namespace {
std::mutex& output_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<Report>& printed_reports() {
  static std::vector<Report> reports;
  return reports;
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
  printed_reports().push_back({subject, message});
  std::cerr << "[tilecl] warning: " << message << std::endl;
}

std::vector<Report> reports_so_far() {
  std::lock_guard<std::mutex> lock(output_mutex());
  return printed_reports();
}

}  // namespace tilecl::detail
