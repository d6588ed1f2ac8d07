// Diagnostics on stderr: verbose events (TILECL_VERBOSE=1) and warnings printed once per subject.
#pragma once

#include <string>
#include <vector>

namespace tilecl::detail {

// Printed only with TILECL_VERBOSE=1.
void log_verbose(const std::string& message);

// Printed once per process for a given subject (e.g. a cache file path), however often it recurs.
void warn_once(const std::string& subject, const std::string& message);

// A warning that warn_once printed.
struct Report {
  std::string subject;
  std::string message;
};

// Every warning printed so far in this process, oldest first: how tests check that damage is reported, and
// reported once.
std::vector<Report> reports_so_far();

}  // namespace tilecl::detail
