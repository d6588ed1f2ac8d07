// Diagnostics on stderr: verbose events (TILECL_VERBOSE=1) and warnings printed once per subject.
#pragma once

#include <string>

namespace tilecl::detail {

// Printed only with TILECL_VERBOSE=1.
void log_verbose(const std::string& message);

// Printed once per process for a given subject (e.g. a cache file path), however often it recurs.
void warn_once(const std::string& subject, const std::string& message);

}  // namespace tilecl::detail
