// tilecl bench: delegates to the benchmark driver in bench/ when it was built.
#include <iostream>

#include "commands.hpp"
#ifdef TILECL_HAVE_BENCH
#include "bench_driver.hpp"
#endif

namespace tilecl::tool {

Action add_bench_command(CLI::App& app) {
#ifdef TILECL_HAVE_BENCH
  return bench::add_bench_command(app);
#else
  auto* command = app.add_subcommand("bench", "Benchmarks (this build has none: configure with TILECL_BUILD_BENCH=ON)");
  (void)command;
  return [] {
    std::cerr << "tilecl: this build has no benchmark driver (configure with -DTILECL_BUILD_BENCH=ON)" << std::endl;
    return 1;
  };
#endif
}

}  // namespace tilecl::tool
