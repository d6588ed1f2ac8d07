// Reading tilecl's environment variables (TILECL_*), the one place that knows their names.
#pragma once

#include <optional>
#include <string>

namespace tilecl::detail {

// The value of an environment variable, or nullopt when unset or empty.
std::optional<std::string> env_value(const char* name);

// True when the variable is set to something other than 0/off/false/no (case-insensitive).
bool env_enabled(const char* name);

// TILECL_VERBOSE: print cache and tuning events and a statistics summary at exit.
bool verbose();
// TILECL_SHOW_KERNELS: print each program's source, options and build log when it is compiled.
bool show_kernels();
// TILECL_TEST_KILL_AFTER_TEMP_FILE: a test hook; the process kills itself (SIGKILL) after writing a cache
// file's temp file and before renaming it into place, as a writer killed half-way would.
bool kill_after_temp_file_for_testing();

}  // namespace tilecl::detail
