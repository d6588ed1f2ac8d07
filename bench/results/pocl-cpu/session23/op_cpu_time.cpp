// Session 23's throwaway harness for the gray and transpose A/Bs (gray-ab.txt, transpose-ab.txt), kept with the
// results: process CPU time and wall time of one call, linked against each build's libtilecl.a as
// bench/experiments/filter_cpu_time.cpp is (add -Ibench/experiments for batch_timing.hpp).
//   op_cpu_time gray WxH CHANNELS PAD    rgb_to_gray<uint8> (RGB, or RGBA for 4 channels), source pitch W*C+PAD,
//                                        destination pitch W+PAD; 20 calls for the CPU time
//   DT=uint8|float|double|half op_cpu_time transpose ROWSxCOLS CONFIG...
//                                        a copy of the same bytes first, then transpose<T> per CONFIG ("default"
//                                        or forced through override_parameters); 10 calls for the CPU time
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "batch_timing.hpp"
#include "tilecl/tilecl.hpp"

using namespace tilecl;

namespace {

int gray(cl::Context& ctx, cl::CommandQueue& q, char** argv) {
  size_t w = 0, h = 0;
  std::sscanf(argv[2], "%zux%zu", &w, &h);
  const size_t c = std::atoi(argv[3]), pad = std::atoi(argv[4]);
  const size_t sp = w * c + pad, dp = w + pad;
  std::vector<unsigned char> init(sp * h + 64, 77);
  cl::Buffer a(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, init.size(), init.data());
  cl::Buffer b(ctx, CL_MEM_READ_WRITE, dp * h + 64);
  const GrayOptions options(GrayWeights(), c == 4 ? ChannelOrder::RGBA : ChannelOrder::RGB);
  auto call = [&] { rgb_to_gray<std::uint8_t>(q, w, h, a, 0, sp, b, 0, dp, options); };
  call();
  q.finish();
  const auto wall = experiments::single_call_ms(q, call, 21);
  std::printf("%s c%zu pad %zu cpu %.4f wall_p10 %.4f\n", argv[2], c, pad, experiments::cpu_ms_per_call(q, call, 20),
              wall[2]);
  return 0;
}

template <typename T>
int transpose_cases(const cl::Device& device, cl::Context& ctx, cl::CommandQueue& q, int argc, char** argv,
                    const char* dtype) {
  size_t r = 0, c = 0;
  std::sscanf(argv[2], "%zux%zu", &r, &c);
  std::vector<T> init(r * c + 64);
  cl::Buffer a(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, init.size() * sizeof(T), init.data());
  cl::Buffer b(ctx, CL_MEM_READ_WRITE, init.size() * sizeof(T));
  auto call = [&] { transpose<T>(q, r, c, a, 0, c, b, 0, r); };
  auto copy = [&] { q.enqueueCopyBuffer(a, b, 0, 0, r * c * sizeof(T)); };
  copy();
  q.finish();
  std::printf("copy wall_p10 %.4f\n", experiments::single_call_ms(q, copy, 21)[2]);
  for (int i = 3; i < argc; ++i) {
    const std::string text = argv[i];
    tuning::clear();
    if (text != "default") tuning::override_parameters(device, "transpose", dtype, tuning::Parameters::parse(text));
    call();
    q.finish();
    const auto wall = experiments::single_call_ms(q, call, 21);
    std::printf("%s %-50s cpu %.4f wall_p10 %.4f\n", argv[2], text.c_str(), experiments::cpu_ms_per_call(q, call, 10),
                wall[2]);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const cl::Device device = cl::Device::getDefault();
  cl::Context ctx(device);
  cl::CommandQueue q(ctx, device);
  const std::string op = argc > 1 ? argv[1] : "";
  if (op == "gray" && argc == 5) return gray(ctx, q, argv);
  if (op == "transpose" && argc >= 4) {
    const std::string dtype = std::getenv("DT") ? std::getenv("DT") : "uint8";
    if (dtype == "float") return transpose_cases<float>(device, ctx, q, argc, argv, "float");
    if (dtype == "double") return transpose_cases<double>(device, ctx, q, argc, argv, "double");
    if (dtype == "half") return transpose_cases<half>(device, ctx, q, argc, argv, "half");
    return transpose_cases<std::uint8_t>(device, ctx, q, argc, argv, "uint8");
  }
  std::fprintf(stderr, "usage: op_cpu_time gray WxH CHANNELS PAD | op_cpu_time transpose ROWSxCOLS CONFIG...\n");
  return 2;
}
