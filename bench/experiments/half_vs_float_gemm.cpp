// Experiment (not part of the build): gemm<half> beside gemm<float> on the default device at the sizes given as
// M N K triples (row-major NN, operands filled with ones / halves), median of 5 enqueue + finish after two warm-up
// calls (the first one tunes). Used in session 10 to compare the portable kernel with via_float on PoCL: link it once
// against each build's libtilecl.a.
// Build: g++ -O2 -std=c++17 -Iinclude bench/experiments/half_vs_float_gemm.cpp build/libtilecl.a -lOpenCL -lpthread
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
// half and float gemm, row-major NN, at the given sizes: median of 5 timed calls (enqueue + finish) after 2 warm-ups.
int main(int argc, char** argv) {
  cl::Device d = cl::Device::getDefault();
  cl::Context ctx(d);
  cl::CommandQueue q(ctx, d);
  for (int i = 1; i + 2 < argc; i += 3) {
    size_t m = atoi(argv[i]), n = atoi(argv[i + 1]), k = atoi(argv[i + 2]);
    std::vector<std::uint16_t> h(std::max({m * k, k * n, m * n}), 0x3c00);
    std::vector<float> f(h.size(), 0.5f);
    cl::Buffer a16(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, m * k * 2, h.data()),
        b16(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, k * n * 2, h.data()), c16(ctx, CL_MEM_READ_WRITE, m * n * 2);
    cl::Buffer a32(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, m * k * 4, f.data()),
        b32(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, k * n * 4, f.data()), c32(ctx, CL_MEM_READ_WRITE, m * n * 4);
    auto time = [&](auto call) {
      call();
      call();
      q.finish();
      std::vector<double> t;
      for (int r = 0; r < 5; ++r) {
        auto s = std::chrono::steady_clock::now();
        call();
        q.finish();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
      }
      std::sort(t.begin(), t.end());
      return t[2];
    };
    double th = time([&] {
      gemm<half>(q, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0f, a16, 0, k, b16, 0, n, 0.0f, c16, 0,
                 n);
    });
    double tf = time([&] {
      gemm<float>(q, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0f, a32, 0, k, b32, 0, n, 0.0f, c32, 0,
                  n);
    });
    std::printf("%zux%zux%zu half %.3f ms  float %.3f ms  half/float time %.2f\n", m, n, k, th, tf, th / tf);
  }
}
