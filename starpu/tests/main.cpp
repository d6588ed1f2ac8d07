// The StarPU suites: StarPU starts once for the process with the OpenCL workers the environment asks for
// (CTest: STARPU_NOPENCL=2 over POCL_DEVICES="pthread pthread", no CPU workers), and stops at exit.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <starpu.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  setenv("STARPU_OPENCL_ON_CPUS", "1", 0);
  setenv("STARPU_NCPU", "0", 0);
  setenv("STARPU_SCHED", "eager", 0);
  if (starpu_init(nullptr) != 0) {
    std::fprintf(stderr, "starpu_init failed: no StarPU workers\n");
    return 1;
  }
  std::printf("[tilecl starpu tests] %u workers, %u OpenCL\n", starpu_worker_get_count(),
              starpu_opencl_worker_get_count());
  doctest::Context context(argc, argv);
  const int status = context.run();
  starpu_shutdown();
  return status;
}
