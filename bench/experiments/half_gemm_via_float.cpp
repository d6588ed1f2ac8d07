// Experiment (not part of the build): gemm<half> as a call chooses it (first-use tuning) beside the via_float variant
// forced (gemm_mma_with), row-major NN at the M N K triples given, median of 9 enqueue + finish. Needs the library's
// private headers: g++ -O2 -std=c++17 -Iinclude -Isrc bench/experiments/half_gemm_via_float.cpp build/libtilecl.a
// -lOpenCL -lpthread. Session 10 ran it on an H100 (bench/results/nvidia-h100/session10).
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "ops/gemm/mma.hpp"
#include "tilecl/tilecl.hpp"
using namespace tilecl;
int main(int argc, char** argv) {
  cl::Device d = cl::Device::getDefault();
  cl::Context ctx(d);
  cl::CommandQueue q(ctx, d);
  const detail::Config via{"via_float", {}};
  for (int i = 1; i + 2 < argc; i += 3) {
    size_t m = atoi(argv[i]), n = atoi(argv[i + 1]), k = atoi(argv[i + 2]);
    std::vector<std::uint16_t> h(std::max({m * k, k * n, m * n}), 0x3c00);
    cl::Buffer a(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, m * k * 2, h.data()),
        b(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, k * n * 2, h.data()), c(ctx, CL_MEM_READ_WRITE, m * n * 2);
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
      return t[4];
    };
    double def = time([&] {
      gemm<half>(q, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0f, a, 0, k, b, 0, n, 0.0f, c, 0, n);
    });
    double vf = time([&] {
      detail::gemm_mma_with<half>(via, q, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0f, a, 0, k, b, 0,
                                  n, 0.0f, c, 0, n);
    });
    double bytes = 2.0 * (m * k + k * n + m * n);
    std::printf(
        "%zux%zux%zu half: default %.4f ms (%.0f GB/s, %.1f TFLOP/s)  via_float %.4f ms (%.0f GB/s, %.1f TFLOP/s)\n", m,
        n, k, def, bytes / def / 1e6, 2.0 * m * n * k / def / 1e9, vf, bytes / vf / 1e6, 2.0 * m * n * k / vf / 1e9);
  }
}
