#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <sys/resource.h>

#include <CL/opencl.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "batch_timing.hpp"
#include "tilecl/tilecl.hpp"
#include "tilecl/tuning.hpp"
using namespace tilecl;
static double cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}
template <typename T>
int run(int argc, char** argv, const char* dt) {
  cl::Device device = cl::Device::getDefault();
  cl::Context ctx(device);
  cl::CommandQueue q(ctx, device);
  size_t r, c;
  sscanf(argv[1], "%zux%zu", &r, &c);
  std::vector<T> init(r * c + 64);
  cl::Buffer a(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, init.size() * sizeof(T), init.data()),
      b(ctx, CL_MEM_READ_WRITE, init.size() * sizeof(T));
  auto call = [&] { transpose<T>(q, r, c, a, 0, c, b, 0, r); };
  auto copy = [&] { q.enqueueCopyBuffer(a, b, 0, 0, r * c * sizeof(T)); };
  {
    copy();
    q.finish();
    auto t = experiments::single_call_ms(q, copy, 21);
    printf("copy wall_p10 %.4f\n", t[2]);
  }
  for (int i = 2; i < argc; ++i) {
    std::string text = argv[i];
    tuning::clear();
    if (text != "default") tuning::override_parameters(device, "transpose", dt, tuning::Parameters::parse(text));
    call();
    q.finish();
    auto t = experiments::single_call_ms(q, call, 21);
    double c0 = cpu_ms();
    for (int k = 0; k < 10; ++k) {
      call();
      q.finish();
    }
    printf("%s %-50s cpu %.4f wall_p10 %.4f\n", argv[1], text.c_str(), (cpu_ms() - c0) / 10, t[2]);
  }
  return 0;
}

int main(int argc, char** argv) {
  const char* dt = getenv("DT") ? getenv("DT") : "uint8";
  if (std::string(dt) == "float") return run<float>(argc, argv, dt);
  if (std::string(dt) == "double") return run<double>(argc, argv, dt);
  if (std::string(dt) == "half") return run<tilecl::half>(argc, argv, dt);
  return run<std::uint8_t>(argc, argv, dt);
}
