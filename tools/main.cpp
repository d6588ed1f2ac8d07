// tilecl: devices, cache, tune and bench from the command line.
#include <iostream>

#include "commands.hpp"
#include "tilecl/error.hpp"
#include "tilecl/runtime.hpp"

int main(int argc, char** argv) {
  // Setting up the commands can throw too (CLI11 construction errors, bad_alloc): the whole body is in the try.
  try {
    CLI::App app{"tilecl " + std::string(tilecl::version()) +
                 ": OpenCL kernels compiled at run time, tuned per device, cached in memory and on disk"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string(tilecl::version()));
    tilecl::tool::Action devices = tilecl::tool::add_devices_command(app);
    tilecl::tool::Action cache = tilecl::tool::add_cache_command(app);
    tilecl::tool::Action tune = tilecl::tool::add_tune_command(app);
    tilecl::tool::Action bench = tilecl::tool::add_bench_command(app);
    CLI11_PARSE(app, argc, argv);
    if (app.got_subcommand("devices")) return devices();
    if (app.got_subcommand("cache")) return cache();
    if (app.got_subcommand("tune")) return tune();
    if (app.got_subcommand("bench")) return bench();
  } catch (const tilecl::Error& error) {
    std::cerr << "tilecl: " << error.what() << std::endl;
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "tilecl: " << error.what() << std::endl;
    return 1;
  }
  return 0;
}
