// Experiment (not part of the build): the CPU gemm kernel (gemm_cpu in kernels/gemm.cl) with and without K in blocks
// between barriers (K_BLOCK).
//   kernel M N K  the kernel alone, built from kernels/ here: B in place or in packed panels (packed on the host, so
//                 the times are the kernel's alone), work-groups of 8 or 4 work-items along M, K_BLOCK 0 to 256;
//                 row-major NN, alpha 1, beta 0; every setting's result compared with the first's.
//   calls         tilecl::gemm<float> at deep shapes, the library's default beside forced settings
//                 (tilecl::tuning::override_parameters): K_BLOCK 0 to 2048 on B in place, and packed panels.
// Build from the repository root against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude bench/experiments/gemm_cpu_k_block.cpp build/libtilecl.a -lOpenCL -lpthread \
//       -o k_block
// Run from the repository root: TILECL_TUNE=off k_block kernel 192 192 8192 | k_block calls
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tilecl/gemm.hpp"
#include "tilecl/tuning.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kRowsPerItem = 6, kColumnsPerItem = 64, kVector = 16;

std::string read_file(const char* path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

double median_ms(const std::function<void()>& run, int runs) {
  run();
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    run();
    times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void calls() {
  cl::Context context(CL_DEVICE_TYPE_DEFAULT);
  const cl::Device device = context.getInfo<CL_CONTEXT_DEVICES>()[0];
  cl::CommandQueue queue(context, device);
  const std::string cpu = "cpu WPT_M=6 WPT_N=64 VEC=16 WG_X=1 WG_Y=8 ";
  const std::vector<std::string> settings{"default",
                                          cpu + "USE_PACKED_B=0 K_BLOCK=0",
                                          cpu + "USE_PACKED_B=0 K_BLOCK=64",
                                          cpu + "USE_PACKED_B=0 K_BLOCK=128",
                                          cpu + "USE_PACKED_B=0 K_BLOCK=512",
                                          cpu + "USE_PACKED_B=0 K_BLOCK=2048",
                                          cpu + "USE_PACKED_B=1 K_BLOCK=0"};
  for (const auto& [m, n, k] : std::vector<std::array<std::size_t, 3>>{
           {192, 192, 8192}, {64, 2048, 4096}, {256, 64, 16384}, {40, 40, 20000}, {128, 128, 2048}, {500, 300, 3000}}) {
    const std::vector<float> host_a(m * k, 0.5f), host_b(k * n, 0.25f);
    cl::Buffer a(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host_a.size() * 4,
                 const_cast<float*>(host_a.data()));
    cl::Buffer b(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host_b.size() * 4,
                 const_cast<float*>(host_b.data()));
    cl::Buffer c(context, CL_MEM_READ_WRITE, m * n * 4);
    const std::string shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    for (const auto& setting : settings) {
      tilecl::tuning::clear();
      if (setting != "default")
        tilecl::tuning::override_parameters(device, "gemm", "float", tilecl::tuning::Parameters::parse(setting));
      const double ms = median_ms(
          [&] {
            tilecl::gemm<float>(queue, tilecl::Layout::RowMajor, tilecl::Transpose::No, tilecl::Transpose::No, m, n, k,
                                1.0f, a, 0, k, b, 0, n, 0.0f, c, 0, n);
            queue.finish();
          },
          5);
      const std::string chosen =
          setting == "default"
              ? " (" + tilecl::tuning::parameters_for(queue, "gemm", "float", shape).parameters.to_string() + ")"
              : "";
      std::printf("%-16s %-56s %8.2f ms%s\n", shape.c_str(), setting.c_str(), ms, chosen.c_str());
    }
  }
  tilecl::tuning::clear();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "calls") {
    calls();
    return 0;
  }
  const int m = argc > 2 ? std::atoi(argv[2]) : 1024, n = argc > 3 ? std::atoi(argv[3]) : m,
            k = argc > 4 ? std::atoi(argv[4]) : m;
  cl::Context context(CL_DEVICE_TYPE_DEFAULT);
  const cl::Device device = context.getInfo<CL_CONTEXT_DEVICES>()[0];
  cl::CommandQueue queue(context);
  const std::string source = read_file("kernels/common.clh") + "\n" + read_file("kernels/gemm.cl");

  std::mt19937 random(1);
  std::uniform_real_distribution<float> value(-1, 1);
  std::vector<float> a(static_cast<std::size_t>(m) * k), b(static_cast<std::size_t>(k) * n),
      c(static_cast<std::size_t>(m) * n);
  for (float& x : a) x = value(random);
  for (float& x : b) x = value(random);
  // k-major panels of kColumnsPerItem columns, zero beyond n (what gemm_pack_panels writes).
  const int panels = (n + kColumnsPerItem - 1) / kColumnsPerItem, panel_stride = k * kColumnsPerItem;
  std::vector<float> packed(static_cast<std::size_t>(panels) * panel_stride, 0.0f);
  for (int p = 0; p < panels; ++p)
    for (int row = 0; row < k; ++row)
      for (int j = 0; j < kColumnsPerItem; ++j) {
        const int column = p * kColumnsPerItem + j;
        if (column < n)
          packed[static_cast<std::size_t>(p) * panel_stride + row * kColumnsPerItem + j] =
              b[static_cast<std::size_t>(row) * n + column];
      }
  cl::Buffer a_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.size() * 4, a.data());
  cl::Buffer b_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.size() * 4, b.data());
  cl::Buffer panel_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, packed.size() * 4, packed.data());
  cl::Buffer c_buffer(context, CL_MEM_READ_WRITE, c.size() * 4);

  std::vector<float> first;
  for (int use_panels : {0, 1})
    for (int k_block : {0, 32, 64, 128, 256})
      for (int group_rows : {8, 4}) {
        std::ostringstream options;
        options << "-DGEMM_VARIANT=4 -DDTYPE=float -DWPT_M=" << kRowsPerItem << " -DWPT_N=" << kColumnsPerItem
                << " -DVEC=" << kVector << " -DUSE_PACKED_B=" << use_panels << " -DK_BLOCK=" << k_block;
        cl::Program program(context, source);
        try {
          program.build(options.str().c_str());
        } catch (const cl::Error&) {
          std::printf("build failed: %s\n", program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device).c_str());
          return 1;
        }
        cl::Kernel kernel(program, "gemm_cpu");
        int arg = 0;
        kernel.setArg(arg++, m), kernel.setArg(arg++, n), kernel.setArg(arg++, k), kernel.setArg(arg++, 1.0f);
        kernel.setArg(arg++, a_buffer), kernel.setArg(arg++, cl_ulong{0}), kernel.setArg(arg++, k);
        kernel.setArg(arg++, use_panels ? panel_buffer : b_buffer), kernel.setArg(arg++, cl_ulong{0});
        kernel.setArg(arg++, use_panels ? panel_stride : n);
        kernel.setArg(arg++, 0.0f), kernel.setArg(arg++, c_buffer), kernel.setArg(arg++, cl_ulong{0});
        kernel.setArg(arg++, n);
        const std::size_t rows_of_items = (m + kRowsPerItem - 1) / kRowsPerItem;
        const std::size_t global_y = (rows_of_items + group_rows - 1) / group_rows * group_rows;
        std::vector<double> times;
        for (int run = 0; run < 6; ++run) {
          const auto start = Clock::now();
          queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(panels, global_y), cl::NDRange(1, group_rows));
          queue.finish();
          times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        }
        std::sort(times.begin(), times.end());
        queue.enqueueReadBuffer(c_buffer, CL_TRUE, 0, c.size() * 4, c.data());
        if (first.empty()) first = c;
        double difference = 0;
        for (std::size_t i = 0; i < c.size(); ++i)
          difference = std::max(difference, static_cast<double>(std::fabs(c[i] - first[i])));
        std::printf("%dx%dx%d panels %d K_BLOCK %3d group 1x%d: %.2f ms (%.0f GFLOP/s), max difference %.2g\n", m, n, k,
                    use_panels, k_block, group_rows, times[2], 2.0 * m * n * k / times[2] / 1e6, difference);
      }
}
