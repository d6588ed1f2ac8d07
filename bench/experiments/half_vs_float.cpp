// Experiment (not part of the build): half against float for gemm and gemv on the default device, row-major, operands
// filled with ones / halves. Arguments are groups: `gemm M N K` prints gemm<half> as a call chooses it (first-use
// tuning on the first warm-up), the via_float variant forced (gemm_mma_with) and gemm<float>; `gemv M N` prints
// gemv<half> and gemv<float> in both orientations. Each time: 9 enqueue + finish after two warm-up calls, median and
// fastest. Session 10 ran it on PoCL (linked against two builds' libtilecl.a: before and after) and on an H100.
// Build: g++ -O2 -std=c++17 -Iinclude -Isrc bench/experiments/half_vs_float.cpp build/libtilecl.a -lOpenCL -lpthread
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "batch_timing.hpp"
#include "ops/gemm/mma.hpp"
#include "tilecl/tilecl.hpp"

using namespace tilecl;

namespace {

struct Timing {
  double median_ms, fastest_ms;
};

struct Bench {
  cl::Context context;
  cl::CommandQueue queue;

  // A buffer of `count` elements (at least one), each `value`.
  template <typename T>
  cl::Buffer filled(const T value, std::size_t count) {
    const std::vector<T> values(std::max<std::size_t>(count, 1), value);
    return cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(T),
                      const_cast<T*>(values.data()));
  }

  template <typename Call>
  Timing time(Call call) {
    call();  // the second warm-up call (single_call_ms makes the first)
    const std::vector<double> times = experiments::single_call_ms(queue, call, 9);
    return {times[4], times[0]};
  }
};

constexpr std::uint16_t kHalfOne = 0x3c00;

void gemm_row(Bench& b, std::size_t m, std::size_t n, std::size_t k) {
  cl::Buffer a16 = b.filled(kHalfOne, m * k), b16 = b.filled(kHalfOne, k * n), c16 = b.filled(kHalfOne, m * n);
  cl::Buffer a32 = b.filled(0.5f, m * k), b32 = b.filled(0.5f, k * n), c32 = b.filled(0.5f, m * n);
  const auto no = Transpose::No;
  const detail::Config via_float{"via_float", {}};
  const Timing chosen = b.time(
      [&] { gemm<half>(b.queue, Layout::RowMajor, no, no, m, n, k, 1.0f, a16, 0, k, b16, 0, n, 0.0f, c16, 0, n); });
  const Timing widened = b.time([&] {
    detail::gemm_mma_with<half>(via_float, b.queue, Layout::RowMajor, no, no, m, n, k, 1.0f, a16, 0, k, b16, 0, n, 0.0f,
                                c16, 0, n);
  });
  const Timing single = b.time(
      [&] { gemm<float>(b.queue, Layout::RowMajor, no, no, m, n, k, 1.0f, a32, 0, k, b32, 0, n, 0.0f, c32, 0, n); });
  std::printf(
      "gemm %zux%zux%zu  half %.4f (fastest %.4f) ms, %.1f GFLOP/s  half via_float %.4f (%.4f) ms  "
      "float %.4f (%.4f) ms  half/float %.2f\n",
      m, n, k, chosen.median_ms, chosen.fastest_ms, 2.0 * m * n * k / chosen.median_ms / 1e6, widened.median_ms,
      widened.fastest_ms, single.median_ms, single.fastest_ms, chosen.median_ms / single.median_ms);
}

void gemv_row(Bench& b, std::size_t m, std::size_t n) {
  const std::size_t longest = std::max(m, n);
  cl::Buffer a16 = b.filled(kHalfOne, m * n), x16 = b.filled(kHalfOne, longest), y16 = b.filled(kHalfOne, longest);
  cl::Buffer a32 = b.filled(0.5f, m * n), x32 = b.filled(0.5f, longest), y32 = b.filled(0.5f, longest);
  for (const Transpose trans : {Transpose::No, Transpose::Yes}) {
    const Timing h = b.time(
        [&] { gemv<half>(b.queue, Layout::RowMajor, trans, m, n, 1.0f, a16, 0, n, x16, 0, 1, 0.0f, y16, 0, 1); });
    const Timing f = b.time(
        [&] { gemv<float>(b.queue, Layout::RowMajor, trans, m, n, 1.0f, a32, 0, n, x32, 0, 1, 0.0f, y32, 0, 1); });
    std::printf("gemv %zux%zu %s  half %.4f (fastest %.4f) ms  float %.4f (%.4f) ms\n", m, n,
                trans == Transpose::No ? "N" : "T", h.median_ms, h.fastest_ms, f.median_ms, f.fastest_ms);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const cl::Device device = cl::Device::getDefault();
  Bench bench{cl::Context(device), {}};
  bench.queue = cl::CommandQueue(bench.context, device);
  for (int i = 1; i < argc;) {
    const std::string op = argv[i];
    auto size = [&](int at) { return static_cast<std::size_t>(std::atoll(argv[i + at])); };
    if (op == "gemm" && i + 3 < argc) {
      gemm_row(bench, size(1), size(2), size(3));
      i += 4;
    } else if (op == "gemv" && i + 2 < argc) {
      gemv_row(bench, size(1), size(2));
      i += 3;
    } else {
      std::fprintf(stderr, "usage: half_vs_float {gemm M N K | gemv M N}...\n");
      return 2;
    }
  }
}
