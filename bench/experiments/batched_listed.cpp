// Experiment (not part of the build): the host's share of gemm_batched with listed offsets, beside
// gemm_strided_batched on the same matrices. Rows (enqueue + finish medians of 30 calls after 3 warm-ups):
//   strided         gemm_strided_batched
//   listed even     gemm_batched, offsets i * stride, every alpha 1 and beta 0.5 (the bench's GemmBatched rows)
//   listed scalars  the same offsets, alpha varying per matrix (the per-matrix table is uploaded)
//   listed shuffled the matrices in a shuffled order (neither sorted nor evenly spaced)
// Build from the repository root against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude bench/experiments/batched_listed.cpp build/libtilecl.a -lOpenCL -lpthread -o listed
// Run: listed [batch m n k]...   (default: 16384 8 8 8, 4096 32 32 32, 1024 64 64 64)
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "tilecl/gemm_batched.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double median_ms(const std::function<void()>& call, cl::CommandQueue& queue) {
  for (int i = 0; i < 3; ++i) call();
  queue.finish();
  std::vector<double> times;
  for (int i = 0; i < 30; ++i) {
    const auto start = Clock::now();
    call();
    queue.finish();
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void measure(cl::Context& context, cl::CommandQueue& queue, std::size_t batch, std::size_t m, std::size_t n,
             std::size_t k) {
  using tilecl::Layout;
  using tilecl::Transpose;
  const std::size_t sa = m * k, sb = k * n, sc = m * n;
  std::vector<float> host(batch * std::max({sa, sb, sc}), 0.5f);
  cl::Buffer a(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, batch * sa * sizeof(float), host.data());
  cl::Buffer b(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, batch * sb * sizeof(float), host.data());
  cl::Buffer c(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, batch * sc * sizeof(float), host.data());
  std::vector<std::size_t> ao(batch), bo(batch), co(batch);
  for (std::size_t i = 0; i < batch; ++i) ao[i] = i * sa, bo[i] = i * sb, co[i] = i * sc;
  std::vector<float> alphas(batch, 1.0f), betas(batch, 0.5f), varied(batch);
  for (std::size_t i = 0; i < batch; ++i) varied[i] = 1.0f + 0.25f * static_cast<float>(i % 3);
  std::vector<std::size_t> order(batch);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  std::vector<std::size_t> as(batch), bs(batch), cs(batch);
  for (std::size_t i = 0; i < batch; ++i) as[i] = order[i] * sa, bs[i] = order[i] * sb, cs[i] = order[i] * sc;

  const double strided = median_ms(
      [&] {
        tilecl::gemm_strided_batched<float>(queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0f, a, 0,
                                            k, sa, b, 0, n, sb, 0.5f, c, 0, n, sc, batch);
      },
      queue);
  const auto listed = [&](const std::vector<float>& al, const std::vector<std::size_t>& x,
                          const std::vector<std::size_t>& y, const std::vector<std::size_t>& z) {
    return median_ms(
        [&] {
          tilecl::gemm_batched<float>(queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, al, a, x, k, b, y,
                                      n, betas, c, z, n);
        },
        queue);
  };
  const double even = listed(alphas, ao, bo, co), scalars = listed(varied, ao, bo, co),
               shuffled = listed(alphas, as, bs, cs);
  std::printf("%zu x %zux%zux%zu  strided %.4f  listed even %.4f  listed scalars %.4f  listed shuffled %.4f ms\n",
              batch, m, n, k, strided, even, scalars, shuffled);
}

}  // namespace

int main(int argc, char** argv) {
  cl::Context context(CL_DEVICE_TYPE_DEFAULT);
  cl::CommandQueue queue(context);
  std::vector<std::size_t> shapes;
  for (int i = 1; i < argc; ++i) shapes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (shapes.empty()) shapes = {16384, 8, 8, 8, 4096, 32, 32, 32, 1024, 64, 64, 64};
  for (std::size_t i = 0; i + 3 < shapes.size(); i += 4)
    measure(context, queue, shapes[i], shapes[i + 1], shapes[i + 2], shapes[i + 3]);
}
