// Experiment (not part of the build): the tensor-core GEMM on an NVIDIA GPU, configuration by configuration.
//   1. builds gemm_mma_sync with its PTX (-cl-nv-verbose) for each element format and the NN and TT orientations of
//      each tiling, printing the build time and ptxas's report (registers, spills) or the build log;
//   2. verifies each tiling at gemm_mma's ragged verification shapes (tuning subject) and times it at the given square
//      sizes (kernel time from profiling events, median of 5 after a warm-up), beside float gemm.
// Build against a Release build of tilecl:
//   g++ -O2 -std=c++17 -Iinclude -Isrc -Ibuild-gpu/src/generated bench/experiments/mma_probe.cpp \
//       build-gpu/libtilecl.a -lOpenCL -lpthread -o mma_probe
// Run: mma_probe [--builds] [SHAPE...]   (SHAPE: N for N^3 or MxNxK; default 4096 8192)
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "kernel_sources.hpp"
#include "ops/gemm/mma.hpp"
#include "ops/gemm/mma_plan.hpp"
#include "tilecl/device.hpp"
#include "tilecl/gemm.hpp"

using namespace tilecl;
using detail::Config;
namespace mma = detail::gemm::mma;

namespace {

Config sync(std::int64_t tm, std::int64_t tn, std::int64_t tk, std::int64_t wm, std::int64_t wn, std::int64_t stages,
            std::int64_t registers) {
  return {"mma",
          {{"TILE_M", tm},
           {"TILE_N", tn},
           {"TILE_K", tk},
           {"WARPS_M", wm},
           {"WARPS_N", wn},
           {"STAGES", stages},
           {"SPLIT_K", 1},
           {"REGISTERS", registers},
           {"IN_PLACE", 0}}};
}

// The tilings tried: MMA_PROBE_TILINGS="TM,TN,TK,WM,WN,STAGES,REGISTERS;..." (TK for 16-bit formats; tf32 takes
// half of it), or the list below.
std::vector<Config> tilings(mma::Format format) {
  const std::int64_t k = format == mma::Format::TF32 ? 16 : 32;
  if (const char* list = std::getenv("MMA_PROBE_TILINGS")) {
    std::vector<Config> chosen;
    std::istringstream entries(list);
    std::string entry;
    while (std::getline(entries, entry, ';')) {
      long long v[7] = {0, 0, 0, 0, 0, 0, 0};
      if (std::sscanf(entry.c_str(), "%lld,%lld,%lld,%lld,%lld,%lld,%lld", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
                      &v[6]) >= 6)
        chosen.push_back(sync(v[0], v[1], format == mma::Format::TF32 ? v[2] / 2 : v[2], v[3], v[4], v[5], v[6]));
    }
    return chosen;
  }
  return {sync(128, 128, k, 2, 2, 3, 0),     sync(128, 128, k, 2, 2, 3, 168),   sync(128, 128, k, 2, 2, 2, 0),
          sync(128, 128, k / 2, 2, 2, 4, 0), sync(128, 256, k / 2, 2, 4, 4, 0), sync(128, 256, k / 2, 2, 4, 3, 0),
          sync(128, 256, k / 2, 4, 2, 4, 0), sync(256, 128, k / 2, 4, 2, 4, 0), sync(128, 256, k, 2, 4, 2, 0),
          sync(256, 128, k, 4, 2, 2, 0),     sync(128, 64, k, 2, 1, 4, 0),      sync(64, 128, k, 1, 2, 4, 0)};
}

void report_builds(const cl::Context& context, const cl::Device& device) {
  const std::string source = detail::kernel_source("gemm_mma").text;
  for (mma::Format format : {mma::Format::F16, mma::Format::BF16, mma::Format::TF32}) {
    const auto& info = mma::format_info(format);
    for (const Config& config : tilings(format))
      for (bool trans : {false, true}) {
        detail::gemm::KernelProblem p{4096, 4096, 4096, trans, trans, false, {}, {}, {}};
        const auto options =
            mma::main_options(info, config, mma::make_plan(info, config, p, true)).flag("-cl-nv-verbose").render();
        cl::Program program(context, source);
        const auto start = std::chrono::steady_clock::now();
        std::string status = "ok";
        try {
          program.build({device}, options.c_str());
        } catch (const cl::Error&) {
          status = "FAILED";
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
        std::cout << "build " << status << " " << seconds << " s  " << info.dtype->name << " "
                  << (trans ? "TT " : "NN ") << config.to_string() << "\n  " << log.substr(0, 1500) << "\n";
      }
  }
}

double kernel_ms(const std::vector<cl::Event>& events) {
  double total = 0;
  for (const auto& event : events)
    total += static_cast<double>(event.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                 event.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
             1e-6;
  return total;
}

template <typename T>
void time_configs(cl::CommandQueue& queue, const cl::Context& context, std::size_t m, std::size_t n, std::size_t k) {
  const auto format = detail::mma_format_of<T>();
  const auto& info = mma::format_info(format);
  const std::size_t largest = std::max({m * k, k * n, m * n});
  cl::Buffer a(context, CL_MEM_READ_WRITE, largest * sizeof(T)), b(context, CL_MEM_READ_WRITE, largest * sizeof(T)),
      c(context, CL_MEM_READ_WRITE, largest * sizeof(T));
  std::vector<T> values(largest);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = T(static_cast<float>(i % 97) / 97.0f - 0.5f);
  queue.enqueueWriteBuffer(a, CL_TRUE, 0, values.size() * sizeof(T), values.data());
  queue.enqueueWriteBuffer(b, CL_TRUE, 0, values.size() * sizeof(T), values.data());
  auto subject = mma::make_subject(info, {1024, 1024, 1024, false, false, false, {}, {}, {}});
  subject->prepare(queue, 1);
  for (const Config& config : tilings(format)) {
    std::string verified;
    std::vector<double> times;
    try {
      verified = subject->verify(queue, config);
      for (int run = 0; run < 6; ++run) {
        std::vector<cl::Event> events;
        detail::gemm_mma_with<T>(config, queue, Layout::RowMajor, Transpose::No, Transpose::No, m, n, k, 1.0f, a, 0, k,
                                 b, 0, n, 0.0f, c, 0, n, nullptr, &events);
        queue.finish();
        if (run > 0) times.push_back(kernel_ms(events));
      }
    } catch (const std::exception& error) {
      verified = error.what();
    }
    std::sort(times.begin(), times.end());
    const double ms = times.empty() ? 0 : times[times.size() / 2];
    std::cout << "time " << info.dtype->name << " " << m << "x" << n << "x" << k << " " << config.to_string() << "  "
              << (ms > 0 ? 2.0 * m * n * k / (ms * 1e-3) * 1e-12 : 0) << " TFLOP/s  " << ms
              << " ms  verify: " << (verified.empty() ? "ok" : verified.substr(0, 200)) << std::endl;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Arguments: [--builds] SHAPE... where SHAPE is N (N^3) or MxNxK; default 4096 8192.
  bool builds = false;
  std::vector<std::array<std::size_t, 3>> shapes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--builds") {
      builds = true;
      continue;
    }
    std::size_t m = 0, n = 0, k = 0;
    if (std::sscanf(arg.c_str(), "%zux%zux%zu", &m, &n, &k) != 3) m = n = k = std::stoul(arg);
    shapes.push_back({m, n, k});
  }
  if (shapes.empty()) shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}};
  const cl::Device device = select_device();
  const DeviceInfo& info = device_info(device);
  std::cout << info.device_name << " compute capability " << info.nv_compute_capability << ", driver "
            << info.driver_version << "\n";
  cl::Context context(device);
  cl::CommandQueue queue(context, device, CL_QUEUE_PROFILING_ENABLE);
  if (builds) report_builds(context, device);
  for (const auto& [m, n, k] : shapes) {
    time_configs<half>(queue, context, m, n, k);
    time_configs<bfloat16>(queue, context, m, n, k);
    time_configs<float>(queue, context, m, n, k);
  }
  return 0;
}
