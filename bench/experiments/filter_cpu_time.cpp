// Experiment (not part of the build): the process CPU time of one image filter call, for A/B comparisons of two
// builds of the library on a shared CPU, where wall times move by 2x with the neighbours' load (the 2-core VM:
// the same binary gave 0.18 and 0.37 ms a call minutes apart) and CPU time much less. Run the two builds' binaries
// alternately, with POCL_MAX_PTHREAD_COUNT=1 so that the kernel runs on one thread, and compare the lowest figure
// of each. Per configuration it prints one line: the CPU ms per call over REPS calls (each enqueue + finish;
// default 100), and the tenth percentile and median of 21 calls' wall time.
// Arguments: OP TYPE WxHxC RX RY CONFIG...
//   OP box | gauss | conv (convolve2d with fixed positive taps); TYPE uint8 | float; RX, RY the filter's radii;
//   CONFIG "default" (the device default, or the database's choice) or a configuration forced through
//   tilecl::tuning::override_parameters, e.g. "vector VEC=16 WG_X=128 WG_Y=1 WPT_Y=32 USE_WINDOW=0".
//   BORDER (environment): 0 zero, 1 clamp, 2 mirror (default), 3 wrap, 4 reflect, 5 constant.
// Build (against each build's library):
//   g++ -O2 -std=c++17 -Iinclude -Ibuild/include -Ibench/experiments bench/experiments/filter_cpu_time.cpp \
//       build/libtilecl.a -lOpenCL -lpthread -o filter_cpu_time
// Session 23 compared the edge chunks through private memory and in registers with it
// (bench/results/pocl-cpu/session23).
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "batch_timing.hpp"
#include "tilecl/tilecl.hpp"
#include "tilecl/tuning.hpp"

using namespace tilecl;

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: filter_cpu_time box|gauss|conv uint8|float WxHxC RX RY CONFIG...\n");
    return 2;
  }
  const cl::Device device = cl::Device::getDefault();
  cl::Context context(device);
  cl::CommandQueue queue(context, device);
  const std::string op = argv[1];
  const bool bytes = std::string(argv[2]) == "uint8";
  std::size_t w = 0, h = 0, c = 0;
  if (std::sscanf(argv[3], "%zux%zux%zu", &w, &h, &c) != 3) return 2;
  const std::size_t rx = std::strtoull(argv[4], nullptr, 10), ry = std::strtoull(argv[5], nullptr, 10);
  const Border border = std::getenv("BORDER") ? static_cast<Border>(std::atoi(std::getenv("BORDER"))) : Border::Mirror;
  const int reps = std::getenv("REPS") ? std::atoi(std::getenv("REPS")) : 100;

  std::vector<unsigned char> pixels(w * h * c * (bytes ? 1 : 4) + 64);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<unsigned char>((i * 37) & 0x3f);
  cl::Buffer src(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pixels.size(), pixels.data());
  cl::Buffer dst(context, CL_MEM_READ_WRITE, pixels.size());
  std::vector<float> taps((2 * rx + 1) * (2 * ry + 1));
  for (std::size_t i = 0; i < taps.size(); ++i) taps[i] = 0.5f / static_cast<float>(taps.size()) + 0.01f * (i % 3);
  cl::Buffer filter(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, taps.size() * 4, taps.data());
  const std::size_t pitch = w * c;

  auto run = [&](auto element) {
    using T = decltype(element);
    if (op == "conv")
      convolve2d<T>(queue, w, h, c, src, 0, pitch, dst, 0, pitch, filter, 0, 2 * rx + 1, 2 * ry + 1, border);
    else if (op == "box")
      box_blur<T>(queue, w, h, c, src, 0, pitch, dst, 0, pitch, rx, ry, border);
    else
      gaussian_blur<T>(queue, w, h, c, src, 0, pitch, dst, 0, pitch, GaussianKernel{2 * rx + 1, 2 * ry + 1, 0, 0},
                       border);
  };
  auto call = [&] { bytes ? run(std::uint8_t{}) : run(float{}); };
  const std::string op_name = op == "box" ? "box_blur" : op == "conv" ? "convolve2d" : "gaussian_blur";

  for (int i = 6; i < argc; ++i) {
    const std::string text = argv[i];
    tuning::clear();
    try {
      if (text != "default")
        tuning::override_parameters(device, op_name, bytes ? "uint8" : "float", tuning::Parameters::parse(text));
      call();
      queue.finish();
      const std::vector<double> wall = experiments::single_call_ms(queue, call, 21);
      const double cpu = experiments::cpu_ms_per_call(queue, call, reps);
      std::printf("%s %s %s %zux%zu %-60s cpu_ms %.4f wall_p10 %.4f wall_median %.4f\n", op.c_str(), argv[2], argv[3],
                  2 * rx + 1, 2 * ry + 1, text.c_str(), cpu, wall[2], wall[10]);
    } catch (const std::exception& e) {
      std::printf("%s: %s\n", text.c_str(), e.what());
    }
  }
}
