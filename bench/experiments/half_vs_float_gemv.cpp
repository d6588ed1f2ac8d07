// Experiment (not part of the build): gemv<half> beside gemv<float>, both orientations, row-major, at the M N pairs
// given; the fastest of 9 enqueue + finish after two warm-up calls (the first one tunes). Session 10 linked it against
// two builds' libtilecl.a to compare the CPU columns settings.
// Build: g++ -O2 -std=c++17 -Iinclude bench/experiments/half_vs_float_gemv.cpp build/libtilecl.a -lOpenCL -lpthread
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "tilecl/tilecl.hpp"
using namespace tilecl;
// gemv<half> and gemv<float>, both orientations, at the M N pairs given: the fastest of 9 enqueue + finish.
int main(int argc, char** argv) {
  cl::Device d = cl::Device::getDefault();
  cl::Context ctx(d);
  cl::CommandQueue q(ctx, d);
  for (int i = 1; i + 1 < argc; i += 2) {
    size_t m = atoi(argv[i]), n = atoi(argv[i + 1]), big = std::max(m, n);
    std::vector<std::uint16_t> h(m * n, 0x3c00);
    std::vector<float> f(m * n, 0.5f);
    cl::Buffer a16(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, m * n * 2, h.data()),
        x16(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, big * 2, h.data()), y16(ctx, CL_MEM_READ_WRITE, big * 2);
    cl::Buffer a32(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, m * n * 4, f.data()),
        x32(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, big * 4, f.data()), y32(ctx, CL_MEM_READ_WRITE, big * 4);
    auto time = [&](auto call) {
      call();
      call();
      q.finish();
      std::vector<double> t;
      for (int r = 0; r < 9; ++r) {
        auto s = std::chrono::steady_clock::now();
        call();
        q.finish();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
      }
      std::sort(t.begin(), t.end());
      return t[0];
    };
    for (auto tr : {Transpose::No, Transpose::Yes}) {
      double th = time([&] { gemv<half>(q, Layout::RowMajor, tr, m, n, 1.0f, a16, 0, n, x16, 0, 1, 0.0f, y16, 0, 1); });
      double tf =
          time([&] { gemv<float>(q, Layout::RowMajor, tr, m, n, 1.0f, a32, 0, n, x32, 0, 1, 0.0f, y32, 0, 1); });
      std::printf("gemv %zux%zu %s half %.3f ms float %.3f ms\n", m, n, tr == Transpose::No ? "N" : "T", th, tf);
    }
  }
}
