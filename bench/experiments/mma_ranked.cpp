// Experiment (not part of the build): where half gemm loses to float gemm on a shape, and why. For each shape given
// (as `tilecl tune` takes them: MxNxK[:NN|NT|TN|TT][:row|col], minimal leading dimensions, or `+` appended for every
// leading dimension one more than minimal, as the sweep's `ld+`), one JSON object per line:
//   - "float": gemm<float> through the public call;
//   - "half": gemm<half> through the public call, with the configuration the process's tuning mode chose (first-use
//     by default) and which operands the tensor-core kernel would pack;
//   - with --ranked, "rank N": each of gemm_mma's ranked configurations forced through gemm_mma_with;
//   - with --splits instead, the ranking's first tensor-core tiling packed and in place (IN_PLACE 0, 1) in 1, 2, 4, 8
//     and 16 K shares (SPLIT_K), forced likewise.
// Times: "call_ms", the median of 15 single calls each ended by a finish (as the sweep times them), and "batch_ms",
// 20 back-to-back calls ended by one finish, per call, best of three batches; "device_ms", the span of the call's
// kernels on the device (first start to last end) for forced configurations.
// Build against a Release build of tilecl (it reads the library's internal headers):
//   g++ -O2 -std=c++17 -DCL_HPP_TARGET_OPENCL_VERSION=120 -DCL_HPP_MINIMUM_OPENCL_VERSION=120 -Iinclude -Isrc \
//       -Ibuild-gpu/include bench/experiments/mma_ranked.cpp build-gpu/libtilecl.a -lOpenCL -lpthread -o mma_ranked
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "batch_timing.hpp"
#include "ops/gemm/mma.hpp"
#include "ops/gemm/mma_plan.hpp"
#include "ops/gemm/mma_shapes.hpp"
#include "ops/gemm/problem.hpp"
#include "tilecl/gemm.hpp"
#include "tilecl/tuning.hpp"

namespace {

double call_ms(cl::CommandQueue& queue, const std::function<void()>& call) {
  return tilecl::experiments::single_call_ms(queue, call, 15)[7];
}

double span_ms(const std::vector<cl::Event>& events) {
  cl_ulong first = ~cl_ulong{0}, last = 0;
  for (const cl::Event& event : events) {
    first = std::min(first, event.getProfilingInfo<CL_PROFILING_COMMAND_START>());
    last = std::max(last, event.getProfilingInfo<CL_PROFILING_COMMAND_END>());
  }
  return events.empty() ? 0.0 : static_cast<double>(last - first) * 1e-6;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tilecl;
  cl::Device device = select_device();
  cl::Context context(device);
  cl::CommandQueue queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  bool ranked_too = false, splits_too = false;
  for (int arg = 1; arg < argc; ++arg) {
    std::string shape = argv[arg];
    if (shape == "--ranked") {
      ranked_too = true;
      continue;
    }
    if (shape == "--splits") {
      splits_too = true;
      continue;
    }
    const bool padded = !shape.empty() && shape.back() == '+';
    if (padded) shape.pop_back();
    const detail::gemm::Call call = detail::gemm::parse_shape(shape);
    const bool row = call.layout == Layout::RowMajor;
    const bool ta = call.trans_a == Transpose::Yes, tb = call.trans_b == Transpose::Yes;
    const std::size_t m = call.m, n = call.n, k = call.k, extra = padded ? 1 : 0;
    const std::size_t lda = (row ? (ta ? m : k) : (ta ? k : m)) + extra;
    const std::size_t ldb = (row ? (tb ? k : n) : (tb ? n : k)) + extra;
    const std::size_t ldc = (row ? n : m) + extra;
    const std::size_t a_size = lda * (row ? (ta ? k : m) : (ta ? m : k));
    const std::size_t b_size = ldb * (row ? (tb ? n : k) : (tb ? k : n));
    const std::size_t c_size = ldc * (row ? m : n);
    auto filled = [&](std::size_t bytes, cl_uint pattern) {
      bytes = std::max<std::size_t>(bytes, 4);
      cl::Buffer buffer(context, CL_MEM_READ_WRITE, (bytes + 3) / 4 * 4);
      queue.enqueueFillBuffer(buffer, pattern, 0, (bytes + 3) / 4 * 4);
      return buffer;
    };
    const cl_uint half_pattern = 0x3a1f3955u, float_pattern = 0x3f3a5c29u;  // values near 0.7
    cl::Buffer fa = filled(a_size * 4, float_pattern), fb = filled(b_size * 4, float_pattern),
               fc = filled(c_size * 4, float_pattern);
    cl::Buffer ha = filled(a_size * 2, half_pattern), hb = filled(b_size * 2, half_pattern),
               hc = filled(c_size * 2, half_pattern);
    const std::string full_shape =
        shape + ":lda=" + std::to_string(lda) + ":ldb=" + std::to_string(ldb) + ":ldc=" + std::to_string(ldc);
    auto line = [&](const std::string& what, const std::string& config, const std::string& fields) {
      std::cout << "{\"shape\": \"" << full_shape << "\", \"what\": \"" << what << "\", \"config\": \"" << config
                << "\", " << fields << "}" << std::endl;
    };
    auto times = [&](const std::function<void()>& run) {
      return "\"call_ms\": " + std::to_string(call_ms(queue, run)) +
             ", \"batch_ms\": " + std::to_string(experiments::best_batch_ms(queue, run, 3, 20));
    };
    tuning::clear();
    line("float", "", times([&] {
           gemm<float>(queue, call.layout, call.trans_a, call.trans_b, m, n, k, 1.0f, fa, 0, lda, fb, 0, ldb, 0.5f, fc,
                       0, ldc);
         }));
    auto half_call = [&] {
      gemm<half>(queue, call.layout, call.trans_a, call.trans_b, m, n, k, 1.0f, ha, 0, lda, hb, 0, ldb, 0.5f, hc, 0,
                 ldc);
    };
    half_call();
    queue.finish();
    const auto chosen = tuning::parameters_for(queue, "gemm_mma", "half", full_shape);
    detail::gemm::Call stored = call;
    stored.a.ld = lda, stored.b.ld = ldb, stored.c.ld = ldc;
    const detail::gemm::KernelProblem problem = detail::gemm::row_major(stored);
    const auto& format = detail::gemm::mma::format_info(detail::gemm::mma::Format::F16);
    const unsigned packed = detail::gemm::mma::packed_operands(format, problem);
    line("half", chosen.parameters.to_string(), times(half_call) + ", \"packs\": " + std::to_string(packed));
    if (!ranked_too && !splits_too) continue;
    auto ranked = detail::gemm::mma::ranked_configs(format, problem, device_info(device));
    if (splits_too) {  // the first tensor-core tiling, packed and in place, in 1..16 K shares, instead of the ranking
      const auto first = std::find_if(ranked.begin(), ranked.end(), [](const auto& c) { return c.variant == "mma"; });
      if (first == ranked.end()) continue;
      std::vector<detail::Config> splits;
      for (std::int64_t in_place : {0, 1})
        for (std::int64_t split : {1, 2, 4, 8, 16}) {
          detail::Config config = *first;
          config.values["IN_PLACE"] = in_place, config.values["SPLIT_K"] = split;
          splits.push_back(config);
        }
      ranked = splits;
    }
    for (std::size_t rank = 0; rank < ranked.size(); ++rank) {
      try {
        std::vector<cl::Event> events;
        auto forced = [&] {
          events.clear();
          detail::gemm_mma_with<half>(ranked[rank], queue, call.layout, call.trans_a, call.trans_b, m, n, k, 1.0f, ha,
                                      0, lda, hb, 0, ldb, 0.5f, hc, 0, ldc, nullptr, &events);
        };
        const std::string timed = times(forced);
        forced();
        queue.finish();
        line("rank " + std::to_string(rank), ranked[rank].to_string(),
             timed + ", \"device_ms\": " + std::to_string(span_ms(events)) +
                 ", \"launches\": " + std::to_string(events.size()));
      } catch (const std::exception& e) {
        line("rank " + std::to_string(rank), ranked[rank].to_string(),
             "\"error\": \"" + std::string(e.what()).substr(0, 120) + "\"");
      }
    }
  }
  tuning::clear();
  return 0;
}
