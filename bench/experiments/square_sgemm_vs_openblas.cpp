// Experiment (not part of the build): tilecl's SGEMM on square sizes against OpenBLAS's cblas_sgemm in the same
// process -- issue 14's CPU goal (PoCL, square 512..2048: >= 0.9x OpenBLAS). tilecl: device buffers, host-timed
// enqueue + finish; OpenBLAS: host arrays (its own threads). Median of 5 runs after one warm-up each (tilecl's
// warm-up includes first-use tuning). One JSON object per size; sizes as arguments (default 512 768 1024 1536 2048).
// Build against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude -Ibuild/include bench/experiments/square_sgemm_vs_openblas.cpp build/libtilecl.a \
//       -lopenblas -lOpenCL -lpthread -o square_sgemm_vs_openblas
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <cblas.h>

#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "tilecl/gemm.hpp"

namespace {

double median_ms(const std::function<void()>& call) {
  call();
  std::vector<double> times;
  for (int run = 0; run < 5; ++run) {
    const auto start = std::chrono::steady_clock::now();
    call();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  cl::Context context(CL_DEVICE_TYPE_DEFAULT);
  const cl::Device device = context.getInfo<CL_CONTEXT_DEVICES>().at(0);
  cl::CommandQueue queue(context, device);
  std::cerr << "device: " << device.getInfo<CL_DEVICE_NAME>() << "\n";
  std::vector<std::size_t> sizes{512, 768, 1024, 1536, 2048};  // or the sizes given as arguments
  if (argc > 1) sizes.clear();
  for (int arg = 1; arg < argc; ++arg) sizes.push_back(std::stoul(argv[arg]));
  for (const std::size_t n : sizes) {
    std::vector<float> a(n * n, 0.5f), b(n * n, 0.25f), c(n * n, 0.0f);
    cl::Buffer da(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, a.size() * 4, a.data());
    cl::Buffer db(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, b.size() * 4, b.data());
    cl::Buffer dc(context, CL_MEM_READ_WRITE, c.size() * 4);
    const double tilecl_ms = median_ms([&] {
      tilecl::gemm<float>(queue, tilecl::Layout::RowMajor, tilecl::Transpose::No, tilecl::Transpose::No, n, n, n, 1.0f,
                          da, 0, n, db, 0, n, 0.0f, dc, 0, n);
      queue.finish();
    });
    const double openblas_ms = median_ms([&] {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(n), static_cast<int>(n),
                  static_cast<int>(n), 1.0f, a.data(), static_cast<int>(n), b.data(), static_cast<int>(n), 0.0f,
                  c.data(), static_cast<int>(n));
    });
    const double flops = 2.0 * n * n * n;
    std::cout << "{\"n\": " << n << ", \"tilecl_ms\": " << tilecl_ms << ", \"openblas_ms\": " << openblas_ms
              << ", \"tilecl_gflops\": " << flops / tilecl_ms / 1e6
              << ", \"openblas_gflops\": " << flops / openblas_ms / 1e6 << ", \"ratio\": " << openblas_ms / tilecl_ms
              << "}" << std::endl;
  }
  return 0;
}
