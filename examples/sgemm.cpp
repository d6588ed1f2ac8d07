// SGEMM C = A B on the default OpenCL device: the first call (which may compile and tune), the steady-state
// rate in GFLOP/s, and a check of a sample of C against a host reference.
// Usage: sgemm [N [REPEATS]]   (N x N x N, default 1024, 10 repeats)
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

#include "tilecl/tilecl.hpp"

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 10;
  cl::Device device = tilecl::select_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);

  std::mt19937 random(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (auto& value : a) value = uniform(random);
  for (auto& value : b) value = uniform(random);
  const std::size_t bytes = n * n * sizeof(float);
  cl::Buffer a_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a.data());
  cl::Buffer b_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b.data());
  cl::Buffer c_buffer(context, CL_MEM_READ_WRITE, bytes);
  // Row-major, no transposes, leading dimensions n; BLAS argument order.
  const auto multiply = [&] {
    return tilecl::gemm<float>(queue, tilecl::Layout::RowMajor, tilecl::Transpose::No, tilecl::Transpose::No, n, n, n,
                               1.0f, a_buffer, 0, n, b_buffer, 0, n, 0.0f, c_buffer, 0, n);
  };
  using Clock = std::chrono::steady_clock;
  try {
    auto start = Clock::now();
    multiply().wait();
    const double first_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    start = Clock::now();
    for (int r = 0; r < repeats; ++r) multiply();
    queue.finish();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count() / repeats;
    const double gflops = 2.0 * n * n * n / seconds * 1e-9;
    std::cout << "sgemm " << n << "^3 on " << tilecl::device_info(device).device_name << ": first call " << first_ms
              << " ms, then " << seconds * 1e3 << " ms = " << gflops << " GFLOP/s" << std::endl;
  } catch (const tilecl::Error& error) {
    std::cerr << error.what() << std::endl;
    return 1;
  }

  // 64 random elements of C against a dot product in double.
  queue.enqueueReadBuffer(c_buffer, CL_TRUE, 0, bytes, c.data());
  std::uniform_int_distribution<std::size_t> index(0, n - 1);
  int wrong = 0;
  for (int sample = 0; sample < 64; ++sample) {
    const std::size_t i = index(random), j = index(random);
    double exact = 0, magnitude = 0;
    for (std::size_t p = 0; p < n; ++p) {
      exact += static_cast<double>(a[i * n + p]) * b[p * n + j];
      magnitude += std::abs(static_cast<double>(a[i * n + p]) * b[p * n + j]);
    }
    // A k-term float sum is within about k eps of sum |a b| (README "Promises").
    if (std::abs(c[i * n + j] - exact) > (n + 2) * 1.2e-7 * magnitude + 1e-30) ++wrong;
  }
  std::cout << "sample of 64 elements: " << wrong << " outside the error bound" << std::endl;
  return wrong == 0 ? 0 : 1;
}
