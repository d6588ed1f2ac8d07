// Experiment (not part of the build): for each gemm shape given, the float gemm dispatch's ranked configurations
// (ops/gemm/shapes.hpp: the first is the device default, TILECL_TUNE=off's choice; first-use tuning times them in
// this order) each forced through tilecl::tuning::override_parameters and timed through the public call, beside
// the choice the process's tuning mode makes (TILECL_TUNE; first-use by default). To learn where the default ranking
// of skinny, deep or mid-size shapes is wrong before changing it.
// Build against a Release build of tilecl (it reads the library's internal headers):
//   g++ -O2 -std=c++17 -Iinclude -Isrc -Ibuild-gpu/include bench/experiments/gemm_ranked.cpp build-gpu/libtilecl.a \
//       -lOpenCL -lpthread -o gemm_ranked
// Run: gemm_ranked SHAPE... > ranked.jsonl, SHAPE as `tilecl tune` takes it (MxNxK[:NN|NT|TN|TT][:row|col]). One JSON
// object per line: shape, rank (-1: the tuning mode's choice), config, ms (host time of 20 back-to-back calls ended by
// one finish, per call, best of three batches) or error.
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "batch_timing.hpp"
#include "ops/gemm/problem.hpp"
#include "ops/gemm/shapes.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/tuning.hpp"

namespace {

double batch_ms(cl::CommandQueue& queue, const std::function<void()>& call) {
  return tilecl::experiments::best_batch_ms(queue, call, 3, 20);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tilecl;
  cl::Device device = select_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  for (int arg = 1; arg < argc; ++arg) {
    const std::string shape = argv[arg];
    const detail::gemm::Call call = detail::gemm::parse_shape(shape);
    const bool row = call.layout == Layout::RowMajor;
    const bool ta = call.trans_a == Transpose::Yes, tb = call.trans_b == Transpose::Yes;
    // Minimal leading dimensions of the stored operands.
    const std::size_t m = call.m, n = call.n, k = call.k;
    const std::size_t lda = row ? (ta ? m : k) : (ta ? k : m), ldb = row ? (tb ? k : n) : (tb ? n : k);
    const std::size_t ldc = row ? n : m;
    auto filled = [&](std::size_t elements) {
      cl::Buffer buffer(context, CL_MEM_READ_WRITE, std::max<std::size_t>(elements, 4) * 4);
      queue.enqueueFillBuffer(buffer, 0x3f3a5c29u, 0, std::max<std::size_t>(elements, 4) * 4);
      return buffer;
    };
    cl::Buffer a = filled(m * k), b = filled(k * n), c = filled(m * n);
    auto run = [&] {
      gemm<float>(queue, call.layout, call.trans_a, call.trans_b, m, n, k, 1.0f, a, 0, lda, b, 0, ldb, 0.0f, c, 0, ldc);
    };
    auto line = [&](int rank, const std::string& config, const std::string& field) {
      std::cout << "{\"shape\": \"" << shape << "\", \"rank\": " << rank << ", \"config\": \"" << config << "\", "
                << field << "}" << std::endl;
    };
    tuning::clear();
    const auto chosen = tuning::parameters_for(queue, "gemm", "float", shape);
    line(-1, chosen.parameters.to_string(), "\"ms\": " + std::to_string(batch_ms(queue, run)));
    const auto ranked =
        detail::gemm::ranked_configs(detail::dtype_of<float>(), detail::gemm::row_major(call), device_info(device));
    for (std::size_t rank = 0; rank < ranked.size(); ++rank) {
      tuning::clear();
      try {
        tuning::override_parameters(device, "gemm", "float", ranked[rank]);
        line(static_cast<int>(rank), ranked[rank].to_string(), "\"ms\": " + std::to_string(batch_ms(queue, run)));
      } catch (const std::exception& e) {
        line(static_cast<int>(rank), ranked[rank].to_string(),
             "\"error\": \"" + std::string(e.what()).substr(0, 120) + "\"");
      }
    }
    tuning::clear();
  }
  return 0;
}
