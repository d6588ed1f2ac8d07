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
using namespace tilecl;
static double cpu_ms() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}
// gr WxH CHANNELS PAD: rgb_to_gray<uint8> with src pitch = W*C + PAD, dst pitch = W + PAD
int main(int argc, char** argv) {
  cl::Device device = cl::Device::getDefault();
  cl::Context ctx(device);
  cl::CommandQueue q(ctx, device);
  size_t w, h;
  sscanf(argv[1], "%zux%zu", &w, &h);
  size_t c = atoi(argv[2]), pad = atoi(argv[3]);
  size_t sp = w * c + pad, dp = w + pad;
  std::vector<unsigned char> init(sp * h + 64, 77);
  cl::Buffer a(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, init.size(), init.data()),
      b(ctx, CL_MEM_READ_WRITE, dp * h + 64);
  GrayOptions opt(GrayWeights(), c == 4 ? ChannelOrder::RGBA : ChannelOrder::RGB);
  auto call = [&] { rgb_to_gray<std::uint8_t>(q, w, h, a, 0, sp, b, 0, dp, opt); };
  call();
  q.finish();
  auto t = experiments::single_call_ms(q, call, 21);
  double c0 = cpu_ms();
  for (int k = 0; k < 20; ++k) {
    call();
    q.finish();
  }
  printf("%s c%zu pad %zu cpu %.4f wall_p10 %.4f\n", argv[1], c, pad, (cpu_ms() - c0) / 20, t[2]);
}
