// `tilecl bench`: every family's benchmark beside its peers and the device's limits, in one run.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace tilecl::bench {

// Registers the subcommand; returns what runs it.
std::function<int()> add_bench_command(CLI::App& app);

}  // namespace tilecl::bench
