// Experiment (not part of the build): gemm<half> as a call chooses it (first-use tuning on the first warm-up), the
// via_float variant forced (gemm_mma_with), and gemm<float>, row-major NN at the M N K triples given (operands filled
// with ones / halves), median of 9 enqueue + finish after two warm-up calls. Session 10 used it on PoCL (half against
// float, linked against two builds' libtilecl.a) and on an H100 (default against via_float).
// Build: g++ -O2 -std=c++17 -Iinclude -Isrc bench/experiments/half_gemm.cpp build/libtilecl.a -lOpenCL -lpthread
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ops/gemm/mma.hpp"
#include "tilecl/tilecl.hpp"

using namespace tilecl;

int main(int argc, char** argv) {
  cl::Device device = cl::Device::getDefault();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  const detail::Config via_float{"via_float", {}};
  for (int i = 1; i + 2 < argc; i += 3) {
    const std::size_t m = std::atoi(argv[i]), n = std::atoi(argv[i + 1]), k = std::atoi(argv[i + 2]);
    const std::vector<std::uint16_t> ones(std::max({m * k, k * n, m * n}), 0x3c00);
    const std::vector<float> halves(ones.size(), 0.5f);
    auto filled = [&](const void* data, std::size_t bytes) {
      return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, const_cast<void*>(data));
    };
    cl::Buffer a16 = filled(ones.data(), m * k * 2), b16 = filled(ones.data(), k * n * 2),
               c16(context, CL_MEM_READ_WRITE, m * n * 2);
    cl::Buffer a32 = filled(halves.data(), m * k * 4), b32 = filled(halves.data(), k * n * 4),
               c32(context, CL_MEM_READ_WRITE, m * n * 4);
    auto median_ms = [&](auto call) {
      call();
      call();
      queue.finish();
      std::vector<double> times;
      for (int run = 0; run < 9; ++run) {
        const auto start = std::chrono::steady_clock::now();
        call();
        queue.finish();
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      }
      std::sort(times.begin(), times.end());
      return times[4];
    };
    const auto no = Transpose::No;
    const double chosen = median_ms(
        [&] { gemm<half>(queue, Layout::RowMajor, no, no, m, n, k, 1.0f, a16, 0, k, b16, 0, n, 0.0f, c16, 0, n); });
    const double widened = median_ms([&] {
      detail::gemm_mma_with<half>(via_float, queue, Layout::RowMajor, no, no, m, n, k, 1.0f, a16, 0, k, b16, 0, n, 0.0f,
                                  c16, 0, n);
    });
    const double single = median_ms(
        [&] { gemm<float>(queue, Layout::RowMajor, no, no, m, n, k, 1.0f, a32, 0, k, b32, 0, n, 0.0f, c32, 0, n); });
    const double flop = 2.0 * static_cast<double>(m) * n * k;
    std::printf("%zux%zux%zu  half %.4f ms (%.1f GFLOP/s)  half via_float %.4f ms  float %.4f ms  half/float %.2f\n", m,
                n, k, chosen, flop / chosen / 1e6, widened, single, chosen / single);
  }
}
