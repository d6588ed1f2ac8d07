// Experiment (not part of the build): strided-batched SGEMM whose matrices have one row or one column (m or n of 1:
// a batch of matrix-vector products), the first-use choice beside forced configurations of either kernel
// (tilecl::tuning::override_parameters: a forced configuration runs as given, unfitted). One line of JSON per shape
// and configuration: enqueue + finish median of 20 calls (as the bench's sweep times them) and 20 calls back to back
// per call, beside a copy of the bytes the call reads and writes.
// Build against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude -Ibuild-gpu/include bench/experiments/batched_thin.cpp build-gpu/libtilecl.a \
//       -lOpenCL -lpthread -o batched_thin
// Run: batched_thin > thin.jsonl
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "batch_timing.hpp"
#include "tilecl/gemm_batched.hpp"
#include "tilecl/tuning.hpp"

namespace {

struct Shape {
  std::size_t batch, m, n, k;
  bool ta, tb;
};

std::string name_of(const Shape& s) {
  return std::to_string(s.batch) + "x" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
         ":" + (s.ta ? "T" : "N") + (s.tb ? "T" : "N") + ":row";
}

}  // namespace

int main() {
  cl::Device device = cl::Device::getDefault();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  std::cerr << "device: " << device.getInfo<CL_DEVICE_NAME>() << "\n";
  const std::vector<Shape> shapes{
      {15708, 115, 1, 11, true, false},  {11485, 29, 1, 48, true, true},    {241, 3, 1, 119, false, false},
      {395, 1, 62, 56, true, true},      {4096, 256, 1, 256, false, false}, {4096, 256, 1, 256, true, false},
      {4096, 1, 256, 256, false, false}, {20000, 64, 1, 16, false, false},  {20000, 1, 64, 16, false, true}};
  const std::string thin_m = "cpu WPT_M=1 WPT_N=1 VEC=1 WG_X=128 WG_Y=1";
  for (const auto& s : shapes) {
    const bool column = s.n == 1;  // else a row (m == 1)
    std::vector<std::string> configs{""};
    if (column) {
      for (const char* wg : {"WG_X=1 WG_Y=64", "WG_X=1 WG_Y=128", "WG_X=1 WG_Y=256"})
        configs.push_back(std::string("cpu WPT_M=1 WPT_N=1 VEC=1 ") + wg);
      configs.push_back("cpu WPT_M=2 WPT_N=1 VEC=1 WG_X=1 WG_Y=128");
      // The 64 x 64 default fitted to one column (ed4ddd1: 8 outputs a work-item, 2 matrices a group: 16 work-items),
      // then fewer outputs per work-item, and a 128-row tile.
      for (const char* tiling : {"TILE_M=64 WPT_M=8 MATS=2", "TILE_M=64 WPT_M=4 MATS=2", "TILE_M=64 WPT_M=1 MATS=2",
                                 "TILE_M=128 WPT_M=1 MATS=1"})
        configs.push_back(
            std::string("tiled ") + tiling +
            " TILE_N=1 TILE_K=16 WPT_N=1 PAD=1 USE_LOCAL_VECTORS=0 LOAD_VEC=4 PREFETCH_C=0 DOUBLE_BUFFER=1");
    } else {
      for (const char* wg : {"WG_X=64 WG_Y=1", "WG_X=128 WG_Y=1", "WG_X=256 WG_Y=1"})
        configs.push_back(std::string("cpu WPT_M=1 WPT_N=1 VEC=1 ") + wg);
      configs.push_back("cpu WPT_M=1 WPT_N=4 VEC=4 WG_X=64 WG_Y=1");
      configs.push_back(
          "tiled TILE_M=1 TILE_N=128 TILE_K=16 WPT_M=1 WPT_N=1 MATS=1 PAD=1 USE_LOCAL_VECTORS=0 LOAD_VEC=4 "
          "PREFETCH_C=0 DOUBLE_BUFFER=0");
    }
    const int lda = static_cast<int>(s.ta ? s.m : s.k), ldb = static_cast<int>(s.tb ? s.k : s.n);
    const int ldc = static_cast<int>(s.n);
    const std::size_t stride_a = s.m * s.k, stride_b = s.k * s.n, stride_c = s.m * s.n;
    const std::size_t a_bytes = stride_a * s.batch * 4, b_bytes = stride_b * s.batch * 4,
                      c_bytes = stride_c * s.batch * 4;
    cl::Buffer a(context, CL_MEM_READ_WRITE, a_bytes), b(context, CL_MEM_READ_WRITE, b_bytes),
        c(context, CL_MEM_READ_WRITE, c_bytes);
    queue.enqueueFillBuffer(a, 0.5f, 0, a_bytes);
    queue.enqueueFillBuffer(b, 0.25f, 0, b_bytes);
    queue.enqueueFillBuffer(c, 1.0f, 0, c_bytes);
    const std::size_t moved = a_bytes + b_bytes + 2 * c_bytes;  // beta != 0: C read and written
    cl::Buffer from(context, CL_MEM_READ_WRITE, moved / 2 + 16), to(context, CL_MEM_READ_WRITE, moved / 2 + 16);
    const double copy_ms = tilecl::experiments::single_call_ms(
        queue, [&] { queue.enqueueCopyBuffer(from, to, 0, 0, moved / 2); }, 15)[7];
    for (const auto& config : configs) {
      tilecl::tuning::clear();
      try {
        if (!config.empty())
          tilecl::tuning::override_parameters(device, "gemm_strided_batched", "float",
                                              tilecl::tuning::Parameters::parse(config));
        const auto call = [&] {
          tilecl::gemm_strided_batched<float>(
              queue, tilecl::Layout::RowMajor, s.ta ? tilecl::Transpose::Yes : tilecl::Transpose::No,
              s.tb ? tilecl::Transpose::Yes : tilecl::Transpose::No, s.m, s.n, s.k, 1.0f, a, 0, lda, stride_a, b, 0,
              ldb, stride_b, 0.5f, c, 0, ldc, stride_c, s.batch);
        };
        const auto single = tilecl::experiments::single_call_ms(queue, call, 20);
        const double batch = tilecl::experiments::best_batch_ms(queue, call, 3, 20);
        std::cout << "{\"shape\": \"" << name_of(s) << "\", \"config\": \"" << (config.empty() ? "first-use" : config)
                  << "\", \"ms\": " << single[single.size() / 2] << ", \"batch_ms\": " << batch
                  << ", \"copy_ms\": " << copy_ms << "}" << std::endl;
      } catch (const std::exception& e) {
        std::cerr << name_of(s) << " " << config << ": " << std::string(e.what()).substr(0, 300) << "\n";
      }
    }
  }
  tilecl::tuning::clear();
  return 0;
}
