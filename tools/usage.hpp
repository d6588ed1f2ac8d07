// Usage errors of the tilecl command: a wrong word on the command line. They exit with status 2 and a message
// naming the word (runtime failures exit 1), as command-line conventions have it.
#pragma once

#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>

namespace tilecl::tool {

constexpr int kUsageExitStatus = 2;

// Thrown by a subcommand that finds a wrong value after parsing (an op without the dtype asked for, a shape
// the op cannot read, ...). The message names the word.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

// Prints CLI11's parse error as "tilecl <command>: <what is wrong>" with the offending word named (an unknown
// command word included, which CLI11 reports as a missing subcommand) and where the help is; returns 2.
int report_parse_error(CLI::App& app, const CLI::ParseError& error, int argc, const char* const* argv);

// The same for a UsageError raised by `command` (the subcommand's path, e.g. "tilecl tune").
int report_usage_error(const std::string& command, const UsageError& error);

}  // namespace tilecl::tool
