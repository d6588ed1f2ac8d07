// tilecl: devices, cache, tune and bench from the command line. Exit status: 0 success, 1 a failure while
// running (tilecl::Error and others, with their message), 2 a usage error (a wrong word on the command line,
// named), 130 tune interrupted by Ctrl-C.
#include <iostream>

#include "commands.hpp"
#include "tilecl/error.hpp"
#include "tilecl/runtime.hpp"
#include "usage.hpp"

namespace {

int run(int argc, char** argv) {
  CLI::App app{"tilecl " + std::string(tilecl::version()) +
               ": OpenCL kernels compiled at run time, tuned per device, cached in memory and on disk"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(tilecl::version()));
  app.footer("Exit status: 0 success, 1 failure, 2 usage error. Each command has its own --help.");
  const tilecl::tool::Action devices = tilecl::tool::add_devices_command(app);
  const tilecl::tool::Action cache = tilecl::tool::add_cache_command(app);
  const tilecl::tool::Action tune = tilecl::tool::add_tune_command(app);
  const tilecl::tool::Action bench = tilecl::tool::add_bench_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& success) {  // --help, --version
    return app.exit(success);
  } catch (const CLI::ParseError& error) {
    return tilecl::tool::report_parse_error(app, error, argc, argv);
  }
  const CLI::App* command = app.get_subcommands().front();
  try {
    if (command->get_name() == "devices") return devices();
    if (command->get_name() == "cache") return cache();
    if (command->get_name() == "tune") return tune();
    return bench();
  } catch (const tilecl::tool::UsageError& error) {
    return tilecl::tool::report_usage_error("tilecl " + command->get_name(), error);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Setting up the commands can throw too (CLI11 construction errors, bad_alloc): everything is in the try.
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "tilecl: " << error.what() << std::endl;
    return 1;
  }
}
