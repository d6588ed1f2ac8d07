// The subcommands of `tilecl`. Each registers its options on the app and returns the function to run.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace tilecl::tool {

using Action = std::function<int()>;

// --device P:D (index or name substring each), shared by every subcommand that runs kernels.
struct DeviceOption {
  std::string selector;
  void add_to(CLI::App& command);
};

Action add_devices_command(CLI::App& app);
Action add_cache_command(CLI::App& app);
Action add_tune_command(CLI::App& app);
Action add_bench_command(CLI::App& app);

}  // namespace tilecl::tool
